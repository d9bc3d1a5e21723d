// 100,000 mixed calls, errors included, leave the WebAssembly heap where the first thousand left it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention();
const X = [
  [1, 0, 0],
  [0, 1, 0],
  [1, 1, 0],
  [0, 0, 1],
];
const X32 = { rows: 4, cols: 3, data: Float32Array.from(X.flat()) };
const W = [
  [2, 0, 2],
  [2, 0, 0],
  [2, 1, 2],
];
const random = attn.randomState(42);

const calls = [
  () =>
    attn.dotScores(
      [5, 1, 20],
      [
        [3, 12, 45],
        [59, 2, 5],
        [1, 43, 5],
        [4, 3, 45.3],
      ],
    ),
  () => attn.softmax([927, 397, 148, 929], { mask: [1, 1, 0, 1] }),
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
  assert.equal(attn.dotScore([5, 1, 20], [3, 12, 45]), 927);
});
