// Builds the page (web/) into dist/site/: static files any host can serve, with the engine's
// .wasm as an asset beside the scripts. `base: './'` keeps every URL relative.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/site', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0, // never inline the .wasm as a data: URL (blocked by strict CSPs)
  },
});
