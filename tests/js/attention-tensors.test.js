// Attention computed elsewhere, read for the public model and head views in BertViz's contract
// (web/components/attention-tensors.js): the files numpy wrote (tests/fixtures/make_tensor_fixtures.py:
// a layer per tensor in .npz and safetensors, one 5-D tensor, JSON with the tokens) read to the
// same weights as the JSON; nested arrays with and without the batch; each malformed input refused
// with an Error naming the argument, the tensor and the shape it needed; the sentence filters.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { attentionPanels, readAttentions } from '../../web/components/attention-tensors.js';

const attn = await loadAttention();
const dir = new URL('../fixtures/tensors/', import.meta.url);
const json = JSON.parse(readFileSync(new URL('attentions.json', dir), 'utf8'));
const tensorsOf = (name) => attn.readTensors(new Uint8Array(readFileSync(new URL(name, dir))));
const [LAYERS, HEADS, T] = [3, 4, json.tokens.length];

// every head's weights as nested arrays [layer][head][query][key]
const weights = (attention) =>
  Array.from({ length: attention.layers }, (_, l) =>
    Array.from({ length: attention.heads }, (_, h) => {
      const data = attention.at(l, h);
      return Array.from({ length: attention.size }, (_, i) => Array.from(data.subarray(i * T, (i + 1) * T)));
    }),
  );
const reference = json.attentions.map((layer) => layer[0]);

