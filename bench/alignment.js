// `npm run bench`, last: the alignment the translation models learn (issue 19), on one thread in
// Node, float32, createSeq2seq's sizes, batch and learning rate. For every task × scoring function
// × encoder (forward, bidirectional) × guided alignment (λ = 0, the model learning freely, or 1),
// over several seeds: each model trained in chunks of 50 steps until 98% exact match on the test
// split or a cap on the steps, then its steps and seconds of training (evaluations not counted),
// exact match, test AER (mean and range over the seeds) and the aligned share of each word
// category (mean over the seeds). Writes bench/results/alignment.json (not with --quick).
//   node bench/alignment.js [--seeds 5] [--cap 1500] [--quick]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadAttention } from '../dist/engine/index.node.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const QUICK = process.argv.includes('--quick');
const SEEDS = QUICK ? 1 : argument('--seeds', 5);
const CAP = QUICK ? 100 : argument('--cap', 1500);
const CHUNK = 50;
const GOAL = 0.98;

const attn = await loadAttention({ wasmBinary: readFileSync(here('../dist/engine/wasm/attention-engine.wasm')) });
const { tasks, scorings, encoders } = attn.seq2seqFacts();

// Trains until the goal or the cap → { steps, seconds (training only), exactMatch, aer, categories }.
function trainToGoal(options, guide) {
  const model = attn.createSeq2seq(options);
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
  const { exactMatch, aer, categories } = measured;
  return { steps, seconds, exactMatch, aer, categories };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fixed = (x, digits = 3) => x.toFixed(digits);
const percent = (x) => `${(x * 100).toFixed(0)}%`;

const rows = [];
console.log(`to ${GOAL * 100}% exact match on the test split or ${CAP} steps, seeds 0-${SEEDS - 1}`);
console.log('task   scoring   encoder        guide  steps  seconds  exact  AER mean (min-max)     aligned by category');
for (const task of tasks)
  for (const scoring of scorings)
    for (const encoder of encoders)
      for (const guide of [0, 1]) {
        const runs = Array.from({ length: SEEDS }, (_, seed) => trainToGoal({ task, scoring, encoder, seed }, guide));
        const aers = runs.map((run) => run.aer);
        const categories = runs[0].categories.map(({ category, count }) => ({
          category,
          count,
          aligned: mean(runs.map((run) => run.categories.find((c) => c.category === category)?.aligned ?? 0)),
        }));
        const row = {
          task,
          scoring,
          encoder,
          guide,
          seeds: SEEDS,
          steps: mean(runs.map((run) => run.steps)),
          seconds: mean(runs.map((run) => run.seconds)),
          exactMatch: mean(runs.map((run) => run.exactMatch)),
          aer: { mean: mean(aers), min: Math.min(...aers), max: Math.max(...aers) },
          categories,
          // each seed's own figures (the categories are in the means above)
          runs: runs.map(({ steps, seconds, exactMatch, aer }) => ({ steps, seconds, exactMatch, aer })),
        };
        rows.push(row);
        console.log(
          `${task.padEnd(6)} ${scoring.padEnd(9)} ${encoder.padEnd(14)} ${String(guide).padEnd(5)} ` +
            `${String(Math.round(row.steps)).padStart(5)}  ${fixed(row.seconds, 1).padStart(7)}  ${percent(row.exactMatch).padStart(5)}  ` +
            `${fixed(row.aer.mean)} (${fixed(row.aer.min)}-${fixed(row.aer.max)})    ` +
            categories.map(({ category, aligned }) => `${category} ${percent(aligned)}`).join(', '),
        );
      }

if (!QUICK) {
  const results = { date: new Date().toISOString(), goal: GOAL, cap: CAP, chunk: CHUNK, seeds: SEEDS, rows };
  writeFileSync(here('results/alignment.json'), `${JSON.stringify(results, null, 1)}\n`);
  console.log('wrote bench/results/alignment.json');
}
