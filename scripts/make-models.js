// Writes the shipped models (web/models/*.safetensors) and the table they were chosen from
// (web/models/selection.json) from scratch: node scripts/make-models.js (after `npm run build`);
// `node scripts/make-models.js captioner` makes only the captioner, keeping the others' table.
// See web/models/shipped.js for how they are made and chosen.
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { loadAttention } from '../dist/engine/index.node.js';
import {
  CAPTIONER,
  CANDIDATES,
  chooseCandidate,
  modelFile,
  SHIPPED_MODELS,
  STEPS,
  trainCandidate,
  trainCaptioner,
  VALIDATION,
} from '../web/models/shipped.js';

const attn = await loadAttention();
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const measures = ({ exactMatch, aer, categories }) => ({ exactMatch, aer, categories });
const selectionFile = new URL('../web/models/selection.json', import.meta.url);
const onlyCaptioner = process.argv[2] === 'captioner';
const selection = onlyCaptioner
  ? JSON.parse(readFileSync(selectionFile, 'utf8'))
  : { candidates: CANDIDATES, validation: VALIDATION, steps: STEPS, models: [] };
for (const model of onlyCaptioner ? [] : SHIPPED_MODELS.filter(({ kind }) => kind === 'seq2seq')) {
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
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${modelFile(model)}: seed ${chosen.seed}, test exact match ${chosen.test.exactMatch}, AER ${chosen.test.aer.toFixed(3)}, ${kb(chosen.bytes.length)} (${kb(gzipSync(chosen.bytes, { level: 9 }).length)} gzip), ${seconds} s`,
  );
}

// the captioner: one recipe, no candidates
{
  const started = performance.now();
  const file = modelFile({ kind: 'captioner', task: CAPTIONER.task, language: CAPTIONER.language });
  const { bytes, test } = trainCaptioner(attn, CAPTIONER);
  writeFileSync(new URL(`../web/models/${file}`, import.meta.url), bytes);
  const { exactMatch, tokenAccuracy, regionAccuracy } = test;
  selection.captioner = { file, ...CAPTIONER, test: { exactMatch, tokenAccuracy, regionAccuracy } };
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${file}: ${CAPTIONER.steps} steps, test exact match ${exactMatch}, region accuracy ${regionAccuracy.toFixed(3)}, ${kb(bytes.length)} (${kb(gzipSync(bytes, { level: 9 }).length)} gzip), ${seconds} s`,
  );
}
writeFileSync(selectionFile, `${JSON.stringify(selection, null, 1)}\n`);