function assertRefused(call, argument, pattern) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Error, String(error));
    assert.equal(error.argument, argument, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

test('the JSON, a layer per tensor (.npz, safetensors) and one 5-D tensor read to the same weights', () => {
  const fromJson = readAttentions(json.attentions, json.tokens, json.sentenceBStart);
  assert.deepEqual([fromJson.layers, fromJson.heads, fromJson.size, fromJson.sentenceB], [LAYERS, HEADS, T, 5]);
  assert.deepEqual(fromJson.tokens, json.tokens);
  assert.deepEqual(weights(fromJson), reference);
  for (const file of ['attentions.npz', 'attentions-5d.npz', 'attentions.safetensors']) {
    const attention = readAttentions(tensorsOf(file), json.tokens);
    assert.deepEqual([attention.layers, attention.heads, attention.size], [LAYERS, HEADS, T], file);
    assert.deepEqual(weights(attention), reference, file);
  }
  // [heads, T, T] per layer (no batch), and { shape, data } tensors
  assert.deepEqual(weights(readAttentions(reference, json.tokens)), reference);
  const tensors = tensorsOf('attentions.npz');
  const list = Object.values(tensors).map(({ shape, data }) => ({ shape, data }));
  assert.deepEqual(weights(readAttentions(list, json.tokens)), reference);
  assert.deepEqual(weights(readAttentions(tensorsOf('attentions-5d.npz').attentions, json.tokens)), reference);
});

test('malformed attentions are refused, naming the tensor and the shape it needed', () => {
  const { tokens } = json;
  const ragged = structuredClone(json.attentions);
  ragged[1][0][2][3].pop();
  assertRefused(
    () => readAttentions(ragged, tokens),
    'attentions',
    /attentions\[1\]\[0\]\[2\]\[3\] has 7 entries where attentions\[1\]'s shape \[1, 4, 8, 8\] needs 8/,
  );
  const text = structuredClone(json.attentions);
  text[0][0][0][0][1] = '0.5';
  assertRefused(
    () => readAttentions(text, tokens),
    'attentions',
    /attentions\[0\]\[0\]\[0\]\[0\]\[1\] is "0\.5", not a number/,
  );
  const fewerHeads = [json.attentions[0], json.attentions[1].map((batch) => batch.slice(1))];
  assertRefused(
    () => readAttentions(fewerHeads, tokens),
    'attentions',
    /attentions\[1\] has shape \[1, 3, 8, 8\] but needs \[1, 4, 8, 8\] \(batch, heads, tokens, tokens\), as attentions\[0\] has/,
  );
  const batch = [[reference[0], reference[0]]];
  assertRefused(
    () => readAttentions(batch, tokens),
    'attentions',
    /attentions\[0\] has a batch of 2 \(shape \[2, 4, 8, 8\]\)/,
  );
  assertRefused(
    () => readAttentions([reference[0][0]], tokens),
    'attentions',
    /attentions\[0\] has shape \[8, 8\] but needs 4 dimensions/,
  );
  const wide = [reference[0].map((head) => head.slice(0, 5))];
  assertRefused(() => readAttentions(wide, tokens), 'attentions', /as many queries as keys/);
  assertRefused(() => readAttentions([], tokens), 'attentions', /attentions is empty/);
  assertRefused(() => readAttentions('attentions.npz', tokens), 'attentions', /must be a list per layer/);
  assertRefused(
    () => readAttentions({ shape: [1, 4, 8, 8], data: new Float32Array(10) }, tokens),
    'attentions',
    /attentions has 10 values but its shape \[1, 4, 8, 8\] needs 256/,
  );
  // a file's tensors: layer_0, layer_1, … without gaps, or attentions alone
  const { layer_0, layer_2 } = tensorsOf('attentions.npz');
  assertRefused(() => readAttentions({ layer_0, layer_2 }, tokens), 'attentions', /holds 2 layers but no layer_1/);
  assertRefused(
    () => readAttentions({ layer_0, scores: layer_2 }, tokens),
    'attentions',
    /holds "scores": name the tensors layer_0/,
  );
  const heads = { shape: [4, 8, 8], data: layer_0.data };
  assertRefused(
    () => readAttentions({ attentions: heads }, tokens),
    'attentions',
    /attentions has shape \[4, 8, 8\] but needs \[layers, 1, heads, tokens, tokens\]/,
  );
});

test('the tokens must match the attentions, and a second sentence start within them', () => {
  assertRefused(
    () => readAttentions(reference, json.tokens.slice(1)),
    'tokens',
    /tokens has 7 entries but the attentions are over 8 tokens/,
  );
  assertRefused(() => readAttentions(reference, 'the cat'), 'tokens', /tokens must be an array of 8 strings/);
  assertRefused(
    () => readAttentions(reference, [...json.tokens.slice(1), 3]),
    'tokens',
    /tokens\[7\] is number, not a string/,
  );
  for (const start of [0, 8, 2.5, '5'])
    assertRefused(
      () => readAttentions(reference, json.tokens, start),
      'sentenceB',
      /sentenceB must be an index from 1 to 7/,
    );
});

test("the panels of a layer or of all, and a sentence pair's queries against its keys", () => {
  const attention = readAttentions(json.attentions, json.tokens, 5);
  const all = attentionPanels(attention, null);
  assert.equal(all.length, LAYERS * HEADS);
  assert.deepEqual(
    all.slice(0, 5).map((panel) => panel.name),
    ['attention-0-0', 'attention-0-1', 'attention-0-2', 'attention-0-3', 'attention-1-0'],
  );
  const [first] = all;
  assert.deepEqual([first.rows, first.cols, first.rowLabels, first.palette], [T, T, json.tokens, 'weights']);
  const layer = attentionPanels(attention, 2);
  assert.deepEqual(
    layer.map((panel) => panel.name),
    ['attention-2-0', 'attention-2-1', 'attention-2-2', 'attention-2-3'],
  );
  // A (tokens 0–4) asking B (5–7): rows 0–4, columns 5–7 of each head
  const ab = attentionPanels(attention, 1, 'ab')[3];
  assert.deepEqual(
    [ab.rows, ab.cols, ab.rowLabels, ab.colLabels],
    [5, 3, json.tokens.slice(0, 5), json.tokens.slice(5)],
  );
  const want = reference[1][3].slice(0, 5).map((row) => row.slice(5));
  assert.deepEqual(Array.from(ab.data), want.flat());
  const ba = attentionPanels(attention, 0, 'ba')[0];
  assert.deepEqual(
    Array.from(ba.data),
    reference[0][0].slice(5).flatMap((row) => row.slice(0, 5)),
  );
  // without a second sentence every filter shows all
  assert.equal(attentionPanels(readAttentions(reference, json.tokens), 0, 'ab')[0].rows, T);
});

test("a pretrained checkpoint's run draws as it comes: a layer as its heads' matrices", async () => {
  const models = await loadAttention({ models: true });
  const gpt2 = new URL('../fixtures/pretrained/gpt2/', import.meta.url);
  const read = (path) => readFileSync(new URL(path, gpt2));
  const model = await models.loadPretrained({
    config: read('config.json').toString('utf8'),
    weights: new Uint8Array(read('model.safetensors')),
    tokenizer: read('tokenizer.json').toString('utf8'),
  });
  try {
    const result = model.run('the cat sat');
    const attention = readAttentions(result.attentions, result.tokens);
    assert.deepEqual(
      [attention.layers, attention.heads, attention.size],
      [model.config.layers, model.config.heads, result.tokens.length],
    );
    for (let l = 0; l < attention.layers; l++)
      for (let h = 0; h < attention.heads; h++)
        assert.deepEqual(
          Array.from(attention.at(l, h)),
          Array.from(result.attentions[l][h].data),
          `layer ${l} head ${h}`,
        );
    const uneven = [result.attentions[0].map((head, h) => (h === 1 ? { ...head, cols: head.cols - 1 } : head))];
    assertRefused(
      () => readAttentions(uneven, result.tokens),
      'attentions',
      /attentions\[0\]\[1\] is \d+ × \d+ with \d+ values where attentions\[0\]\[0\] is/,
    );
  } finally {
    model.dispose();
  }
});
