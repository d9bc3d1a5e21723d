// Bad input: a clear Error that names the argument and the shapes, and the engine keeps working.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention();
const H = [
  [1, 2],
  [3, 4],
];

const cases = [
  [
    'query longer than the keys',
    () => attn.dotScores([1, 2, 3], H),
    /query length \(3, from \[3\]\) must equal keys columns \(2, from \[2x2\]\)/,
  ],
  ['ragged matrix', () => attn.dotScores([1, 2], [[1, 2], [3]]), /keys is ragged: row 1 has 1 entries but row 0 has 2/],
  ['string in a vector', () => attn.dotScores([1, '2'], H), /query\[1\] must be a number, got the string "2"/],
  ['null matrix', () => attn.dotScores([1, 2], null), /keys must be a matrix .* got null/],
  ['NaN', () => attn.softmax([1, NaN]), /x \[2\] holds a non-finite value \(nan\) at flat index 1/],
  ['empty vector', () => attn.softmax([]), /x \[0\] is empty/],
  [
    'data length',
    () => attn.contextVector({ rows: 2, cols: 2, data: new Float64Array(3) }),
    /weighted.data has 3 values but rows x cols is 2x2 = 4/,
  ],
  ['bad mask value', () => attn.softmax([1, 2], { mask: [1, 2] }), /options.mask\[1\] must be true\/false or 1\/0/],
  [
    'mask length',
    () => attn.softmax([1, 2], { mask: [1] }),
    /mask length \(1, from \[1\]\) must equal x length \(2, from \[2\]\)/,
  ],
  ['unknown option', () => attn.softmax([1, 2], { temperature: 2 }), /options.temperature is not an option/],
  [
    'heads do not divide',
    () => attn.multiHeadAttention(H, { heads: 3, Wq: H, Wk: H, Wv: H, Wo: H }),
    /heads \(3\) must be a positive divisor of the projection width \(2/,
  ],
  [
    'zero heads',
    () => attn.multiHeadAttention(H, { heads: 0, Wq: H, Wk: H, Wv: H, Wo: H }),
    /params.heads must be an integer from 1/,
  ],
  [
    'attention shapes',
    () => attn.attention(H, [[1, 2, 3]], [[1]]),
    /Q columns \(2, from \[2x2\]\) must equal K columns \(3, from \[1x3\]\)/,
  ],
  ['negative seed', () => attn.randomState(-1), /seed must be an integer from 0 to 4294967295, got number -1/],
  ['fractional size', () => attn.randomState(1).rand(1.5, 2), /rows must be an integer from 1/],
  [
    'unknown walkthrough',
    () => attn.walkthrough('transformer'),
    /walkthrough name must be one of basics, self-attention, scoring/,
  ],
  [
    'unknown score function',
    () => attn.walkthrough('scoring', { score: 'cosine' }),
    /score \("cosine"\) must be one of additive, dot, general, concat/,
  ],
  [
    'walkthrough shapes',
    () => attn.walkthrough('basics', { decoderState: [1, 2] }),
    /annotation length \(3, from \[4x3\]\) must equal decoderState length \(2/,
  ],
];

for (const [name, run, message] of cases) {
  test(`bad input: ${name}`, () => {
    assert.throws(run, (error) => error instanceof Error && message.test(error.message));
    assert.equal(attn.dotScore([5, 1, 20], [3, 12, 45]), 927); // still answers correctly
  });
}
