// Writes the shipped models (web/models/*.safetensors) and the table they were chosen from
// (web/models/selection.json) from scratch: node scripts/make-models.js (after `npm run build`).
// See web/models/shipped.js for how they are made and chosen.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { loadAttention } from '../dist/engine/index.node.js';
import {
  CANDIDATES,
  chooseCandidate,
  modelFile,
  SHIPPED_MODELS,
  STEPS,
  trainCandidate,
  VALIDATION,
} from '../web/models/shipped.js';

const attn = await loadAttention();
const measures = ({ exactMatch, aer, categories }) => ({ exactMatch, aer, categories });
const selection = { candidates: CANDIDATES, validation: VALIDATION, steps: STEPS, models: [] };
for (const model of SHIPPED_MODELS) {
  const started = performance.now();
  const candidates = [];
  for (let seed = 0; seed < CANDIDATES; ++seed) {
    const candidate = trainCandidate(attn, model, seed);
    candidates.push(candidate);
    const { validation, test } = candidate;
    console.log(
      `${modelFile(model)} seed ${seed}: validation AER ${validation.aer.toFixed(3)} (exact ${validation.exactMatch}), test AER ${test.aer.toFixed(3)} (exact ${test.exactMatch})`,
    );
  }
  const chosen = chooseCandidate(candidates, model);
  writeFileSync(new URL(`../web/models/${modelFile(model)}`, import.meta.url), chosen.bytes);
  selection.models.push({
    file: modelFile(model),
    seed: chosen.seed,
    test: measures(chosen.test),
    candidates: candidates.map(({ seed, validation }) => ({ seed, validation: measures(validation) })),
  });
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${modelFile(model)}: seed ${chosen.seed}, test exact match ${chosen.test.exactMatch}, AER ${chosen.test.aer.toFixed(3)}, ${kb(chosen.bytes.length)} (${kb(gzipSync(chosen.bytes, { level: 9 }).length)} gzip), ${seconds} s`,
  );
}
writeFileSync(new URL('../web/models/selection.json', import.meta.url), `${JSON.stringify(selection, null, 1)}\n`);
