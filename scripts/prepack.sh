#!/usr/bin/env bash
# `npm pack` and `npm publish` ship dist/. On a clone where `npm run build` never ran, building from
# here would mean installing Debian packages from inside `npm pack`: name that command instead, at
# once. Where it ran, bring dist/ up to date with the sources (seconds when nothing changed).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f dist/engine/index.js ] || [ ! -f dist/components/attention-stepper.js ]; then
  echo "npm pack: the package is not built (dist/): run \`npm run build\` first (it installs emscripten and builds)" >&2
  exit 1
fi
exec bash scripts/build.sh package
