#!/usr/bin/env bash
# Installs everything `npm test`, `npm start` and `npm run build` need on a fresh Debian bookworm
# machine (root, Node 20): Debian packages, then npm packages. Safe to re-run: each step is
# skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang-14 + libclang-rt-14-dev: sanitizers and libFuzzer for the native core.
# fonts-wqy-microhei: Chinese glyphs for the browser tests' screenshots of the zh page.
# jupyter-nbconvert, python3-ipykernel, python3-numpy: the Jupyter example, executed in the tests.
DEBIAN_PACKAGES=(cmake g++ make emscripten node-acorn libxtensor-dev xtl-dev doctest-dev clang-14
  libclang-rt-14-dev chromium fonts-wqy-microhei jupyter-nbconvert python3-ipykernel python3-numpy)
missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm packages, exactly as the committed lock file has them, when node_modules is missing or older
# than it. package.json pins rollup (through vite) to a release whose platform binaries this
# registry holds for every platform, so the lock file lists them all and `npm ci` accepts it.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund
fi
