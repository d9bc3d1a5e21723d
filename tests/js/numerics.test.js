// The precision option of softmax, logSoftmax and attention: the WebAssembly engine gives numpy's
// and PyTorch's bits (the native core is checked on many more fixtures in tests/cpp), and the
// exact text of float128 values a double cannot hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention({ threads: 1 });
const seed = [927, 397, 148, 929];
const split = (bits, exponent) => `${bits[0]} ${bits.slice(1, 1 + exponent)} ${bits.slice(1 + exponent)}`;

test('softmax of [1, 2, 3, 4] in float16, bfloat16 and float32, bit for bit as numpy and torch give it', () => {
  // from numpy 1.24 (x - x.max(), np.exp, / np.sum) and torch 1.13 (torch.softmax)
  const expected = {
    float16: ['0010100000011010', '0010110110010100', '0011001110010101', '0011100100100111'].map((b) => split(b, 5)),
    bfloat16: ['0011110100000011', '0011110110110010', '0011111001110011', '0011111100100101'].map((b) => split(b, 8)),
    float32: [
      '00111101000000110100111111100010',
      '00111101101100100111100010111001',
      '00111110011100101001000101101000',
      '00111111001001001101011110010001',
    ].map((b) => split(b, 8)),
  };
  for (const [precision, bits] of Object.entries(expected)) {
    const result = attn.softmax([1, 2, 3, 4], { precision });
    assert.equal(result.precision, precision);
    assert.deepEqual(result.bits, bits, precision);
    assert.ok(result.values instanceof Float64Array);
    assert.deepEqual(result.exact, ['', '', '', '']);
  }
});

test("the seed's scores: bfloat16 makes 927 and 929 equal, float128 keeps the weight a double cannot", () => {
  assert.deepEqual(Array.from(attn.softmax(seed, { precision: 'bfloat16' }).values), [0.5, 0, 0, 0.5]);
  const quad = attn.softmax(seed, { precision: 'float128' });
  assert.equal(quad.values[2], 0);
  assert.equal(quad.exact[2], '5.7661442e-340');
  assert.equal(quad.bits[2].length, 1 + 1 + 15 + 1 + 112);
  assert.equal(attn.softmax(seed, { precision: 'float64' }).values[2], 0);
  // log-softmax holds it everywhere: float16 rounds -781.127 to -781
  assert.equal(attn.logSoftmax(seed, { precision: 'float16' }).values[2], -781);
  assert.ok(Math.abs(attn.logSoftmax(seed, { precision: 'float128' }).values[2] + 781.126928011043) < 1e-9);
});

test('the mask removes scores, as without a precision; scale multiplies them first', () => {
  const masked = attn.softmax([1, 2, 3], { precision: 'float32', mask: [1, 0, 1] });
  assert.equal(masked.values[1], 0);
  assert.ok(Math.abs(masked.values[0] + masked.values[2] - 1) < 1e-7);
  assert.deepEqual(Array.from(attn.softmax([1, 2], { precision: 'float16', mask: [0, 0] }).values), [0, 0]);
  const scaled = attn.softmax([2, 4], { precision: 'float64', scale: 0.5 });
  assert.deepEqual(scaled.values, attn.softmax([1, 2], { precision: 'float64' }).values);
});

test('attention in a precision: each row a softmax of that precision, the output its weighted values', () => {
  const Q = [
    [1, 0],
    [0, 1],
  ];
  const K = [
    [1, 1],
    [2, 0],
    [0, 3],
  ];
  const V = [
    [1, 2],
    [3, 4],
    [5, 6],
  ];
  const { output, weights } = attn.attention(Q, K, V, { precision: 'bfloat16', causal: true });
  assert.equal(weights.precision, 'bfloat16');
  assert.deepEqual([weights.rows, weights.cols, output.rows, output.cols], [2, 3, 2, 2]);
  assert.deepEqual(Array.from(weights.data.slice(0, 3)), [1, 0, 0]); // causal: row 0 sees key 0 only
  assert.equal(weights.bits.length, 6);
  assert.equal(output.bits[0], '0 01111111 0000000'); // 1 in bfloat16
  const float64 = attn.attention(Q, K, V, { precision: 'float64' });
  const plain = attn.attention(Q, K, V);
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(float64.weights.data[i] - plain.weights.data[i]) < 1e-15);
});
