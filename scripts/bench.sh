#!/usr/bin/env bash
# `make bench`: prints figures (p50/p95, core count); nothing here asserts a time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# sqlite3 (bulk seeding) and chromium (bench/console.bench.ts), as for the tests.
scripts/test-deps.sh
node scripts/build-bench.mjs
for bench in build/bench/*.bench.mjs; do
  echo "== ${bench#build/bench/}"
  node "$bench"
done
if [ -f bench/crypto/run.mjs ]; then
  echo "== crypto in goja"
  node bench/crypto/run.mjs
fi
