// Builds attention-stepper/components into dist/components/: one ES module with the palettes
// bundled in, loadable by a plain <script type="module"> (no bundler, no import map), and KaTeX
// as a chunk of its own beside it (katex.js), which stage-view.js imports when a formula is first
// drawn: a relative import(), so it comes from wherever the bundle does (a CDN too).
// The engine stays an import of the package's public entry, 'attention-stepper', written as the
// relative path from dist/components/ to that entry's browser file (dist/engine/index.js): a CDN
// serves it without an import map, and a page that also imports 'attention-stepper' (the same
// file through a bundler or the CDN) shares one WebAssembly instance with the components.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const ENGINE = 'attention-stepper';

export default defineConfig({
  base: './', // asset URLs relative to the module, wherever it is served from
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/components', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: {
      input: fileURLToPath(new URL('./index.js', import.meta.url)),
      preserveEntrySignatures: 'strict',
      external: [ENGINE],
      output: {
        entryFileNames: 'attention-stepper.js',
        chunkFileNames: '[name].js', // katex.js: a name the package's tests and sizes.js know
        assetFileNames: '[name][extname]',
        paths: { [ENGINE]: '../engine/index.js' },
      },
    },
  },
});
