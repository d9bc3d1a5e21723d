// Builds the page (web/) into dist/site/: static files any host can serve, with the engine's
// .wasm as an asset beside the scripts. `base: './'` keeps every URL relative.
// The page and the components it shares import the engine as users do, by the package name
// 'attention-stepper'. Vite does not resolve a package's own name, so an alias points it at the
// built engine entry for browsers, dist/engine/index.js (scripts/build.sh builds it first).
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

import { variableJsonImports } from './components/vite.config.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  plugins: [variableJsonImports],
  resolve: {
    alias: [
      {
        find: /^attention-stepper$/,
        replacement: fileURLToPath(new URL('../dist/engine/index.js', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/site', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0, // never inline the .wasm as a data: URL (blocked by strict CSPs)
  },
});
