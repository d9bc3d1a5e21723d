// The numeric API against numpy fixtures, in float64 and float32.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { assertClose, assertMatrixClose, fixtures as f, flat } from './helpers.js';

const attn = await loadAttention();
const f32 = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float32Array.from(flat(rows)) });

test('loadAttention shares one instance unless given options', async () => {
  assert.equal(await loadAttention(), attn);
});

test('the four scoring functions and scaled dot match numpy', () => {
  const s = f.scoring;
  assertClose(attn.dotScores(s.s, s.H), s.dot);
  assertClose(attn.generalScores(s.s, s.H, s.W_general), s.general);
  assertClose(attn.concatScores(s.s, s.H, s.W_concat, s.v_concat), s.concat);
  assertClose(attn.additiveScores(s.s, s.H, s.W_additive, s.U_additive, s.v_additive), s.additive);
});

test('Float32 in, Float32 out', () => {
  const s = f.scoring;
  const scores = attn.additiveScores(Float32Array.from(s.s), f32(s.H), s.W_additive, s.U_additive, s.v_additive);
  assert.ok(scores instanceof Float32Array);
  assertClose(scores, s.additive, 1e-5);
  const { output } = attn.attention(f32(f.attention.Q), f.attention.K, f.attention.V);
  assert.ok(output.data instanceof Float32Array);
  assertMatrixClose(output, f.attention.plain_output, 1e-5);
  assert.ok(attn.dotScores(s.s, s.H) instanceof Float64Array);
});

test('softmax and log-softmax with scale and mask', () => {
  const s = f.softmax;
  assertClose(attn.softmax(s.x), s.plain);
  assertClose(attn.logSoftmax(s.x), s.log);
  assertClose(attn.softmax(s.x, { scale: 0.5, mask: s.mask }), s.scaled_masked);
  const log = attn.logSoftmax(s.x, { scale: 0.5, mask: s.mask.map(Boolean) });
  s.mask.forEach((keep, j) =>
    keep ? assertClose([log[j]], [s.log_scaled_masked[j]]) : assert.equal(log[j], -Infinity),
  );
});

test('attention: plain, causal and key padding', () => {
  const a = f.attention;
  const plain = attn.attention(a.Q, a.K, a.V);
  assertMatrixClose(plain.weights, a.plain_weights);
  assertMatrixClose(plain.output, a.plain_output);
  const causal = attn.attention(a.Qc, a.K, a.V, { causal: true });
  assertMatrixClose(causal.output, a.causal_output);
  const padded = attn.attention(a.Q, a.K, a.V, { mask: a.key_keep });
  assertMatrixClose(padded.weights, a.padded_weights);
  const perPair = attn.attention(a.Q, a.K, a.V, { mask: a.Q.map(() => a.key_keep) });
  assertMatrixClose(perPair.output, a.padded_output);
});

test('multi-head attention matches torch.nn.MultiheadAttention given transposed weights', () => {
  const m = f.multi_head;
  const E = m.X[0].length;
  const transpose = (rows) => rows[0].map((_, j) => rows.map((row) => row[j]));
  const block = (i) => transpose(m.in_proj_weight.slice(i * E, (i + 1) * E));
  const params = {
    heads: m.heads,
    Wq: block(0),
    Wk: block(1),
    Wv: block(2),
    Wo: transpose(m.out_proj_weight),
    bq: m.in_proj_bias.slice(0, E),
    bk: m.in_proj_bias.slice(E, 2 * E),
    bv: m.in_proj_bias.slice(2 * E),
    bo: m.out_proj_bias,
  };
  for (const causal of [false, true]) {
    const result = attn.multiHeadAttention(m.X, { ...params, causal });
    assertMatrixClose(result.output, causal ? m.causal_output : m.plain_output);
    assert.equal(result.weights.length, m.heads);
    result.weights.forEach((w, h) => assertMatrixClose(w, (causal ? m.causal_weights : m.plain_weights)[h]));
  }
});

test("Luong's attentional hidden state", () => {
  const a = f.attentional;
  assertClose(attn.attentionalHiddenState(a.c, a.s, a.W_c), a.h_tilde);
});

