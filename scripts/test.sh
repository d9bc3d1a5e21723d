#!/usr/bin/env bash
# The whole test suite; `npm test` runs scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== C++ core (doctest, native)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)" | tail -n 3

echo "== C++ core under AddressSanitizer and UndefinedBehaviorSanitizer"
build/sanitize/core_tests --minimal

echo "== the thread pool and threaded attention under ThreadSanitizer"
build/tsan/core_tests --minimal --source-file='*test_parallel*'

echo "== fuzzing the core (libFuzzer, ${FUZZ_SECONDS:=45} s, from the committed corpus)"
# New inputs go to a scratch folder, so the committed corpus stays as it is.
scratch=$(mktemp -d)
status=0
build/sanitize/fuzz_core -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 -artifact_prefix="$scratch/" \
  "$scratch" tests/fuzz/corpus >"$scratch/log" 2>&1 || status=$?
grep -E '^stat::number_of_executed_units' "$scratch/log" || true
if [ "$status" -ne 0 ]; then
  tail -n 40 "$scratch/log"
  echo "the fuzzer found a failing input (exit $status)"
  exit 1
fi
rm -rf "$scratch"

echo "== formatting and types"
npm run --silent lint

echo "== JavaScript API (node:test, WebAssembly in Node)"
node --test tests/js/

echo "== browser (Chromium via playwright-core)"
node --test tests/browser/
