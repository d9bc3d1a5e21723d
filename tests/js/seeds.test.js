// Every number the seed notebooks print, through the public API in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { assertClose } from './helpers.js';

const attn = await loadAttention();
const decoderState = [5, 1, 20];
const annotations = [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
];

test('Attention Basics: 927, then [927, 397, 148, 929]', () => {
  assert.equal(attn.dotScore(decoderState, [3, 12, 45]), 927);
  assertClose(attn.dotScores(decoderState, annotations), [927, 397, 148, 929], 1e-15);
});

test('Attention Basics: softmax 0.119/0.881 and the float128 weights as text', () => {
  const scores = attn.dotScores(decoderState, annotations);
  const weights = attn.softmax(scores);
  assertClose([weights[0], weights[3]], [0.11920292202211755, 0.8807970779778824]);
  assert.equal(weights[2], 0); // a double cannot hold 5.7661442e-340
  const logWeights = attn.logSoftmax(scores);
  assert.equal(attn.decimalFromLog(logWeights[1]), '7.9471515e-232');
  assert.equal(attn.decimalFromLog(logWeights[2]), '5.7661442e-340');
});

test('Attention Basics: applied attention and the context vector [3.88079708, 4.0728263, 45.26423912]', () => {
  const weights = attn.softmax(attn.dotScores(decoderState, annotations));
  const applied = attn.applyWeights(weights, annotations);
  assertClose(applied.data.slice(0, 3), [0.35760877, 1.4304351, 5.3641315], 1e-7);
  assertClose(applied.data.slice(9), [3.5231883, 2.6423912, 39.900108], 1e-7);
  assertClose(attn.contextVector(applied), [3.88079708, 4.0728263, 45.26423912], 1e-8);
});

test('self-attention: np.random.seed(42) weights and the output for word 1', () => {
  const random = attn.randomState(42);
  const [Wq, Wk, Wv] = [random.randint(3, 3, 3), random.randint(3, 3, 3), random.randint(3, 3, 3)];
  assert.deepEqual(Array.from(Wq.data), [2, 0, 2, 2, 0, 0, 2, 1, 2]);
  assert.deepEqual(Array.from(Wk.data), [2, 2, 2, 0, 2, 1, 0, 1, 1]);
  assert.deepEqual(Array.from(Wv.data), [1, 1, 0, 0, 1, 1, 0, 0, 0]);
  const words = [
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
  ];
  const result = attn.selfAttention(words, Wq, Wk, Wv);
  assertClose(result.output.data.slice(0, 3), [0.98522025, 1.74174051, 0.75652026], 1e-8);
});
