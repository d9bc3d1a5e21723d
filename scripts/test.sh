#!/usr/bin/env bash
# The whole test suite; `npm test` runs scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each section's heading says how long the suite has run so far, so a slow CI run shows where.
section() { echo "== $1 (at ${SECONDS} s)"; }

section "C++ core (doctest, native)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)" | tail -n 3

section "the thread pool and threaded attention under ThreadSanitizer"
build/tsan/core_tests --minimal --source-file='*test_parallel*'

# The AddressSanitizer suite and the fuzzer run on one core each, one after the other, beside the
# lint and the Node tests (mostly one core too); their logs are printed when they are done.
scratch=$(mktemp -d)
(
  build/sanitize/core_tests --minimal >"$scratch/sanitize.log" 2>&1 || exit 10
  # New inputs go to a scratch folder, so the committed corpus stays as it is.
  mkdir "$scratch/inputs"
  build/sanitize/fuzz_core -max_total_time="${FUZZ_SECONDS:-30}" -print_final_stats=1 \
    -artifact_prefix="$scratch/" "$scratch/inputs" tests/fuzz/corpus >"$scratch/fuzz.log" 2>&1 || exit 20
) &
sanitized=$!
# a failure below stops the background job too
trap 'kill "$sanitized" 2>/dev/null || true; rm -rf "$scratch"' EXIT

section "formatting and types"
npm run --silent lint

section "JavaScript API (node:test, WebAssembly in Node)"
node --test tests/js/

section "C++ core under AddressSanitizer and UndefinedBehaviorSanitizer, then fuzzing it (libFuzzer, ${FUZZ_SECONDS:-30} s, from the committed corpus)"
status=0
wait "$sanitized" || status=$?
cat "$scratch/sanitize.log"
if [ "$status" -eq 10 ]; then
  echo "the AddressSanitizer/UBSan suite failed"
  exit 1
fi
grep -E '^stat::number_of_executed_units' "$scratch/fuzz.log" || true
if [ "$status" -ne 0 ]; then
  tail -n 40 "$scratch/fuzz.log"
  echo "the fuzzer found a failing input (exit $status)"
  exit 1
fi

section "browser (Chromium via playwright-core)"
node --test tests/browser/

section "done"
