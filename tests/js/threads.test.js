// The threaded module in Node: picked by default, the same numbers as one thread bit for bit,
// errors from worker threads reported as on one thread, and no worker keeping Node alive.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';

import { loadAttention, trainModel } from 'attention-stepper';
import { assertSeedNumbers, SEEDS } from '../seeds.js';
import { LARGE_TEXT_TASK } from '../text-pairs.js';

const one = await loadAttention({ threads: 1, models: true });
const three = await loadAttention({ threads: 3, models: true });

// numpy's randn from a seed, as float32 rows x cols
function randn(seed, rows, cols) {
  const { data } = one.randomState(seed).randn(rows, cols);
  return { rows, cols, data: Float32Array.from(data) };
}

function errorOf(run) {
  try {
    run();
  } catch (error) {
    return error.message;
  }
  return 'no error';
}

test('Node loads the threaded module by default, with one thread per core (at most 8)', async () => {
  assert.equal(one.threads, 1);
  assert.equal(three.threads, 3);
  assert.equal((await loadAttention()).threads, Math.min(availableParallelism(), 8));
});

test('three threads give the one-thread output and weights bit for bit', () => {
  for (const [n, heads, options] of [
    [300, 1, {}],
    [300, 1, { causal: true }],
    [300, 1, { causal: true, weights: false }],
    [257, 3, { weights: false }],
    [256, 8, {}],
  ]) {
    const [q, k, v] = [1, 2, 3].map((seed) => randn(seed, n, heads * 64));
    const expected = one.attention(q, k, v, { ...options, heads });
    const got = three.attention(q, k, v, { ...options, heads });
    const label = `n=${n} heads=${heads} ${JSON.stringify(options)}`;
    assert.deepEqual(got.output.data, expected.output.data, label);
    assert.deepEqual(
      got.weights?.map((w) => w.data),
      expected.weights?.map((w) => w.data),
      label,
    );
  }
});

test('an overflow found by a worker thread is reported as on one thread', () => {
  const [q, k, v] = [1, 2, 3].map((seed) => randn(seed, 512, 64));
  q.data[500 * 64 + 3] = 3e38;
  for (let j = 0; j < 512; j++) k.data[j * 64 + 3] = 2; // key 0 is the first to overflow
  for (const weights of [true, false]) {
    const [single, threaded] = [one, three].map((attn) => errorOf(() => attn.attention(q, k, v, { weights })));
    assert.match(single, /the scaled scores Q K\^T \[512x512\] overflows float32 at flat index 256000/);
    assert.equal(threaded, single);
  }
  // still working after the error
  assertSeedNumbers({ score: three.dotScore(SEEDS.decoderState, SEEDS.annotations[0]) });
});

test('bad thread counts are refused with a clear message', async () => {
  for (const threads of [0, 1.5, 65, '2', null]) {
    await assert.rejects(loadAttention({ threads }), /options\.threads must be an integer from 1 to 64/);
  }
  await assert.rejects(
    loadAttention({ threads: 2, wasmBinary: new Uint8Array(8) }),
    /options\.wasmBinary holds the single-threaded module .* pass threads: 1 with it/,
  );
});

test('a program that used four threads exits by itself', () => {
  const program = `
    import { loadAttention } from ${JSON.stringify(import.meta.resolve('attention-stepper'))};
    const attn = await loadAttention({ threads: 4 });
    const m = { rows: 512, cols: 64, data: new Float32Array(512 * 64).fill(0.5) };
    console.log(attn.threads, attn.attention(m, m, m).output.data[0]);`;
  const printed = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
    encoding: 'utf8',
    timeout: 20000,
  });
  assert.equal(printed.trim(), '4 0.5');
});

test('a seq2seq model trains and translates the same on three threads as on one, bit for bit', () => {
  const run = (attn) => {
    const model = attn.createSeq2seq({ task: 'dates', embedding: 8, hidden: 16, seed: 5, scoring: 'concat' });
    const losses = [1, 2, 3].map(() => model.train({ steps: 2, batch: 16 }).loss);
    const result = { losses, parameters: model.parameters(), translation: model.translate('23/11/2026') };
    model.dispose();
    return result;
  };
  assert.deepEqual(run(three), run(one));
});

const LARGE = [
  { kind: 'seq2seq', embedding: 16, hidden: 32 },
  { kind: 'transformer', model: 32 },
];

test('models of a few hundred words train to the same bytes on two threads as on one', async () => {
  const two = await loadAttention({ threads: 2, models: true });
  const run = (attn, config) => {
    const task = attn.createTranslationTask(LARGE_TEXT_TASK);
    const model = attn.createModel({ ...config, task, seed: 3 });
    const losses = [1, 2].map(() => model.train({ steps: 3, batch: 32 }).loss);
    const result = { losses, bytes: model.save() };
    model.dispose();
    task.dispose();
    return result;
  };
  for (const config of LARGE) assert.deepEqual(run(two, config), run(one, config), config.kind);
});

test("trainModel trains on the default engine's threads, to the bytes one thread trains", async () => {
  const { kind, ...model } = LARGE[0];
  const probe = { sentence: 's1 s2 s3' };
  const { bytes, threads } = await trainModel({
    kind,
    model,
    task: LARGE_TEXT_TASK,
    probe,
    steps: 50,
    evaluateEvery: 50,
  }).finished;
  assert.equal(threads, Math.min(availableParallelism(), 8));
  const task = one.createTranslationTask(LARGE_TEXT_TASK);
  const expected = one.createModel({ kind, ...model, task });
  expected.train({ steps: 25, batch: 32 });
  expected.train({ steps: 25, batch: 32 });
  assert.deepEqual(bytes, expected.save());
  expected.dispose();
  task.dispose();
});
