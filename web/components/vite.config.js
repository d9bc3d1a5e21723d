// Builds attention-stepper/components into dist/components/: one ES module with KaTeX and the
// palettes bundled in, loadable by a plain <script type="module"> (no bundler, no import map).
// The engine stays an import of the package's own web/engine/ modules, so a page that also
// imports 'attention-stepper' shares one WebAssembly instance with the components.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const engineModules = ['index.js', 'engine.js'].map((file) =>
  fileURLToPath(new URL(`../engine/${file}`, import.meta.url)),
);

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
      external: engineModules,
      output: {
        entryFileNames: 'attention-stepper.js',
        assetFileNames: '[name][extname]',
        paths: (id) => (engineModules.includes(id) ? `../../web/engine/${id.split('/').pop()}` : id),
      },
    },
  },
});