test('randomState continues one stream bit for bit, as numpy', () => {
  const r = attn.randomState(0);
  const seed0 = f.random_seed0;
  assert.deepEqual(Array.from(r.randint(10, 3, 4).data), flat(seed0.randint10));
  assert.deepEqual(Array.from(r.rand(2, 3).data), flat(seed0.rand));
  assert.deepEqual(Array.from(r.randn(3, 3).data), flat(seed0.randn));
  assert.deepEqual(Array.from(r.randn(1, 1).data), flat(seed0.randn_after));
  assert.deepEqual(Array.from(r.randint(2 ** 40, 2, 2).data), flat(seed0.randint_big));
  assert.deepEqual(Array.from(r.randint(1, 2, 2).data), flat(seed0.randint1));
  assert.deepEqual(Array.from(r.rand(1, 2).data), flat(seed0.rand_after));
  const max = attn.randomState(2 ** 32 - 1);
  assert.deepEqual(Array.from(max.randn(50, 40).data), flat(f.random_seed_max.randn));
  assert.deepEqual(Array.from(max.randint(1000003, 10, 10).data), flat(f.random_seed_max.randint));
});

test('matrices come in as number[][] or {rows, cols, data}; results belong to the caller', () => {
  const rows = [
    [1, 2],
    [3, 4],
  ];
  const a = attn.applyWeights([1, 2], rows);
  const b = attn.applyWeights([1, 2], { rows: 2, cols: 2, data: new Float64Array([1, 2, 3, 4]) });
  assert.deepEqual(a, b);
  a.data[0] = 99; // a copy: the next call is unaffected
  assert.equal(attn.applyWeights([1, 2], rows).data[0], 1);
});

test('weights: false takes the fused path: the same output, no weights', () => {
  const a = f.attention;
  for (const options of [{}, { mask: a.key_keep }]) {
    const fused = attn.attention(a.Q, a.K, a.V, { ...options, weights: false });
    assert.equal(fused.weights, null);
    assertClose(fused.output.data, attn.attention(a.Q, a.K, a.V, options).output.data, 1e-12);
  }
  const causal = attn.attention(a.Qc, a.K, a.V, { causal: true, weights: false });
  assertMatrixClose(causal.output, a.causal_output);
});

test('matmul: A B in float64 and float32, checked against a plain loop', () => {
  const [A, B] = [attn.randomState(5).randn(70, 33), attn.randomState(6).randn(33, 90)];
  const expected = new Float64Array(70 * 90);
  for (let i = 0; i < 70; i++)
    for (let p = 0; p < 33; p++)
      for (let j = 0; j < 90; j++) expected[i * 90 + j] += A.data[i * 33 + p] * B.data[p * 90 + j];
  const product = attn.matmul(A, B);
  assert.deepEqual([product.rows, product.cols], [70, 90]);
  assertClose(product.data, expected, 1e-12);
  const single = attn.matmul({ ...A, data: Float32Array.from(A.data) }, B);
  assert.ok(single.data instanceof Float32Array);
  assertClose(single.data, expected, 1e-5);
  assert.deepEqual(Array.from(attn.matmul([[1, 2]], [[3], [4]]).data), [11]);
});

test('heads side by side in one call equal one call per head', () => {
  const rows = (n, cols, seed) => attn.randomState(seed).randn(n, cols);
  const [Q, K, V] = [rows(6, 8, 1), rows(9, 8, 2), rows(9, 4, 3)];
  const columns = (m, from, to) =>
    Array.from({ length: m.rows }, (_, i) => Array.from(m.data.slice(i * m.cols + from, i * m.cols + to)));
  const both = attn.attention(Q, K, V, { heads: 2 });
  assert.equal(both.weights.length, 2);
  for (const h of [0, 1]) {
    const one = attn.attention(
      columns(Q, h * 4, h * 4 + 4),
      columns(K, h * 4, h * 4 + 4),
      columns(V, h * 2, h * 2 + 2),
    );
    assertClose(columns(both.output, h * 2, h * 2 + 2).flat(), one.output.data);
    assertClose(both.weights[h].data, one.weights.data);
  }
  assert.equal(attn.attention(Q, K, V, { heads: 2, weights: false }).weights, null);
  assert.throws(() => attn.attention(Q, K, V, { heads: 3 }), /heads \(3\) must be a positive divisor of Q columns \(8/);
});
