// Builds attention-stepper/components into dist/components/: one ES module with the palettes
// bundled in, loadable by a plain <script type="module"> (no bundler, no import map), and chunks
// of its own beside it: KaTeX (katex.js), which stage-view.js imports when a formula is first
// drawn, the Chinese words and each walkthrough's texts (i18n.js): relative import()s, so they come
// from wherever the bundle does (a CDN too).
// The engine stays an import of the package's public entry, 'attention-stepper', written as the
// relative path from dist/components/ to that entry's browser file (dist/engine/index.js): a CDN
// serves it without an import map, and a page that also imports 'attention-stepper' (the same
// file through a bundler or the CDN) shares one WebAssembly instance with the components.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const ENGINE = 'attention-stepper';

/**
 * A chunk's file: a walkthrough's texts (web/locales/<lang>/walkthroughs/<name>.json) by both, a
 * walkthrough of trained models' spec (web/walkthroughs/trained/<name>.js) by its name, else its name.
 */
export const chunkName = ({ facadeModuleId }) => {
  const [, lang, texts] = facadeModuleId?.match(/locales\/(\w+)\/walkthroughs\/([\w-]+)\.json$/) ?? [];
  if (texts) return `texts-${lang}-${texts}.js`;
  const [, spec] = facadeModuleId?.match(/walkthroughs\/trained\/([\w-]+)\.js$/) ?? [];
  return spec ? `walkthrough-${spec}.js` : '[name].js';
};

/**
 * Node imports JSON with `with: { type: 'json' }`, which Vite's imports of a variable path
 * (texts.js: one walkthrough's texts in one language) do not parse: the bundle drops it, as
 * Vite's JSON modules need none.
 */
export const variableJsonImports = {
  name: 'variable-json-imports',
  transform: (code, id) =>
    id.endsWith('/web/locales/texts.js')
      ? code.replace(/(import\(`[^`]*\.json`), \{ with: \{ type: 'json' \} \}\)/g, '$1)')
      : null,
};

export default defineConfig({
  base: './', // asset URLs relative to the module, wherever it is served from
  logLevel: 'warn',
  plugins: [variableJsonImports],
  build: {
    outDir: fileURLToPath(new URL('../../dist/components', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: {
      input: fileURLToPath(new URL('./index.js', import.meta.url)),
      preserveEntrySignatures: 'allow-extension', // the chunks import the bundle's shared modules from it: no facade, no extra request
      external: [ENGINE],
      output: {
        entryFileNames: 'attention-stepper.js',
        // katex.js, locale-zh.js, texts-<lang>-<walkthrough>.js: names the package's tests and
        // sizes.js know
        chunkFileNames: chunkName,
        assetFileNames: '[name][extname]',
        paths: { [ENGINE]: '../engine/index.js' },
      },
    },
  },
});
