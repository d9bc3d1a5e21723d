// Prints the gzip size of each package entry, as the README reports them: node scripts/sizes.js
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { modelFile, SHIPPED_MODELS } from '../web/engine/models.js';

const entries = {
  'attention-stepper (engine JS: index.js, engine.js, tensors.js with fflate, loader)': [
    'dist/engine/index.js',
    'dist/engine/engine.js',
    'dist/engine/tensors.js',
    'dist/engine/wasm/attention-engine.mjs',
  ],
  'attention-stepper/wasm (attention-engine.wasm)': ['dist/engine/wasm/attention-engine.wasm'],
  'threaded module, loaded instead on cross-origin-isolated pages (loader, worker, wasm)': [
    'dist/engine/wasm/attention-engine-threads.mjs',
    'dist/engine/wasm/attention-engine-threads.worker.js',
    'dist/engine/wasm/attention-engine-threads.wasm',
  ],
  'attention-stepper/components (with KaTeX and palettes; loads the engine)': ['dist/components/attention-stepper.js'],
  'attention-stepper/styles.css': ['dist/components/styles.css'],
  // the trained models the package ships, by kind
  ...Object.fromEntries(
    [...new Set(SHIPPED_MODELS.map(({ kind }) => kind))].map((kind) => [
      `attention-stepper/models/* (the trained ${kind} models, float16)`,
      SHIPPED_MODELS.filter((entry) => entry.kind === kind).map((entry) => `dist/engine/models/${modelFile(entry)}`),
    ]),
  ),
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const [name, files] of Object.entries(entries)) {
  const raw = files.reduce((sum, file) => sum + readFileSync(file).length, 0);
  const gzip = files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
  console.log(`${name}: ${kb(gzip)} gzip (${kb(raw)} raw)`);
}
