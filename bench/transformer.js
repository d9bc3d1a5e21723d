// `npm run bench`, after seq2seq.js: the Transformer's training (issue 23).
// 1. Throughput, in target tokens (<eos> included) per second, float32, one thread: our
//    WebAssembly engine (createTransformer(...).train in Node) against PyTorch 1.13 running the
//    tutorial's model (tests/fixtures/make_transformer_fixtures.py, through
//    bench/transformer_torch.py) on en-fr at two sizes. Both start from the same weights and train
//    on the same minibatches (train()'s own, rebuilt here for PyTorch) with Adam at the default
//    learning rate and clipping at 1: a few untimed warm-up steps, then timed ones. The first
//    step's loss is checked across the two, so they compute the same thing.
// 2. Quality: createTransformer's defaults on every task, three seeds, trained in chunks until 98%
//    exact match on the test split or 30 s of training (evaluation not counted), with the best
//    cross-attention head's AER.
// Writes bench/results/transformer.json (not with --quick, a smoke run of a few steps; with
// --throughput, its throughput section alone).
//   node bench/transformer.js [--quick] [--throughput]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadAttention } from '../dist/engine/index.node.js';
import { minibatches, percent, PYTHON, report, runPytorch, table, trainUntil, warnReferenceBlas } from './common.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const quick = process.argv.includes('--quick');
const throughputOnly = process.argv.includes('--throughput'); // the throughput alone, the quality runs kept

const attn = await loadAttention({ wasmBinary: readFileSync(here('../dist/engine/wasm/attention-engine.wasm')) });
const facts = attn.transformerFacts();
const TASK = 'en-fr';
const SEED = 0;
const BATCH = facts.defaults.batch;
const LEARNING_RATE = facts.defaults.learningRate;
const MAX_NORM = 1;
const { model, heads, encoderLayers, decoderLayers, feedforward } = facts.defaults;
// the defaults, and the same shape twice as wide
const SIZES = [
  { model, heads, encoderLayers, decoderLayers, feedforward },
  { model: 2 * model, heads: 2 * heads, encoderLayers, decoderLayers, feedforward: 2 * feedforward },
];
const WARMUP = quick ? 3 : 10;
const STEPS = quick ? 5 : 50;
const QUALITY = { chunk: 50, budgetMs: quick ? 500 : 30_000, exactMatch: 0.98, seeds: quick ? [0] : [0, 1, 2] };

const relative = (a, b) => Math.abs(a - b) / Math.abs(b);
const perSecond = (tokens, ms) => (tokens / ms) * 1000;
const sizeName = (size) => `${size.model}/${size.heads}/${size.feedforward}`;

function ours(size, batches) {
  const m = attn.createTransformer({ task: TASK, seed: SEED, ...size });
  try {
    const expected = m.gradients(batches[0]).loss;
    const firstLoss = m.train({ steps: 1, batch: BATCH, learningRate: LEARNING_RATE }).loss;
    if (firstLoss !== expected)
      throw new Error(`the minibatches rebuilt here are not train()'s: loss ${firstLoss}, expected ${expected}`);
    if (WARMUP > 1) m.train({ steps: WARMUP - 1, batch: BATCH, learningRate: LEARNING_RATE });
    const start = performance.now();
    const { loss } = m.train({ steps: STEPS, batch: BATCH, learningRate: LEARNING_RATE });
    return { firstLoss, loss, ms: performance.now() - start };
  } finally {
    m.dispose();
  }
}

