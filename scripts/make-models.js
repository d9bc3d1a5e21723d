// Writes the shipped models (web/models/*.safetensors) and the table they were chosen from
// (web/models/selection.json) from scratch: node scripts/make-models.js (after `npm run build`),
// or `node scripts/make-models.js <kind>` for the models of one kind (the others' files and
// records stay). See web/models/shipped.js for how they are made and chosen.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

import { loadAttention } from '../dist/engine/index.node.js';
import {
  CANDIDATES,
  CAPTIONER,
  chooseCandidate,
  modelFile,
  SHIPPED_MODELS,
  trainCandidate,
  trainCaptioner,
  trainTransformer,
  VALIDATION,
} from '../web/models/shipped.js';

const attn = await loadAttention();
const only = process.argv[2];
const table = new URL('../web/models/selection.json', import.meta.url);
const previous = existsSync(table) ? JSON.parse(readFileSync(table, 'utf8')) : {};
const kept = (kind, records) => (only && only !== kind ? (records ?? []) : []);
const measures = ({ exactMatch, aer, categories }) => ({ exactMatch, aer, categories });
const selection = {
  candidates: CANDIDATES,
  validation: VALIDATION,
  // the candidates' (each seq2seq model's entry says it)
  steps: SHIPPED_MODELS.find(({ kind }) => kind === 'seq2seq').steps,
  models: kept('seq2seq', previous.models),
  transformers: kept('transformer', previous.transformers),
  captioner: only && only !== 'captioner' ? previous.captioner : undefined,
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const report = (model, made, started) =>
  console.log(
    `${modelFile(model)}: seed ${made.seed}, test exact match ${made.test.exactMatch}, AER ${made.test.aer.toFixed(3)}, ${kb(made.bytes.length)} (${kb(gzipSync(made.bytes, { level: 9 }).length)} gzip), ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
for (const model of SHIPPED_MODELS.filter(({ kind }) => !only || kind === only)) {
  const started = performance.now();
  if (model.kind === 'captioner') {
    // one recipe, no candidates
    const { bytes, test } = trainCaptioner(attn, CAPTIONER);
    writeFileSync(new URL(`../web/models/${modelFile(model)}`, import.meta.url), bytes);
    const { exactMatch, tokenAccuracy, regionAccuracy } = test;
    selection.captioner = { file: modelFile(model), ...CAPTIONER, test: { exactMatch, tokenAccuracy, regionAccuracy } };
    console.log(
      `${modelFile(model)}: ${CAPTIONER.steps} steps, test exact match ${exactMatch}, region accuracy ${regionAccuracy.toFixed(3)}, ${kb(bytes.length)} (${kb(gzipSync(bytes, { level: 9 }).length)} gzip), ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    continue;
  }
  if (model.kind === 'transformer') {
    const made = trainTransformer(attn, model);
    writeFileSync(new URL(`../web/models/${modelFile(model)}`, import.meta.url), made.bytes);
    const { exactMatch, aer, heads } = made.test;
    selection.transformers.push({ file: modelFile(model), seed: made.seed, test: { exactMatch, aer, heads } });
    report(model, made, started);
    continue;
  }
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
  report(model, chosen, started);
}
writeFileSync(table, `${JSON.stringify(selection, null, 1)}\n`);
