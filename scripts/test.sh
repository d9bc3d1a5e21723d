#!/usr/bin/env bash
# The whole test suite; `npm test` runs scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== C++ core (doctest, native)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)" | tail -n 3

echo "== formatting and types"
npm run --silent lint

echo "== JavaScript API (node:test, WebAssembly in Node)"
node --test tests/js/

echo "== browser (Chromium via playwright-core)"
node --test tests/browser/
