// `npm run bench`, after run.js and page.js: the seq2seq model's training (issues 11 and 21).
// 1. Throughput, in target tokens (<eos> included) per second, float32, one thread: our
//    WebAssembly engine (createSeq2seq(...).train in Node) against PyTorch 1.13 running the same
//    model (tests/fixtures/make_seq2seq_fixtures.py, through bench/seq2seq_torch.py) batched, and
//    pair by pair, and against our native build (bench/seq2seq_native.cpp), on en-fr at four model
//    sizes for each scoring function. Every contender starts from the same weights and trains on
//    the same minibatches of 32 pairs (train()'s own, rebuilt here for PyTorch), with Adam at the
//    default learning rate and clipping at 1: a few untimed warm-up steps, then timed ones.
//    The first step's loss is checked across contenders, so they all compute the same thing.
// 2. Quality: createSeq2seq's defaults for every task and scoring function, trained in chunks of
//    50 steps until 98% exact match on the test split or 30 s of training (evaluation not counted).
// Writes bench/results/seq2seq.json (not with --quick, a smoke run of a few steps).
//   node bench/seq2seq.js [--quick]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadAttention } from '../dist/engine/index.node.js';
import { minibatches, percent, PYTHON, report, runPytorch, table, trainUntil, warnReferenceBlas } from './common.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const quick = process.argv.includes('--quick');

const TASK = 'en-fr';
const SEED = 0; // createSeq2seq's default: the task's split, the initial weights, the shuffling
const BATCH = 32; // train()'s defaults (cpp/include/attention/seq2seq_session.hpp)
const LEARNING_RATE = 0.005;
const MAX_NORM = 1;
// issue 21's four sizes; 32/64 is the default
const SIZES = [
  { embedding: 16, hidden: 32 },
  { embedding: 32, hidden: 64 },
  { embedding: 64, hidden: 128 },
  { embedding: 128, hidden: 256 },
];
const SCORINGS = ['additive', 'dot', 'general', 'concat'];
// Warm-up lets V8 move the WebAssembly to its optimising compiler (and PyTorch fill its caches).
const WARMUP = quick ? 3 : 10;
const STEPS = quick ? 5 : 50;
const PAIR_WARMUP = quick ? 1 : 3; // PyTorch pair by pair: several times slower per step
const PAIR_STEPS = quick ? 2 : 10;
const QUALITY = { chunk: 50, budgetMs: quick ? 500 : 30_000, exactMatch: 0.98 };

const NATIVE = here('../build/native/seq2seq_native');

const attn = await loadAttention({ wasmBinary: readFileSync(here('../dist/engine/wasm/attention-engine.wasm')) });

const relative = (a, b) => Math.abs(a - b) / Math.abs(b);
const perSecond = (tokens, ms) => (tokens / ms) * 1000;

function ours(size, scoring, batches) {
  // the one-way encoder for every scoring function, as the PyTorch replica and the native run have it
  const model = attn.createSeq2seq({ task: TASK, scoring, encoder: 'forward', seed: SEED, ...size });
  try {
    const expected = model.gradients(batches[0]).loss;
    const firstLoss = model.train({ steps: 1, batch: BATCH, learningRate: LEARNING_RATE }).loss;
    if (firstLoss !== expected)
      throw new Error(`the minibatches rebuilt here are not train()'s: loss ${firstLoss}, expected ${expected}`);
    if (WARMUP > 1) model.train({ steps: WARMUP - 1, batch: BATCH, learningRate: LEARNING_RATE });
    const start = performance.now();
    const { loss } = model.train({ steps: STEPS, batch: BATCH, learningRate: LEARNING_RATE });
    return { firstLoss, loss, ms: performance.now() - start };
  } finally {
    model.dispose();
  }
}

function native(size, scoring) {
  const args = [TASK, scoring, size.embedding, size.hidden, BATCH, WARMUP, STEPS].map(String);
  const { first_loss: firstLoss, loss, ms } = JSON.parse(execFileSync(NATIVE, args, { encoding: 'utf8' }));
  return { firstLoss, loss, ms };
}

// One Python process for every case (importing torch takes seconds); null when python3-torch is
// missing.
function pytorch(cases, batches, vocab) {
  return runPytorch(here('seq2seq_torch.py'), {
    seed: SEED,
    learningRate: LEARNING_RATE,
    maxNorm: MAX_NORM,
    sourceVocab: vocab.source.length,
    targetVocab: vocab.target.length,
    batches,
    warmup: WARMUP,
    steps: STEPS,
    pairWarmup: PAIR_WARMUP,
    pairSteps: PAIR_STEPS,
    cases: cases.map(({ embedding, hidden, scoring }) => ({ embedding, hidden, scoring })),
  });
}

