// 100,000 mixed calls, errors included, leave the WebAssembly heap where the first thousand left it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { assertSeedNumbers, SEEDS } from '../seeds.js';

const attn = await loadAttention({ models: true });
const X = SEEDS.words;
const X32 = { rows: 4, cols: 3, data: Float32Array.from(X.flat()) };
const W = SEEDS.W_Q;
const random = attn.randomState(42);

const calls = [
  () => attn.dotScores(SEEDS.decoderState, SEEDS.annotations),
  () => attn.softmax(SEEDS.scores, { mask: [1, 1, 0, 1] }),
  () => attn.logSoftmax(new Float32Array([1, 2, 3])),
  () => attn.attention(X, X, X, { causal: true }),
  () => attn.attention(X32, X32, X32, { mask: [1, 0, 1, 1] }),
  () => attn.selfAttention(X, W, W, W),
  () => attn.multiHeadAttention(X, { heads: 3, Wq: W, Wk: W, Wv: W, Wo: W, bq: [1, 2, 3] }),
  () => attn.additiveScores([1, 2, 3], X, W, W, [1, 1, 1]),
  () => random.randn(4, 4),
  () => attn.dotScores([1, 2], X), // errors: thrown from C++ ...
  () => attn.softmax([1, NaN]),
  () => attn.dotScores([1, 'x'], X), // ... and from the wrapper
  () => attn.walkthrough('basics', { decoderState: [1, 0, 0] }),
];

function run(count) {
  for (let i = 0; i < count; i++) {
    try {
      calls[i % calls.length]();
    } catch {
      // the bad calls are part of the mix
    }
  }
}

test('100,000 mixed calls leave the heap where it was after the first 1,000', () => {
  run(1000);
  const before = attn.memory();
  run(100_000);
  const after = attn.memory();
  assert.deepEqual(after, before);
  assertSeedNumbers({ score: attn.dotScore(SEEDS.decoderState, SEEDS.annotations[0]) });
});
