// Bad input: each call throws an Error that names the argument (and the shapes, where shapes are
// the problem) before any work, and the engine answers correctly on the next call. Never an
// abort() or "RuntimeError: unreachable".
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { assertSeedNumbers, SEEDS } from '../seeds.js';

const engine = await loadAttention({ models: true });
// records which of the engine's functions the cases call
const called = new Set();
const attn = new Proxy(engine, {
  get(target, key) {
    if (typeof target[key] === 'function') called.add(key);
    return target[key];
  },
});
const H = [
  [1, 2],
  [3, 4],
];
const comparingModel = engine.createSeq2seq({ task: 'en-fr', embedding: 4, hidden: 8 });
const W = { heads: 1, Wq: H, Wk: H, Wv: H, Wo: H };
const f32 = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float32Array.from(rows.flat()) });

// [what, call, the message must match]
const cases = [
  // wrong shapes
  [
    'query longer than the keys',
    () => attn.dotScores([1, 2, 3], H),
    /query length \(3, from \[3\]\) must equal keys columns \(2, from \[2x2\]\)/,
    'query',
  ],
  [
    'dotScore lengths',
    () => attn.dotScore([1, 2], [1, 2, 3]),
    /query length \(2, from \[2\]\) must equal key length \(3, from \[3\]\)/,
    'query',
  ],
  [
    'general Wa rows',
    () => attn.generalScores([1, 2], H, [[1, 2]]),
    /query length \(2, from \[2\]\) must equal Wa rows \(1, from \[1x2\]\)/,
    'query',
  ],
  [
    'concat Wa columns',
    () => attn.concatScores([1, 2], H, H, [1, 2]),
    /Wa columns \(2, from \[2x2\]\) must equal query length \+ keys columns/,
    'Wa',
  ],
  [
    'concat va length',
    () => attn.concatScores([1, 2], H, [[1, 2, 3, 4]], [1, 2]),
    /va length \(2, from \[2\]\) must equal Wa rows \(1, from \[1x4\]\)/,
    'va',
  ],
  [
    'additive Ua columns',
    () =>
      attn.additiveScores(
        [1, 2],
        H,
        H,
        [
          [1, 2, 3],
          [1, 2, 3],
        ],
        [1, 2],
      ),
    /Ua columns \(3, from \[2x3\]\) must equal keys columns \(2, from \[2x2\]\)/,
    'Ua',
  ],
  [
    'applyWeights lengths',
    () => attn.applyWeights([1, 2, 3], H),
    /weights length \(3, from \[3\]\) must equal annotations rows \(2, from \[2x2\]\)/,
    'weights',
  ],
  [
    'attentional Wc columns',
    () => attn.attentionalHiddenState([1], [2], [[1, 2, 3]]),
    /Wc \(3, from \[1x3\]\) must equal \[c; s\] \(2, from \[2\]\)/,
    'Wc',
  ],
  [
    'attention Q/K widths',
    () => attn.attention(H, [[1, 2, 3]], [[1]]),
    /Q columns \(2, from \[2x2\]\) must equal K columns \(3, from \[1x3\]\)/,
    'Q',
  ],
  [
    'attention K/V rows',
    () => attn.attention(H, H, [[1]]),
    /K rows \(2, from \[2x2\]\) must equal V rows \(1, from \[1x1\]\)/,
    'K',
  ],
  [
    'selfAttention X/Wq',
    () => attn.selfAttention([[1, 2, 3]], H, H, H),
    /X columns \(3, from \[1x3\]\) must equal Wq rows \(2, from \[2x2\]\)/,
    'X',
  ],
  [
    'selfAttention Wq/Wk widths',
    () => attn.selfAttention(H, H, [[1], [1]], H),
    /Wq columns \(2, from \[2x2\]\) must equal Wk columns \(1, from \[2x1\]\)/,
    'Wq',
  ],
  [
    'multi-head Wo rows',
    () => attn.multiHeadAttention(H, { ...W, Wo: [[1, 2]] }),
    /Wo rows \(1, from \[1x2\]\) must equal Wq columns \(2, from \[2x2\]\)/,
    'Wo',
  ],
  [
    'multi-head bias length',
    () => attn.multiHeadAttention(H, { ...W, bq: [1, 2, 3] }),
    /bq length \(3, from \[3\]\) must equal projection width \(2/,
    'bq',
  ],
  [
    'mask of the wrong shape',
    () => attn.attention(H, H, H, { mask: [[1, 1, 1]] }),
    /mask \[1x3\] must be 1x2 \(one entry per key\) or 2x2/,
    'mask',
  ],
  // ragged rows
  [
    'ragged keys',
    () => attn.dotScores([1, 2], [[1, 2], [3]]),
    /keys is ragged: row 1 has 1 entries but row 0 has 2/,
    'keys',
  ],
  ['ragged Q', () => attn.attention([[1], [1, 2]], H, H), /Q is ragged: row 1 has 2 entries but row 0 has 1/, 'Q'],
  ['ragged mask', () => attn.attention(H, H, H, { mask: [[1, 1], [1]] }), /options.mask is ragged/, 'mask'],
  [
    'a row that is not an array',
    () => attn.dotScores([1, 2], [[1, 2], 3]),
    /keys\[1\] must be a row \(an array of numbers\), got number 3/,
    'keys',
  ],
  // empty
  ['empty vector', () => attn.softmax([]), /x \[0\] is empty/, 'x'],
  ['empty matrix', () => attn.dotScores([1], []), /keys \[0x0\] is empty/, 'keys'],
  ['matrix of empty rows', () => attn.attention([[], []], [[]], [[]]), /Q \[2x0\] is empty/, 'Q'],
  [
    'empty walkthrough input',
    () => attn.walkthrough('basics', { decoderState: [] }),
    /decoderState \[0\] is empty/,
    'decoderState',
  ],
  // heads
  [
    'zero heads',
    () => attn.multiHeadAttention(H, { ...W, heads: 0 }),
    /params.heads must be an integer from 1/,
    'heads',
  ],
  [
    'heads that do not divide',
    () => attn.multiHeadAttention(H, { ...W, heads: 3 }),
    /heads \(3\) must be a positive divisor of the projection width \(2, from Wq \[2x2\]\)/,
    'heads',
  ],
  [
    'fractional heads',
    () => attn.multiHeadAttention(H, { ...W, heads: 1.5 }),
    /params.heads must be an integer/,
    'heads',
  ],
  [
    'missing heads',
    () => attn.multiHeadAttention(H, { Wq: H, Wk: H, Wv: H, Wo: H }),
    /params.heads must be an integer from 1 .* got undefined/,
    'heads',
  ],
  // NaN and Infinity
  ['NaN in a vector', () => attn.softmax([1, NaN]), /x \[2\] holds a non-finite value \(nan\) at flat index 1/, 'x'],
  [
    'Infinity in a matrix',
    () => attn.dotScores([1, 2], [[1, Infinity]]),
    /keys \[1x2\] holds a non-finite value \(inf\) at flat index 1/,
    'keys',
  ],
  [
    '-Infinity in a typed array',
    () => attn.attention(f32([[1]]), [[-Infinity]], [[1]]),
    /K \[1x1\] holds a non-finite value \(-inf\)/,
    'K',
  ],
  ['NaN scale', () => attn.softmax([1, 2], { scale: NaN }), /scale must be a finite number, got nan/, 'scale'],
  [
    'NaN in a bias',
    () => attn.multiHeadAttention(H, { ...W, bv: [0, NaN] }),
    /bv \[2\] holds a non-finite value/,
    'bv',
  ],
  // strings, null, undefined where numbers go
  ['string in a vector', () => attn.dotScores([1, '2'], H), /query\[1\] must be a number, got the string "2"/, 'query'],
  [
    'string as a matrix',
    () => attn.dotScores([1, 2], '1 2; 3 4'),
    /keys must be a matrix .* got the string "1 2; 3 4"/,
    'keys',
  ],
  ['null matrix', () => attn.dotScores([1, 2], null), /keys must be a matrix .* got null/, 'keys'],
  ['undefined vector', () => attn.softmax(undefined), /x must be a vector .* got undefined/, 'x'],
  ['null in a row', () => attn.attention([[null]], [[1]], [[1]]), /Q\[0\]\[0\] must be a number, got null/, 'Q'],
  [
    'scores of inf - inf, fused',
    () =>
      attn.attention(
        f32([[3e38, 3e38]]),
        [
          [3e38, -3e38],
          [1e-38, 1e-38],
        ],
        [[1], [2]],
        { weights: false },
      ),
    /the scaled scores Q K\^T \[1x2\] overflows float32 at flat index 0/,
    'Q',
  ],
  [
    'matmul shapes',
    () => attn.matmul([[1, 2]], [[1, 2]]),
    /A columns \(2, from \[1x2\]\) must equal B rows \(1, from \[1x2\]\)/,
    'A',
  ],
  [
    'matmul NaN',
    () => attn.matmul([[1, NaN]], [[1], [2]]),
    /A \[1x2\] holds a non-finite value \(nan\) at flat index 1/,
    'A',
  ],
  [
    'matmul overflow',
    () => attn.matmul({ rows: 1, cols: 1, data: new Float32Array([3e38]) }, [[2]]),
    /the product A B \[1x1\] overflows float32 at flat index 0/,
    'A',
  ],
  [
    'string scale',
    () => attn.attention(H, H, H, { scale: '0.5' }),
    /options.scale must be a number, got the string "0.5"/,
    'scale',
  ],
  ['string causal', () => attn.attention(H, H, H, { causal: 'yes' }), /options.causal must be true or false/, 'causal'],
  ['object where options go', () => attn.softmax([1, 2], [1, 2]), /options must be an object, got an array/, 'options'],
  [
    'bad mask value',
    () => attn.softmax([1, 2], { mask: [1, 2] }),
    /options.mask\[1\] must be true\/false or 1\/0, got number 2/,
    'mask',
  ],
  [
    'unknown option',
    () => attn.softmax([1, 2], { temperature: 2 }),
    /options.temperature is not an option; expected one of scale, mask/,
    'temperature',
  ],
  // negative or fractional sizes
  [
    'negative rows',
    () => attn.contextVector({ rows: -1, cols: 2, data: new Float64Array(2) }),
    /weighted.rows must be an integer from 0 to 2147483648, got number -1/,
    'weighted',
  ],
  [
    'fractional cols',
    () => attn.contextVector({ rows: 1, cols: 1.5, data: new Float64Array(2) }),
    /weighted.cols must be an integer/,
    'weighted',
  ],
  [
    'data length',
    () => attn.contextVector({ rows: 2, cols: 2, data: new Float64Array(3) }),
    /weighted.data has 3 values but rows x cols is 2x2 = 4/,
    'weighted',
  ],
  ['fractional random size', () => attn.randomState(1).rand(1.5, 2), /rows must be an integer from 1/, 'rows'],
  ['zero random size', () => attn.randomState(1).randn(2, 0), /cols must be an integer from 1/, 'cols'],
  ['randint high 0', () => attn.randomState(1).randint(0, 2, 2), /high must be an integer from 1/, 'high'],
  // seeds outside numpy's range
  ['negative seed', () => attn.randomState(-1), /seed must be an integer from 0 to 4294967295, got number -1/, 'seed'],
  [
    'seed of 2**32',
    () => attn.randomState(2 ** 32),
    /seed must be an integer from 0 to 4294967295, got number 4294967296/,
    'seed',
  ],
  ['fractional seed', () => attn.randomState(4.2), /seed must be an integer/, 'seed'],
  [
    'string seed',
    () => attn.walkthrough('self-attention', { seed: '42' }),
    /inputs.seed must be an integer .* got the string "42"/,
    'seed',
  ],
  // sizes that would not fit in memory
  [
    'attention weights too large',
    () =>
      attn.attention(
        { rows: 9000, cols: 1, data: new Float32Array(9000) },
        { rows: 9000, cols: 1, data: new Float32Array(9000) },
        { rows: 9000, cols: 1, data: new Float32Array(9000) },
      ),
    /the attention weights \(queries x keys\) would be 9000x9000, more than the 67108864 elements/,
    'Q',
  ],
  [
    'random matrix too large',
    () => attn.randomState(1).randn(2 ** 26, 2 ** 26),
    /rows must be an integer from 1 to 67108864|size would be/,
    'rows',
  ],
  [
    'multi-head weights too large',
    () =>
      attn.multiHeadAttention(
        { rows: 4100, cols: 8, data: new Float64Array(4100 * 8) },
        {
          heads: 8,
          Wq: { rows: 8, cols: 8, data: new Float64Array(64) },
          Wk: { rows: 8, cols: 8, data: new Float64Array(64) },
          Wv: { rows: 8, cols: 8, data: new Float64Array(64) },
          Wo: { rows: 8, cols: 8, data: new Float64Array(64) },
        },
      ),
    /the weights of all heads would be 4100x32800/,
    'X',
  ],
  // overflow of the scalar type
  [
    'float32 scores overflow',
    () => attn.dotScores(new Float32Array([1e30]), f32([[1e30]])),
    /scores \[1\] overflows float32 at flat index 0: scale the inputs down or pass Float64Array/,
    'query',
  ],
  [
    'float64 projection overflow',
    () => attn.selfAttention([[1e200]], [[1e200]], [[1]], [[1]]),
    /queries X Wq \[1x1\] overflows float64/,
    'Wq',
  ],
  // walkthroughs
  [
    'unknown walkthrough',
    () => attn.walkthrough('reformer'),
    /walkthrough name must be one of basics, self-attention, scoring, seq2seq, captioning, transformer, sentiment, pretrained, numerics, got the string "reformer"/,
    'walkthrough',
  ],
  [
    'unknown score function',
    () => attn.createSeq2seq({ task: 'en-fr', scoring: 'cosine' }),
    /scoring \("cosine"\) must be one of additive, dot, general, concat/,
    'scoring',
  ],
  [
    'walkthrough shapes',
    () => attn.walkthrough('basics', { decoderState: [1, 2] }),
    /annotation length \(3, from \[4x3\]\) must equal decoderState length \(2, from \[2\]\)/,
    'annotations',
  ],
  [
    'unknown walkthrough input',
    () => attn.walkthrough('basics', { decoder: [1] }),
    /inputs.decoder is not an option; expected one of decoderState, annotations, seed/,
    'decoder',
  ],
  ['logSoftmax NaN', () => attn.logSoftmax([NaN]), /x \[1\] holds a non-finite value \(nan\)/, 'x'],
  // one precision, emulated
  [
    'unknown precision',
    () => attn.softmax([1, 2], { precision: 'float8' }),
    /options.precision must be one of float16, bfloat16, float32, float64, float128, got the string "float8"/,
    'precision',
  ],
  ['NaN scores in a precision', () => attn.logSoftmax([1, NaN], { precision: 'float16' }), /x\[1\] is NaN/, 'x'],
  [
    'precision with heads',
    () => attn.attention(H, H, H, { precision: 'bfloat16', heads: 1 }),
    /options.heads cannot be combined with options.precision/,
    'heads',
  ],
  [
    'attention in a precision, shapes',
    () => attn.attention(H, [[1, 2, 3]], H, { precision: 'float16' }),
    /K columns \(3\) must equal Q columns \(2\)/,
    'K',
  ],
  [
    'numerics mask of the wrong length',
    () => attn.walkthrough('numerics', { mask: [1, 0] }),
    /mask length \(2, from \[2\]\) must equal scores length \(4, from \[4\]\)/,
    'mask',
  ],
  ['numerics mask not 0 or 1', () => attn.walkthrough('numerics', { mask: [1, 0.5, 1, 1] }), /must be 0 or 1/, 'mask'],
  [
    'decimalFromLog digits',
    () => attn.decimalFromLog(-3, false, 0),
    /digits must be an integer from 1 to 17/,
    'digits',
  ],
  [
    'walkthroughInputs of no walkthrough',
    () => attn.walkthroughInputs('reformer'),
    /walkthrough name must be one of basics, self-attention, scoring, seq2seq, captioning, transformer, sentiment, pretrained, numerics/,
    'walkthrough',
  ],
  // walkthrough inputs: the argument is the form field to mark
  [
    'a walkthrough input overflows inside the engine',
    () => attn.walkthrough('basics', { decoderState: [1e308, 1e308, 1e308] }),
    /overflows float64/,
    'decoderState',
  ],
  [
    'too many words',
    () => attn.walkthrough('self-attention', { embeddings: { rows: 513, cols: 1, data: new Float64Array(513) } }),
    /number of words \(513\) must be between 1 and 512/,
    'embeddings',
  ],
  [
    'randint high of 0',
    () => attn.walkthrough('self-attention', { high: 0 }),
    /inputs.high must be an integer from 1/,
    'high',
  ],
  [
    'word out of range',
    () => attn.walkthrough('self-attention', { word: 9 }),
    /word \(9\) must be below the number of words \(4\)/,
    'word',
  ],
  ['seq2seq hidden size', () => attn.createSeq2seq({ task: 'en-fr', hidden: 0 }), /hidden/, 'hidden'],
  ['seq2seq task', () => attn.createSeq2seq({ task: 'en-de' }), /en-de/, 'task'],
  [
    'seq2seq walkthrough without a model',
    () => attn.walkthrough('seq2seq', { sentence: ['the', 'car'] }),
    /inputs.model must be a model of this engine/,
    'model',
  ],
  [
    'seq2seq walkthrough comparing something else',
    () => attn.walkthrough('seq2seq', { model: comparingModel, compare: [{}] }),
    /inputs.compare\[0\] must be a model of this engine \(createModel, loadModel\), got an object/,
    'compare',
  ],
  [
    'scoring walkthrough without models',
    () => attn.walkthrough('scoring', { step: 2 }),
    /inputs.models must be an array of models, got undefined/,
    'models',
  ],
  [
    'scoring walkthrough: two models of one scoring function',
    () => attn.walkthrough('scoring', { models: [comparingModel, comparingModel] }),
    /models\[0\] and models\[1\] are both additive: comparing by scoring/,
    'models',
  ],
  [
    'scoring walkthrough: a step past the translation',
    () => attn.walkthrough('scoring', { models: [comparingModel], step: 9 }),
    /step \(9\) must be between 1 and 6, the length of the translation "la voiture rouge est petite" with <eos>/,
    'step',
  ],
  [
    'no shipped model',
    () => attn.loadShippedModel({ kind: 'seq2seq', task: 'dates' }),
    /no trained model ships for task the string "dates" and scoring undefined/,
    'task',
  ],
  [
    'shipped model of no kind',
    () => attn.loadShippedModel({ kind: 'gpt', task: 'en-fr' }),
    /options.kind must be one of seq2seq, captioner, transformer, classifier, pretrained, got the string "gpt"/,
    'kind',
  ],
  [
    'model of no kind',
    () => attn.createModel({ kind: 'gpt', task: 'en-fr' }),
    /options.kind must be one of seq2seq, captioner, transformer, classifier, pretrained, got the string "gpt"/,
    'kind',
  ],
  [
    'model of a kind, an option out of range',
    () => attn.createModel({ kind: 'transformer', task: 'en-fr', heads: 5 }),
    /heads/,
    'heads',
  ],
  ['facts of no kind', () => attn.modelFacts('gpt'), /kind must be one of seq2seq, captioner, transformer/, 'kind'],
  ['transformer heads', () => attn.createTransformer({ task: 'en-fr', heads: 5 }), /heads/, 'heads'],
  ['captioner language', () => attn.createCaptioner({ task: 'shapes', language: 'fr' }), /fr/, 'language'],
  ['scene of no object', () => attn.renderScene({ objects: [] }), /scene/, 'scene'],
  ['scene text not text', () => attn.parseScene({ objects: [] }), /scene must be a scene's text/, 'scene'],
  ['scene text of four words', () => attn.parseScene('big red circle 0'), /must be five words/, 'scene'],
  ['seq2seq file truncated', () => attn.loadModel(new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 123])), /bytes/, 'bytes'],
  ['tensor file not bytes', () => attn.readTensors([1, 2]), /bytes must be a Uint8Array or an ArrayBuffer/, 'bytes'],
  [
    'tensor file cut short',
    () => attn.readTensors(new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 9, 0, 123])),
    /not a \.npy file numpy can read: its header would be 9 bytes but only 1 follow/,
    'bytes',
  ],
];

for (const [name, run, message, argument] of cases) {
  test(`bad input: ${name}`, () => {
    assert.throws(run, (error) => {
      assert.ok(error instanceof Error, `not an Error: ${error}`);
      assert.doesNotMatch(error.message, /unreachable|Aborted|RuntimeError/);
      assert.match(error.message, message);
      assert.equal(error.argument, argument, 'the argument a form would mark');
      return true;
    });
    // the engine still answers, and correctly
    assertSeedNumbers({ score: attn.dotScore(SEEDS.decoderState, SEEDS.annotations[0]) });
  });
}

test('every function of the engine that takes input is tried with bad input above', () => {
  const takesInput = Object.keys(engine).filter((key) => typeof engine[key] === 'function' && engine[key].length > 0);
  assert.deepEqual(
    takesInput.filter((key) => !called.has(key)),
    [],
  );
});
