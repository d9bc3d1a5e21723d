// Prints the gzip size of each package entry, as the README reports them: node scripts/sizes.js
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

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
  'attention-stepper/models/* (the trained seq2seq models, float16)': [
    'dist/engine/models/en-fr-additive.safetensors',
    'dist/engine/models/en-zh-additive.safetensors',
  ],
  'attention-stepper/models/shapes-en.safetensors (the trained captioner, float16)': [
    'dist/engine/models/shapes-en.safetensors',
  ],
  'attention-stepper/models/en-fr.safetensors (the trained Transformer, float16)': [
    'dist/engine/models/en-fr.safetensors',
  ],
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const [name, files] of Object.entries(entries)) {
  const raw = files.reduce((sum, file) => sum + readFileSync(file).length, 0);
  const gzip = files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
  console.log(`${name}: ${kb(gzip)} gzip (${kb(raw)} raw)`);
}