function throughput() {
  const examples = attn.seq2seqTasks().find((task) => task.id === TASK).examples;
  const sentences = minibatches(attn, SEED, examples.length, BATCH, WARMUP + STEPS).map((batch) =>
    batch.map((k) => [examples[k][0], examples[k][1]]),
  );
  const tokenizer = attn.createTransformer({ task: TASK, seed: SEED });
  const ids = sentences.map((batch) =>
    batch.map(([source, target]) => [tokenizer.tokenize(source), tokenizer.tokenize(target, 'target')]),
  );
  const vocab = tokenizer.vocab;
  tokenizer.dispose();
  const tokens = ids
    .slice(WARMUP, WARMUP + STEPS)
    .reduce((n, batch) => n + batch.reduce((m, [, t]) => m + t.length, 0), 0);
  const cases = SIZES.map((size) => {
    const row = { ...size, tokens, results: { ours: ours(size, sentences) } };
    console.log(`timed ${sizeName(size)}`);
    return row;
  });
  const torch = runPytorch(here('transformer_torch.py'), {
    seed: SEED,
    learningRate: LEARNING_RATE,
    maxNorm: MAX_NORM,
    sourceVocab: vocab.source.length,
    targetVocab: vocab.target.length,
    batches: ids,
    warmup: WARMUP,
    steps: STEPS,
    cases: SIZES,
  });
  if (!torch) console.log(`PyTorch skipped: ${PYTHON} cannot import torch (apt-get install python3-torch)`);
  for (const [k, row] of cases.entries()) {
    if (torch) row.results.PyTorch = torch.cases[k];
    const ourLoss = row.results.ours.firstLoss;
    for (const [name, result] of Object.entries(row.results)) {
      result.tokens ??= tokens;
      result.tokensPerSecond = perSecond(result.tokens, result.ms);
      result.firstLossError = relative(result.firstLoss, ourLoss);
      // float32 sums in another order: close, not equal
      if (result.firstLossError > 1e-4)
        throw new Error(`${name} computes another loss than ours: ${result.firstLoss} against ${ourLoss}`);
    }
    if (torch) row.ratio = row.results.ours.tokensPerSecond / row.results.PyTorch.tokensPerSecond;
  }
  return { torch: torch?.torch ?? null, blas: torch?.blas ?? null, cases };
}

function quality() {
  const rows = [];
  for (const { id: task } of attn.seq2seqTasks())
    for (const seed of QUALITY.seeds) {
      const m = attn.createTransformer({ task, seed });
      const { steps, seconds, wallSeconds, evaluation, reached } = trainUntil(m, {
        chunk: QUALITY.chunk,
        budgetMs: QUALITY.budgetMs,
        done: ({ exactMatch }) => exactMatch >= QUALITY.exactMatch,
      });
      m.dispose();
      rows.push({ task, seed, steps, seconds, wallSeconds, ...evaluation, reached });
      console.log(`trained ${task} seed ${seed}: ${steps} steps`);
    }
  return { chunk: QUALITY.chunk, budgetSeconds: QUALITY.budgetMs / 1000, exactMatchGoal: QUALITY.exactMatch, rows };
}

function printThroughput({ torch, blas, cases }) {
  console.log(
    `\nTransformer training throughput, target tokens/s (float32, one thread, ${TASK}, batch ${BATCH}, ${STEPS} timed steps` +
      `${torch ? `; PyTorch ${torch}, BLAS ${blas.join(' ')}` : '; PyTorch skipped'}); ours = WebAssembly in Node ${process.version}`,
  );
  const rate = (result) => (result ? Math.round(result.tokensPerSecond).toString() : '-');
  console.log(
    table(
      ['d_model/heads/ff', 'layers', 'ours', 'PyTorch', 'ours/PyTorch'],
      cases.map((row) => [
        sizeName(row),
        `${row.encoderLayers}+${row.decoderLayers}`,
        rate(row.results.ours),
        rate(row.results.PyTorch),
        row.ratio ? `${row.ratio.toFixed(2)}x` : '-',
      ]),
    ),
  );
  warnReferenceBlas(blas);
}

function printQuality({ rows, budgetSeconds, exactMatchGoal }) {
  console.log(
    `\nTransformer quality: defaults (${sizeName(SIZES[0])}, ${encoderLayers}+${decoderLayers} layers, batch ${BATCH}), one thread, until ${exactMatchGoal * 100}% exact match on the test split or ${budgetSeconds} s of CPU time (seconds: CPU)`,
  );
  console.log(
    table(
      ['task', 'seed', 'steps', 'seconds', 'exact match', 'best head AER', 'goal met'],
      rows.map((row) => [
        row.task,
        String(row.seed),
        String(row.steps),
        row.seconds.toFixed(1),
        percent(row.exactMatch),
        row.aer.toFixed(3),
        row.reached ? 'yes' : 'no',
      ]),
    ),
  );
}

report(
  'transformer',
  {
    throughput: {
      task: TASK,
      batch: BATCH,
      learningRate: LEARNING_RATE,
      maxNorm: MAX_NORM,
      warmup: WARMUP,
      steps: STEPS,
      ...throughput(),
    },
    quality: throughputOnly ? null : quality(),
  },
  { quick, partial: throughputOnly },
  (sections) => {
    printThroughput(sections.throughput);
    if (sections.quality) printQuality(sections.quality);
  },
);
