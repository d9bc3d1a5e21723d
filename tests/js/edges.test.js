// Numbers at the edges: the documented results, and no NaN.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention({ models: true });

test('scores of +-1e308 never overflow the softmax', () => {
  assert.deepEqual(Array.from(attn.softmax([1e308, -1e308, 1e308])), [0.5, 0, 0.5]);
  assert.deepEqual(Array.from(attn.logSoftmax([1e308, 1e308])), [-Math.LN2, -Math.LN2]);
});

test('all-equal scores share the weight equally', () => {
  assert.deepEqual(Array.from(attn.softmax(new Float32Array([3, 3, 3, 3]))), [0.25, 0.25, 0.25, 0.25]);
});

test('a row whose every key is masked attends to nothing: zero weights, zero output', () => {
  const { weights, output } = attn.attention([[1], [1]], [[1], [2]], [[5], [7]], {
    mask: [
      [0, 0],
      [1, 1],
    ],
  });
  assert.deepEqual(Array.from(weights.data.slice(0, 2)), [0, 0]);
  assert.deepEqual(Array.from(output.data.slice(0, 1)), [0]);
  assert.deepEqual(Array.from(attn.logSoftmax([1, 2], { mask: [0, 0] })), [-Infinity, -Infinity]);
  assert.deepEqual(Array.from(attn.softmax([1, 2], { mask: [false, false] })), [0, 0]);
});

test('float32 inputs whose products overflow are refused; the same numbers in float64 work', () => {
  const big = { rows: 1, cols: 1, data: new Float32Array([1e20]) };
  assert.throws(() => attn.attention(big, big, big), /overflows float32 .* or pass Float64Array/);
  const { output } = attn.attention([[1e20]], [[1e20]], [[1e20]]);
  assert.equal(output.data[0], 1e20);
});
