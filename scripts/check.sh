#!/usr/bin/env bash
# `npm run check`: the static checks (tsc, eslint with the import boundaries, prettier --check,
# madge --circular), run at once: each is one process busy on one core, and none needs another's
# result. Prints each one's output in this order once all have finished; exits non-zero when any
# failed, naming it.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
checks=(
  "tsc|$bin/tsc -p . --noEmit"
  "eslint|$bin/eslint src test bench webview"
  "prettier|$bin/prettier --check ."
  "madge|$bin/madge --circular --extensions ts --ts-config tsconfig.json src webview"
)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pids=()
for i in "${!checks[@]}"; do
  # Word splitting is meant: the commands have no quoted arguments.
  ${checks[$i]#*|} >"$out/$i" 2>&1 &
  pids+=($!)
done
failed=()
for i in "${!checks[@]}"; do
  name=${checks[$i]%%|*}
  cat "$out/$i"
  wait "${pids[$i]}" || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "check: failed: ${failed[*]}" >&2
  exit 1
fi
