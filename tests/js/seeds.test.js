// Every number the seed notebooks print, through the public API in Node. The numbers themselves are
// defined once, in tests/seeds.js; the first test checks them against what the notebooks print.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { assertSeedNumbers, SEEDS } from '../seeds.js';
import { assertClose } from './helpers.js';

const attn = await loadAttention({ models: true });
const { decoderState, annotations, words } = SEEDS;

test('the reference numbers are the ones the notebooks print', () => {
  // seed 000 / 001: print(...) of the scores, weights and context vector; seed 002: the weights
  // and the output for word 1 (numpy prints 8 decimals and drops trailing zeros)
  const printed = (values) => Array.from(values, (value) => Number(value.toFixed(8)));
  assert.equal(SEEDS.score, 927);
  assert.deepEqual(SEEDS.scores, [927, 397, 148, 929]);
  assert.equal(SEEDS.tiny, '5.7661442e-340');
  assert.equal(SEEDS.weightsText[1], '7.9471515e-232');
  assert.deepEqual(printed(SEEDS.context), [3.88079708, 4.0728263, 45.26423912]);
  assert.deepEqual(SEEDS.W_Q, [
    [2, 0, 2],
    [2, 0, 0],
    [2, 1, 2],
  ]);
  assert.deepEqual(SEEDS.W_K, [
    [2, 2, 2],
    [0, 2, 1],
    [0, 1, 1],
  ]);
  assert.deepEqual(SEEDS.W_V, [
    [1, 1, 0],
    [0, 1, 1],
    [0, 0, 0],
  ]);
  assert.deepEqual(printed(SEEDS.word1), [0.98522025, 1.74174051, 0.75652026]);
  assert.deepEqual(printed(SEEDS.weights), [0.11920292, 0, 0, 0.88079708]);
});

test('the seed-number check fails on a wrong number', () => {
  assert.throws(() => assertSeedNumbers({ score: 928 }), /score/);
  assert.throws(() => assertSeedNumbers({ scores: ['927', '397', '148', '928'] }), /scores\[3\]/);
  assert.throws(() => assertSeedNumbers({ context: [3.88079708, 4.0728263, 45.26423912] }), /context\[0\]/);
  assert.throws(() => assertSeedNumbers({ W_Q: [2, 0, 2, 2, 0, 0, 2, 1] }), /8 values, not 9/);
  assert.throws(() => assertSeedNumbers({ weights: [...SEEDS.weights.slice(0, 2), '5.8e-340', 0.88] }), /\[2\]/);
  assert.throws(() => assertSeedNumbers({ width: 3 }), /no seed number is called width/);
  assert.throws(() => assertSeedNumbers({}), /nothing to check/);
});

test('Attention Basics: the single score, then the four scores', () => {
  assertSeedNumbers({
    score: attn.dotScore(decoderState, annotations[0]),
    scores: attn.dotScores(decoderState, annotations),
  });
});

test('Attention Basics: softmax 0.119/0.881 and the float128 weights as text', () => {
  const scores = attn.dotScores(decoderState, annotations);
  const weights = attn.softmax(scores);
  assertSeedNumbers({ weights }); // the third is 0: a double cannot hold it
  const logWeights = attn.logSoftmax(scores);
  assert.equal(attn.decimalFromLog(logWeights[1]), SEEDS.weightsText[1]);
  assertSeedNumbers({ tiny: attn.decimalFromLog(logWeights[2]) });
});

test('Attention Basics: applied attention and the context vector', () => {
  const weights = attn.softmax(attn.dotScores(decoderState, annotations));
  const applied = attn.applyWeights(weights, annotations);
  // the applied attention holds one annotation per row; the fixture one per column
  const annotation = (j) => SEEDS.appliedText.map((row) => Number(row[j]));
  assertClose(applied.data.slice(0, 3), annotation(0), 1e-7);
  assertClose(applied.data.slice(9), annotation(3), 1e-7);
  assertSeedNumbers({ context: attn.contextVector(applied) });
});

test('self-attention: np.random.seed(42) weights and the output for word 1', () => {
  const random = attn.randomState(42);
  const [Wq, Wk, Wv] = [random.randint(3, 3, 3), random.randint(3, 3, 3), random.randint(3, 3, 3)];
  assertSeedNumbers({ W_Q: Wq.data, W_K: Wk.data, W_V: Wv.data });
  const result = attn.selfAttention(words, Wq, Wk, Wv);
  assertSeedNumbers({ word1: result.output.data.slice(0, 3) });
});
