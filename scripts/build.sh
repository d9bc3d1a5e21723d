#!/usr/bin/env bash
# Builds, in order: the C++ core natively with its doctest suite (plain, and with sanitizers and
# the fuzzer); the WebAssembly modules (build/wasm/); the package: the engine (dist/engine/) and
# the components bundle (dist/components/); the page (dist/site/). Build output lives in build/
# and dist/ only, never among the sources.
#   build.sh          everything
#   build.sh package  what `npm pack` ships: dist/engine/ and dist/components/
#   build.sh site     everything but the native build
set -euo pipefail
cd "$(dirname "$0")/.."

# Without the toolchain this would fail halfway with a compiler's error (or npx would fetch a tool
# from the registry): name the command that installs it instead.
if ! command -v emcc >/dev/null || [ ! -x node_modules/.bin/vite ]; then
  echo "build.sh: emscripten or the npm packages are missing: run \`npm run build\` (it installs them, then builds)" >&2
  exit 1
fi

# Emscripten 3.1.6 from Debian needs Debian's acorn, which NodeSource's node does not search.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc)
# Each step says how long the build has run so far, so a slow CI run shows where.
step() { echo "-- build.sh: $1 (at ${SECONDS} s)"; }

target=${1:-all}
if [ "$target" = all ]; then
  step "native"
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
  # ASan + UBSan doctest suite and the libFuzzer target: clang 14 (Debian's, as emscripten uses).
  # -O1 and line tables only: the usual sanitizer build, and half the compile time of -O2 -g.
  step "AddressSanitizer and UBSan, the fuzzer"
  cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DATTENTION_SANITIZE=ON >/dev/null
  cmake --build build/sanitize -j "$jobs"
  # ThreadSanitizer, for the thread pool's tests (scripts/test.sh runs those)
  step "ThreadSanitizer"
  cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DATTENTION_SANITIZE=thread >/dev/null
  cmake --build build/tsan -j "$jobs" --target core_tests
fi
step "WebAssembly"
[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j "$jobs"

# The package's engine from the sources in $1 (web/) into $2 (dist/engine/): the hand-written
# wrapper and types from $1/engine/, the modules from build/wasm/engine/. Node's threaded module
# reads the browsers' threaded .wasm (index.node.js), so its own copy stays behind; its folder gets
# a package.json saying CommonJS, for its worker.
modules=build/wasm/engine
package_engine() {
  local web=$1 out=$2
  rm -rf "$out"
  mkdir -p "$out/wasm/node"
  cp "$web"/engine/*.js "$web"/engine/*.d.ts "$out/"
  # The entry's types re-export every kind's (<kind>-types.d.ts and what they share), whose
  # entries join ModelKinds and AttentionEngine by declaration merging: the hand-written entry
  # names no kind.
  for types in "$web"/engine/*-types.d.ts; do
    echo "export * from './$(basename "$types" .d.ts).js';"
  done >>"$out/index.d.ts"
  # the trained models a page can show at once (scripts/make-models.js writes them)
  mkdir -p "$out/models"
  cp "$web"/models/*.safetensors "$out/models/"
  # the checkpoints shipped as Hugging Face's files, a folder each (its model card stays behind)
  for folder in "$web"/models/*/; do
    mkdir -p "$out/models/$(basename "$folder")"
    cp "$folder"config.json "$folder"model.safetensors "$folder"tokenizer*.json "$out/models/$(basename "$folder")/"
  done
  # tensors.js takes fflate (the .npz container) in with it, so the engine still imports without
  # a bundler or an import map, and the package has no runtime dependency.
  npx esbuild "$web/engine/tensors.js" --bundle --minify --format=esm --target=es2020 \
    --allow-overwrite --outfile="$out/tensors.js" --log-level=warning
  # A pretrained model's methods and its tokenizer, with @huggingface/tokenizers, and the finding
  # of a folder's files are one module of their own, which only loadPretrained imports
  # (pretrained.js): its parts are inside it.
  npx esbuild "$web/engine/pretrained-model.js" --bundle --minify --format=esm --target=es2020 \
    --allow-overwrite --outfile="$out/pretrained-model.js" --log-level=warning
  rm "$out/pretrained-tokenizer.js" "$out/pretrained-files.js"
  # The browsers' entry as one minified module, its own modules (and fflate) inside: a CDN serves
  # one file instead of seventeen, half the bytes. The modules' loaders (wasm/) stay files of their
  # own, loaded as before; Node's entry and the training worker import the modules beside it.
  npx esbuild "$web/engine/index.js" --bundle --minify --format=esm --target=es2020 \
    --allow-overwrite '--external:./wasm/*' --outfile="$out/index.js" --log-level=warning
  # Each of the engine (every function) and the core (no models: loadModels() brings the engine).
  for module in attention-engine attention-core; do
    cp $modules/$module.wasm $modules/$module-threads.{mjs,wasm,worker.js} "$out/wasm/"
    cp $modules/node/$module-threads.{cjs,worker.js} "$out/wasm/node/"
    # Emscripten 3.1.6 minifies its loader fully only with Closure, which Debian does not ship:
    # esbuild (Vite's own minifier) does it instead, so the package's engine JS stays small.
    npx esbuild $modules/$module.mjs --minify --format=esm --target=es2020 \
      --outfile="$out/wasm/$module.mjs" --log-level=warning
  done
  echo '{ "type": "commonjs" }' >"$out/wasm/node/package.json"
}
# Checkouts built before this layout hold the modules in web/engine/wasm/, no longer ignored by git.
rm -rf web/engine/wasm
step "the package and the page"
package_engine web dist/engine

npx vite build --config web/components/vite.config.js
cp web/components/index.d.ts dist/components/
[ "$target" = package ] || npx vite build --config web/vite.config.js

# The tests' package (build/test-kinds/): the sources with the test build's own kinds added as the
# recipe adds a kind (tests/kinds/package.js), its engine the single-threaded one that has them
# (build/wasm/engine-test-kinds/; no threaded one), and the page built from them.
if [ "$target" = all ]; then
  step "the tests' engine and page"
  cmake --build build/wasm -j "$jobs" --target attention_engine_test_kinds
  node tests/kinds/package.js build/test-kinds/web
  package_engine build/test-kinds/web build/test-kinds/dist/engine
  rm build/test-kinds/dist/engine/wasm/attention-engine-threads.* build/test-kinds/dist/engine/wasm/node/attention-engine-threads.*
  cp build/wasm/engine-test-kinds/attention-engine.wasm build/test-kinds/dist/engine/wasm/
  npx esbuild build/wasm/engine-test-kinds/attention-engine.mjs --minify --format=esm --target=es2020 \
    --outfile=build/test-kinds/dist/engine/wasm/attention-engine.mjs --log-level=warning
  npx vite build --config build/test-kinds/web/vite.config.js --logLevel error
fi
step "done"
