// Writes the shipped models (web/models/*.safetensors) from scratch: node scripts/make-models.js
// (after `npm run build`). See web/models/shipped.js for how they are made.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { loadAttention } from '../dist/engine/index.node.js';
import { makeShippedModel, modelFile, SHIPPED_MODELS, STEPS } from '../web/models/shipped.js';

const attn = await loadAttention();
for (const model of SHIPPED_MODELS) {
  const started = performance.now();
  const { bytes, exactMatch, alignmentAccuracy } = makeShippedModel(attn, model);
  const file = new URL(`../web/models/${modelFile(model)}`, import.meta.url);
  writeFileSync(file, bytes);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `${modelFile(model)}: ${STEPS} steps, exact match ${exactMatch}, alignment ${alignmentAccuracy}, ${kb(bytes.length)} (${kb(gzipSync(bytes, { level: 9 }).length)} gzip), ${seconds} s`,
  );
}
