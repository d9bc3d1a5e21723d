#!/usr/bin/env bash
# Builds the C++ core natively (with its doctest suite), as WebAssembly (web/engine/wasm/), and
# the page into dist/site/. `build.sh wasm` builds only the WebAssembly module; `build.sh site`
# skips the native build.
set -euo pipefail
cd "$(dirname "$0")/.."

# Emscripten 3.1.6 from Debian needs Debian's acorn, which NodeSource's node does not search.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc)

target=${1:-all}
if [ "$target" = all ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
fi
[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j "$jobs"
[ "$target" = wasm ] || npx vite build --config web/vite.config.js
