#!/usr/bin/env bash
# Runs the static checks (`npm run check`: tsc, eslint with the import boundaries, prettier --check,
# madge --circular), then builds and runs every test suite: unit tests (Node), the server suite
# (every kubectl on the machine and client-node against `listwatch serve`), the extension-host
# suite (real VS Code server + Chromium), the UI tests (the real workbench driven in Chromium), and
# the packaged .vsix installed into VS Code. A type error, a lint error, unformatted code or an
# import cycle counts as one failed test; the suites run regardless. Prints each suite's mocha
# summary; the last line is the total, `N passed, N failed`.
# Exits non-zero when anything failed. Needs `npm run test:setup` once (Chromium, VS Code server,
# kubectl 1.20).
set -uo pipefail
cd "$(dirname "$0")/.."
logs=test-results/logs
mkdir -p "$logs"

total_passed=0
total_failed=0
summaries=()
failures=()

# run_suite <name> <command...>: runs it with output to the terminal and to $logs/<name>.log, then
# adds its mocha counts to the totals. A suite that fails without a mocha summary (it crashed, or
# its build failed) counts as one failed test; one that "passes" without running a test, too.
run_suite() {
  local name=$1; shift
  local started=$SECONDS
  echo
  echo "=== $name: $*"
  "$@" 2>&1 | tee "$logs/$name.log"
  count_suite "$name" "${PIPESTATUS[0]}" "$started"
}

# start_suite <name> <command...>: starts it in the background with its output to
# $logs/<name>.log only; finish_suite <name> waits for it, prints its log and counts it as
# run_suite does. For a suite that can share the machine with the one run meanwhile.
declare -A suite_pid suite_started suite_command
start_suite() {
  local name=$1; shift
  suite_started[$name]=$SECONDS
  suite_command[$name]="$*"
  "$@" >"$logs/$name.log" 2>&1 &
  suite_pid[$name]=$!
}
finish_suite() {
  local name=$1 rc=0
  wait "${suite_pid[$name]}" || rc=$?
  echo
  echo "=== $name (run alongside the suite above): ${suite_command[$name]}"
  cat "$logs/$name.log"
  count_suite "$name" "$rc" "${suite_started[$name]}"
}

# count_suite <name> <exit code> <start $SECONDS>: adds the mocha counts of $logs/<name>.log.
count_suite() {
  local name=$1 rc=$2 started=$3
  local log="$logs/$name.log"
  local passed failed
  passed=$(grep -E '^\s*[0-9]+ passing' "$log" | tail -n 1 | grep -oE '[0-9]+' | head -n 1)
  failed=$(grep -E '^\s*[0-9]+ failing' "$log" | tail -n 1 | grep -oE '[0-9]+' | head -n 1)
  passed=${passed:-0}
  failed=${failed:-0}
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  if [ "$rc" -eq 0 ] && [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
    echo "$name: exited 0 but ran no test" >&2
    failed=1
  fi
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  # The failing tests' titles and messages (mocha's list after "N failing", stack frames left out:
  # `at fn (file:line:col)`, not a title that starts with "at"),
  # repeated under the summary: a CI record that keeps only the output's tail still names them.
  if [ "$failed" -gt 0 ]; then
    failures+=("--- $name (full log $log)")
    local listed
    listed=$(sed -n '/^ *[0-9][0-9]* failing/,$p' "$log" | grep -vE '^\s+at .*:[0-9]+:[0-9]+\)?$|^\s*$' | head -n 40)
    # No mocha list (it crashed, or its build failed): its last lines say why.
    failures+=("${listed:-$(tail -n 20 "$log")}")
  fi
  summaries+=("$(printf '%-10s %4d passing, %d failing (exit %d, %ds)' "$name" "$passed" "$failed" "$rc" $((SECONDS - started)))")
}

# run_step <name> <command...>: a step that is not a test suite (check, build, package), with its
# output to $logs/<name>.log too; failing counts as one failed test, and its last lines go under
# "=== failures" (which file prettier or tsc named).
run_step() {
  local name=$1; shift
  local log="$logs/$name.log"
  echo
  echo "=== $name: $*"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then return 0; fi
  total_failed=$((total_failed + 1))
  summaries+=("$(printf '%-10s failed (exit %d)' "$name" "$rc")")
  failures+=("--- $name (full log $log)")
  failures+=("$(tail -n 20 "$log")")
  return 1
}

run_step check npm run --silent check

if run_step build bash -c 'node esbuild.js && node esbuild.js --only test/harness/vscode-launcher.ts >/dev/null'; then
  # The etcd suite alongside the unit suite: the unit suite keeps one core busy, the etcd suite
  # mostly waits on its etcd members (well under one core), and the machine has two.
  start_suite etcd npx mocha --no-config --enable-source-maps --reporter spec --timeout 180000 'out/test/etcd/**/*.test.js'
  run_suite unit npx mocha
  finish_suite etcd
  # Two files at a time (mocha --parallel, a worker process each): a server test mostly waits on
  # kubectl and its server (about half a core); record-fixture sums the workers' client records.
  run_suite server npx mocha --no-config --enable-source-maps --reporter spec --timeout 120000 --require out/test/server/harness/record-fixture.js --parallel --jobs 2 'out/test/server/**/*.test.js'
  run_suite extension node out/test/extension/runTests.js
  run_suite e2e npx mocha --no-config --enable-source-maps --reporter spec --timeout 180000 'out/test/e2e/**/*.test.js'
  if run_step package npm run --silent package; then
    run_suite vsix node out/test/extension/runVsixTests.js
  fi
fi

if [ ${#failures[@]} -gt 0 ]; then
  echo
  echo "=== failures"
  for f in "${failures[@]}"; do echo "$f"; done
fi
echo
echo "=== summary (logs in $logs/, screenshots in test-results/e2e/)"
for s in "${summaries[@]}"; do echo "$s"; done
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
