// The size of each package entry, gzip (level 9, file by file, as a server sends them) and raw, from
// the built dist/: `node scripts/sizes.js` prints them; `node scripts/sizes.js --write` writes the
// table in docs/package.md (its `sizes` block), which tests/js/docs.test.js holds to within 2%.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { markdownTable, root, writeBlocks } from './generated-blocks.js';
import { modelFile } from '../web/engine/models.js';
import { SHIPPED_MODELS } from '../web/engine/kinds.js';

/** a JS module and every module it imports statically (relative imports; dynamic import() left out) */
function moduleGraph(start) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, spec] of text.matchAll(/(?:\bfrom|\bimport)\s*['"](\.{1,2}\/[^'"]+)['"]/g))
      visit(normalize(join(dirname(file), spec)));
  };
  visit(start);
  return [...seen];
}

const kinds = [...new Set(SHIPPED_MODELS.map(({ kind }) => kind))];

/** the package's entries: a name for the table and the files it counts */
export const entries = () => [
  {
    entry: '`attention-stepper`: the engine JS (`index.js` and the modules it imports)',
    files: moduleGraph('dist/engine/index.js'),
  },
  {
    entry: 'the core module: `attention-core.wasm` and its loader (no models), loaded by `loadAttention()`',
    files: ['dist/engine/wasm/attention-core.mjs', 'dist/engine/wasm/attention-core.wasm'],
  },
  {
    entry: '`attention-stepper/wasm`: `attention-engine.wasm` and its loader, loaded by `loadModels()`',
    files: ['dist/engine/wasm/attention-engine.mjs', 'dist/engine/wasm/attention-engine.wasm'],
  },
  ...['core', 'engine'].map((module) => ({
    entry: `the threaded ${module} module, loaded instead where threads can run (loader, worker, \`.wasm\`)`,
    files: ['mjs', 'worker.js', 'wasm'].map((ending) => `dist/engine/wasm/attention-${module}-threads.${ending}`),
  })),
  {
    entry: "the training worker: `training-worker.js` (it imports the engine JS above and the engine's loader)",
    files: ['dist/engine/training-worker.js'],
  },
  {
    entry:
      "`attention-stepper/components`: `attention-stepper.js` (the palettes and the English words every page needs bundled; KaTeX, the Chinese words, each walkthrough's texts and the walkthroughs of trained models apart, below)",
    files: ['dist/components/attention-stepper.js'],
  },
  {
    entry:
      'the Chinese words every page needs: `locale-zh.js` beside it, loaded by the components for a stepper or page in Chinese',
    files: ['dist/components/locale-zh.js'],
  },
  ...['en', 'zh'].map((lang) => ({
    entry: `each walkthrough's own ${lang === 'en' ? 'English' : 'Chinese'} texts: \`texts-${lang}-<walkthrough>.js\` beside it, one loaded when its walkthrough is first shown (all of them)`,
    files: readdirSync(join(root, 'dist/components'))
      .filter((file) => file.startsWith(`texts-${lang}-`))
      .map((file) => `dist/components/${file}`),
  })),
  {
    entry: "the Attention Basics walkthrough's English texts alone (`texts-en-basics.js`), as its embed loads them",
    files: ['dist/components/texts-en-basics.js'],
  },
  {
    entry:
      'the model panel: `model-panel.js` beside it, loaded by the components with the first walkthrough of trained models',
    files: ['dist/components/model-panel.js'],
  },
  {
    entry:
      "the walkthroughs of trained models' specs: `walkthrough-<name>.js` beside it (and the parts they share, `translation.js`, `training-choices.js`), one loaded by the components when its walkthrough is first shown (all of them)",
    files: readdirSync(join(root, 'dist/components'))
      .filter((file) => /^(walkthrough-|translation\.js|training-choices\.js)/.test(file))
      .map((file) => `dist/components/${file}`),
  },
  {
    entry: 'KaTeX: `katex.js` beside it, loaded by the components once a stage with a formula is on screen',
    files: ['dist/components/katex.js'],
  },
  { entry: '`attention-stepper/styles.css`', files: ['dist/components/styles.css'] },
  ...kinds.map((kind) => {
    const files = SHIPPED_MODELS.filter((entry) => entry.kind === kind).flatMap(
      (entry) => entry.files ?? [modelFile(entry)],
    );
    return {
      entry: `\`attention-stepper/models/\`: ${kind} (${files.map((file) => `\`${file}\``).join(', ')})`,
      files: files.map((file) => `dist/engine/models/${file}`),
    };
  }),
];

/** each entry's measured sizes in bytes: [{ entry, files, gzip, raw }] */
export function measure() {
  return entries().map(({ entry, files }) => {
    for (const file of files)
      if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
    const bytes = files.map((file) => readFileSync(join(root, file)));
    return {
      entry,
      files,
      raw: bytes.reduce((sum, data) => sum + data.length, 0),
      gzip: bytes.reduce((sum, data) => sum + gzipSync(data, { level: 9 }).length, 0),
    };
  });
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** the docs' table of the measured sizes */
export const sizeTable = (sizes) =>
  markdownTable(
    ['entry', 'gzip', 'raw'],
    sizes.map(({ entry, gzip, raw }) => [entry, kb(gzip), kb(raw)]),
  );

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = measure();
  if (process.argv.includes('--write')) writeBlocks({ sizes: sizeTable(sizes) });
  else for (const { entry, gzip, raw } of sizes) console.log(`${entry}: ${kb(gzip)} gzip (${kb(raw)} raw)`);
}
