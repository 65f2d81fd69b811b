#!/usr/bin/env bash
# Runs pharmafeed on the other Node.js lines a shop may have (22, 24, 26: the official
# binaries, fetched by scripts/node-lines.sh) in this tree, as .ci/run does after the
# whole suite on the machine's Node.js:
#   - `npm start` (build, then the demo: a full run of 2,000 products against the sandbox),
#     then GENERATES-1 more demo runs in a row (they reuse the first: the runs that met the
#     better-sqlite3 abort of issue 33 on Node.js 24 were such runs),
#   - the end-to-end subset: test/e2e, the snapshot and explain CLI tests, store/native.
# Exits non-zero when any of them fails on any line, and prints the time of each step.
#
#   scripts/test-lines.sh              # 22 24 26
#   scripts/test-lines.sh 24           # one line
#   GENERATES=20 E2E=no scripts/test-lines.sh # 20 runs in a row on each line (issue 33)
#
# No install per line: every native module the code loads is Node-API (better-sqlite3 13,
# sharp), so the node_modules `npm ci` made on the machine's Node.js serve every line.
set -euo pipefail
cd "$(dirname "$0")/.."

GENERATES=${GENERATES:-1}
RUN_E2E=${E2E:-yes}
E2E=(test/e2e test/snapshot/cli.test.ts test/explain/explain.test.ts test/explain/stale.test.ts test/store/native.test.ts)
summary=()
failed=0

seconds() { local start=$1; echo $(($(date +%s) - start)); }

# Fetched first, so that a failed download or integrity check stops the script (set -e).
binaries=$(scripts/node-lines.sh "$@")
[ -f dist/cli.js ] || npm run build --silent
while read -r line version bin; do
  echo "=== Node.js $line ($version): $bin"
  node_path="$(dirname "$bin"):$PATH"
  start=$(date +%s) log=$(mktemp)
  rm -rf output/state output/manifest.json
  status=ok first=?
  for ((i = 1; i <= GENERATES; i++)); do
    # npm itself runs on the line's Node.js too (#!/usr/bin/env node). Later runs skip the build.
    if [ "$i" = 1 ]; then run=(npm start --silent); else run=(node dist/cli.js demo); fi
    PATH=$node_path "${run[@]}" >"$log" 2>&1 || {
      status="failed on run $i (exit $?)"
      tail -20 "$log" >&2
      break
    }
    [ "$i" = 1 ] && first=$(seconds "$start")
  done
  [ "$status" = ok ] || failed=1
  summary+=("Node.js $version: npm start $first s, $GENERATES runs in a row $(seconds "$start") s: $status")
  [ "$RUN_E2E" = yes ] || continue
  start=$(date +%s)
  if PATH=$node_path node node_modules/vitest/vitest.mjs run "${E2E[@]}"; then status=ok; else status=failed; failed=1; fi
  summary+=("Node.js $version: e2e subset $(seconds "$start") s: $status")
done <<<"$binaries"

printf '%s\n' "${summary[@]}"
exit "$failed"