function throughput() {
  const examples = attn.seq2seqTasks().find((task) => task.id === TASK).examples;
  const sentences = minibatches(
    attn,
    SEED,
    examples.length,
    BATCH,
    Math.max(WARMUP + STEPS, PAIR_WARMUP + PAIR_STEPS),
  ).map((batch) => batch.map((k) => [examples[k][0], examples[k][1]]));
  const tokenizer = attn.createSeq2seq({ task: TASK, seed: SEED });
  const ids = sentences.map((batch) =>
    batch.map(([source, target]) => [tokenizer.tokenize(source), tokenizer.tokenize(target, 'target')]),
  );
  const vocab = tokenizer.vocab;
  tokenizer.dispose();
  const tokens = ids
    .slice(WARMUP, WARMUP + STEPS)
    .reduce((n, batch) => n + batch.reduce((m, [, t]) => m + t.length, 0), 0);

  const haveNative = existsSync(NATIVE);
  if (!haveNative) console.log(`${NATIVE} is missing (bash scripts/build.sh builds it): native skipped`);
  const cases = [];
  for (const size of SIZES)
    for (const scoring of SCORINGS) {
      const row = { ...size, scoring, tokens, results: { ours: ours(size, scoring, sentences) } };
      if (haveNative) row.results.native = native(size, scoring);
      cases.push(row);
      console.log(`timed ${scoring} ${size.embedding}/${size.hidden}`);
    }
  const torch = pytorch(cases, ids, vocab);
  if (!torch) console.log(`PyTorch skipped: ${PYTHON} cannot import torch (apt-get install python3-torch)`);
  for (const [k, row] of cases.entries()) {
    if (torch) {
      row.results['PyTorch batched'] = torch.cases[k].batched;
      row.results['PyTorch pair by pair'] = torch.cases[k].pairs;
    }
    const ourLoss = row.results.ours.firstLoss;
    for (const [name, result] of Object.entries(row.results)) {
      result.tokens ??= tokens;
      result.tokensPerSecond = perSecond(result.tokens, result.ms);
      result.firstLossError = relative(result.firstLoss, ourLoss);
      // float32 sums in another order (PyTorch's kernels, the native libm): close, not equal
      if (result.firstLossError > 1e-4)
        throw new Error(`${name} computes another loss than ours: ${result.firstLoss} against ${ourLoss}`);
    }
    const ourRate = row.results.ours.tokensPerSecond;
    row.ratios = Object.fromEntries(
      Object.entries(row.results)
        .filter(([name]) => name !== 'ours')
        .map(([name, result]) => [name, ourRate / result.tokensPerSecond]),
    );
  }
  return { torch: torch?.torch ?? null, blas: torch?.blas ?? null, cases };
}

function quality() {
  const rows = [];
  for (const { id: task } of attn.seq2seqTasks())
    for (const scoring of SCORINGS) {
      const model = attn.createSeq2seq({ task, scoring });
      const { steps, seconds, wallSeconds, evaluation, reached } = trainUntil(model, {
        chunk: QUALITY.chunk,
        budgetMs: QUALITY.budgetMs,
        done: ({ exactMatch }) => exactMatch >= QUALITY.exactMatch,
      });
      model.dispose();
      rows.push({ task, scoring, steps, seconds, wallSeconds, ...evaluation, reached });
      console.log(`trained ${task} ${scoring}: ${steps} steps`);
    }
  return { chunk: QUALITY.chunk, budgetSeconds: QUALITY.budgetMs / 1000, exactMatchGoal: QUALITY.exactMatch, rows };
}

// ---- readable tables ------------------------------------------------------------------------------
function printThroughput({ torch, blas, cases }) {
  const names = ['ours', 'native', 'PyTorch batched', 'PyTorch pair by pair'].filter(
    (name) => name in cases[0].results,
  );
  const rate = (result) => Math.round(result.tokensPerSecond).toString();
  console.log(
    `\nTraining throughput, target tokens/s (float32, one thread, ${TASK}, batch ${BATCH}, ${STEPS} timed steps` +
      `${torch ? `; PyTorch ${torch}, BLAS ${blas.join(' ')}` : '; PyTorch skipped'}); ours = WebAssembly in Node ${process.version}`,
  );
  console.log(
    table(
      ['size', 'scoring', ...names, ...names.slice(1).map((name) => `ours/${name}`)],
      cases.map((row) => [
        `${row.embedding}/${row.hidden}`,
        row.scoring,
        ...names.map((name) => rate(row.results[name])),
        ...names.slice(1).map((name) => `${row.ratios[name].toFixed(2)}x`),
      ]),
    ),
  );
  warnReferenceBlas(blas);
  const worst = (name) => Math.max(...cases.map((row) => row.results[name].firstLossError));
  if (names.length > 1)
    console.log(
      `first step's loss against ours, largest relative difference: ${names
        .slice(1)
        .map((name) => `${name} ${worst(name).toExponential(1)}`)
        .join(', ')}`,
    );
}

function printQuality({ rows, budgetSeconds, exactMatchGoal }) {
  console.log(
    `\nQuality: defaults (embedding 32, hidden 64, batch ${BATCH}), one thread, until ${exactMatchGoal * 100}% exact match on the test split or ${budgetSeconds} s of CPU time (seconds: CPU)`,
  );
  console.log(
    table(
      ['task', 'scoring', 'steps', 'seconds', 'exact match', 'alignment', 'goal met'],
      rows.map((row) => [
        row.task,
        row.scoring,
        String(row.steps),
        row.seconds.toFixed(1),
        percent(row.exactMatch),
        percent(row.alignmentAccuracy),
        row.reached ? 'yes' : 'no',
      ]),
    ),
  );
}

report(
  'seq2seq',
  {
    throughput: {
      task: TASK,
      batch: BATCH,
      learningRate: LEARNING_RATE,
      maxNorm: MAX_NORM,
      warmup: WARMUP,
      steps: STEPS,
      pairWarmup: PAIR_WARMUP,
      pairSteps: PAIR_STEPS,
      ...throughput(),
    },
    quality: quality(),
  },
  { quick },
  (sections) => {
    printThroughput(sections.throughput);
    if (sections.quality) printQuality(sections.quality);
  },
);
