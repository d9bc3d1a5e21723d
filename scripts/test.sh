#!/usr/bin/env bash
# The whole test suite; `npm test` runs scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== C++ core (doctest, native)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)" | tail -n 3

echo "== formatting and types"
npx prettier --check web scripts tests/js tests/browser tests/types tests/pack.js
npx tsc -p tests/types

echo "== JavaScript API (node:test, WebAssembly in Node)"
node --test tests/js/

echo "== browser (Chromium via playwright-core)"
node --test tests/browser/
