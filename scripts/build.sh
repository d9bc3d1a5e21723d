#!/usr/bin/env bash
# Builds, in order: the C++ core natively with its doctest suite (plain, and with sanitizers and
# the fuzzer); the WebAssembly module
# (web/engine/wasm/); the components bundle (dist/components/); the page (dist/site/).
#   build.sh          everything
#   build.sh package  what `npm pack` ships: the WebAssembly module and the components
#   build.sh site     everything but the native build
set -euo pipefail
cd "$(dirname "$0")/.."

# Emscripten 3.1.6 from Debian needs Debian's acorn, which NodeSource's node does not search.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc)

target=${1:-all}
if [ "$target" = all ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
  # ASan + UBSan doctest suite and the libFuzzer target: clang 14 (Debian's, as emscripten uses)
  cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
    -DATTENTION_SANITIZE=ON >/dev/null
  cmake --build build/sanitize -j "$jobs"
  # ThreadSanitizer, for the thread pool's tests (scripts/test.sh runs those)
  cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
    -DATTENTION_SANITIZE=thread >/dev/null
  cmake --build build/tsan -j "$jobs" --target core_tests
fi
[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j "$jobs"
# Emscripten 3.1.6 minifies its loader fully only with Closure, which Debian does not ship: esbuild
# (Vite's own minifier) does it instead, so the package's engine JS stays small.
npx esbuild web/engine/wasm/attention-engine.mjs --minify --format=esm --target=es2020 \
  --allow-overwrite --outfile=web/engine/wasm/attention-engine.mjs --log-level=warning
npx vite build --config web/components/vite.config.js
[ "$target" = package ] || npx vite build --config web/vite.config.js
