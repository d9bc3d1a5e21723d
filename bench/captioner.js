// `npm run bench`, after transformer.js: the image captioner's training (issue 22).
// 1. Throughput, in images per second, float32, one thread: our WebAssembly engine
//    (createCaptioner(...).train in Node, which draws each minibatch's scenes too) against
//    PyTorch 1.13 running the reference model (tests/fixtures/make_captioner_fixtures.py, through
//    bench/captioner_pytorch.py, on random pixels and captions of the task's lengths: a step's cost
//    depends only on the sizes and the lengths) with the same sizes, batch, λ, Adam and clipping.
// 2. Quality: createCaptioner's defaults (the batch norms, λ = 0) in each language, seeds 0–4,
//    trained in chunks until 95% exact match on the test split (eval mode: the batch norms'
//    running statistics) or 30 s of training's CPU time (evaluation not counted), with
//    regionAccuracy and the share of each kind of word whose largest weight falls on its gold
//    cells (issue 32's goal: every seed, both languages).
// Writes bench/results/captioner.json (not with --quick, a smoke run of a few steps; with
// --throughput, its throughput section alone).
//   node bench/captioner.js [--quick] [--throughput]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadAttention } from '../dist/engine/index.node.js';
import { percent, PYTHON, report, runPytorch, table, trainUntil, warnReferenceBlas } from './common.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const quick = process.argv.includes('--quick');
const throughputOnly = process.argv.includes('--throughput'); // the throughput alone, the quality runs kept

const attn = await loadAttention({ wasmBinary: readFileSync(here('../dist/engine/wasm/attention-engine.wasm')) });
const facts = attn.captionerFacts();
const { batch: BATCH, learningRate: LEARNING_RATE, regularization: LAMBDA } = facts.defaults;
const SIZE = ['channels', 'annotation', 'attention', 'embedding', 'hidden'];
const WARMUP = quick ? 2 : 10;
const STEPS = quick ? 3 : 50;
const QUALITY = {
  chunk: 100,
  budgetMs: quick ? 500 : 30_000,
  exactMatch: 0.95,
  seeds: quick ? [0] : [0, 1, 2, 3, 4],
  lambdas: [LAMBDA], // the default (λ = 1, the paper's, pulls the attention off the objects)
};

function ours(language) {
  const model = attn.createCaptioner({ task: facts.defaults.task, language });
  try {
    model.train({ steps: WARMUP });
    const start = performance.now();
    model.train({ steps: STEPS });
    const ms = performance.now() - start;
    return { ms: ms / STEPS, imagesPerSecond: (BATCH * STEPS * 1000) / ms };
  } finally {
    model.dispose();
  }
}

function throughput() {
  const rows = [];
  for (const language of facts.languages) {
    const row = { language, ours: ours(language) };
    const args = SIZE.flatMap((name) => [`--${name}`, String(facts.defaults[name])]);
    args.push('--batch', String(BATCH), '--steps', String(STEPS), '--warmup', String(WARMUP), '--repeats', '1');
    args.push('--language', language, '--learning-rate', String(LEARNING_RATE), '--regularization', String(LAMBDA));
    row.pytorch = runPytorch(here('captioner_pytorch.py'), { args });
    if (row.pytorch) row.ratio = row.ours.imagesPerSecond / row.pytorch.imagesPerSecond;
    else console.log(`PyTorch skipped: ${PYTHON} cannot import torch (apt-get install python3-torch)`);
    console.log(`timed ${language}`);
    rows.push(row);
  }
  return rows;
}

function quality() {
  const rows = [];
  for (const language of facts.languages)
    for (const regularization of QUALITY.lambdas)
      for (const seed of QUALITY.seeds) {
        const model = attn.createCaptioner({ task: facts.defaults.task, language, seed });
        const { steps, seconds, wallSeconds, evaluation, reached } = trainUntil(model, {
          chunk: QUALITY.chunk,
          budgetMs: QUALITY.budgetMs,
          done: ({ exactMatch }) => exactMatch >= QUALITY.exactMatch,
          options: { regularization },
        });
        model.dispose();
        rows.push({ language, regularization, seed, steps, seconds, wallSeconds, ...evaluation, reached });
        console.log(`trained ${language} λ=${regularization} seed ${seed}: ${steps} steps`);
      }
  return { chunk: QUALITY.chunk, budgetSeconds: QUALITY.budgetMs / 1000, exactMatchGoal: QUALITY.exactMatch, rows };
}

function printThroughput(rows) {
  const torch = rows.find((row) => row.pytorch)?.pytorch;
  console.log(
    `\nCaptioner training throughput, images/s (float32, one thread, batch ${BATCH}, λ ${LAMBDA}, ${STEPS} timed steps` +
      `${torch ? `; PyTorch ${torch.torch}, BLAS ${torch.blas.join(' ')}` : '; PyTorch skipped'}); ours = WebAssembly in Node ${process.version}`,
  );
  console.log(
    table(
      ['language', 'size C/D/A/E/H', 'ours', 'PyTorch', 'ours/PyTorch'],
      rows.map((row) => [
        row.language,
        SIZE.map((name) => facts.defaults[name]).join('/'),
        row.ours.imagesPerSecond.toFixed(0),
        row.pytorch ? row.pytorch.imagesPerSecond.toFixed(0) : '-',
        row.ratio ? `${row.ratio.toFixed(2)}x` : '-',
      ]),
    ),
  );
  warnReferenceBlas(torch?.blas);
}

function printQuality({ rows, budgetSeconds, exactMatchGoal }) {
  console.log(
    `\nCaptioner quality: defaults, one thread, until ${exactMatchGoal * 100}% exact match on the test split or ${budgetSeconds} s of CPU time (seconds: CPU)`,
  );
  const kinds = [...new Set(rows.flatMap((row) => row.byCategory.map(({ category }) => category)))];
  const share = (row, kind) => {
    const found = row.byCategory.find(({ category }) => category === kind);
    return found ? percent(found.aligned) : '-';
  };
  console.log(
    table(
      ['language', 'λ', 'seed', 'steps', 'seconds', 'exact', 'regions', ...kinds, 'goal met'],
      rows.map((row) => [
        row.language,
        String(row.regularization),
        String(row.seed),
        String(row.steps),
        row.seconds.toFixed(1),
        percent(row.exactMatch),
        percent(row.regionAccuracy),
        ...kinds.map((kind) => share(row, kind)),
        row.reached ? 'yes' : 'no',
      ]),
    ),
  );
}

report(
  'captioner',
  { throughput: throughput(), quality: throughputOnly ? null : quality() },
  { quick, partial: throughputOnly },
  (sections) => {
    printThroughput(sections.throughput);
    if (sections.quality) printQuality(sections.quality);
  },
);
