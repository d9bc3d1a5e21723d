// The alignment en-fr models learn (issue 19), on one thread in Node, float32, createSeq2seq's
// sizes, batch and learning rate:
// 1. additive scoring with the bidirectional encoder (the default) against the forward one, over
//    several seeds: each trained in chunks of 50 steps until 98% exact match on the test split or
//    a cap on the steps; their test AER, mean and range;
// 2. guided alignment (λ = 1) for additive and general: steps and seconds of training (evaluations
//    not counted) to 98% exact match, then exact match and AER.
//   node bench/alignment.js [--seeds 3] [--cap 1500]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadAttention } from '../dist/engine/index.node.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const SEEDS = argument('--seeds', 3);
const CAP = argument('--cap', 1500);
const CHUNK = 50;
const GOAL = 0.98;

const attn = await loadAttention({ wasmBinary: readFileSync(here('../dist/engine/wasm/attention-engine.wasm')) });

// Trains until the goal or the cap → { steps, seconds (training only), exactMatch, aer }.
function trainToGoal(options, guide = 0) {
  const model = attn.createSeq2seq({ task: 'en-fr', ...options });
  let seconds = 0;
  let steps = 0;
  let measured;
  do {
    const start = performance.now();
    model.train({ steps: CHUNK, guide });
    seconds += (performance.now() - start) / 1000;
    steps += CHUNK;
    measured = model.evaluate({ split: 'test' });
  } while (measured.exactMatch < GOAL && steps < CAP);
  model.dispose();
  return { steps, seconds, exactMatch: measured.exactMatch, aer: measured.aer, categories: measured.categories };
}

const fixed = (x, digits = 3) => x.toFixed(digits);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

console.log(`en-fr additive, to ${GOAL * 100}% exact match or ${CAP} steps, seeds 0-${SEEDS - 1}`);
for (const encoder of ['bidirectional', 'forward']) {
  const runs = Array.from({ length: SEEDS }, (_, seed) => trainToGoal({ scoring: 'additive', encoder, seed }));
  const aers = runs.map((run) => run.aer);
  console.log(
    `  ${encoder.padEnd(13)} AER mean ${fixed(mean(aers))} (${fixed(Math.min(...aers))}-${fixed(Math.max(...aers))});` +
      ` per seed ${runs.map((run) => `${fixed(run.aer)} [${run.steps} steps, ${fixed(run.seconds, 1)} s, exact ${fixed(run.exactMatch, 2)}]`).join(', ')}`,
  );
  const nouns = runs.map((run) => run.categories.find(({ category }) => category === 'noun')?.aligned ?? 0);
  console.log(`  ${''.padEnd(13)} nouns aligned ${nouns.map((x) => fixed(x, 2)).join(', ')}`);
}

console.log(`guided alignment, λ = 1, seed 0, to ${GOAL * 100}% exact match or ${CAP} steps`);
for (const scoring of ['additive', 'general']) {
  const run = trainToGoal({ scoring }, 1);
  console.log(
    `  ${scoring.padEnd(13)} AER ${fixed(run.aer)}, exact match ${fixed(run.exactMatch, 3)}, ` +
      `${run.steps} steps, ${fixed(run.seconds, 1)} s of training`,
  );
}
