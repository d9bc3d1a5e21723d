#!/usr/bin/env bash
# Builds the C++ core natively (with its doctest suite) and as WebAssembly (web/engine/wasm/).
# `build.sh wasm` builds only the WebAssembly module.
set -euo pipefail
cd "$(dirname "$0")/.."

# Emscripten 3.1.6 from Debian needs Debian's acorn, which NodeSource's node does not search.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc)

if [ "${1:-all}" != wasm ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
fi
[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j "$jobs"
