// The pretrained walkthrough through the API: a checkpoint loaded with its tokenizer (a tiny
// fixture of tests/fixtures/pretrained/, and the small GPT-2 the package ships) reads a text, and
// the trace's tokens are the tokenizer's, its panels the model's own run and trace; bad inputs are
// refused by argument.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { loadFixture } from './pretrained-fixtures.js';

const attn = await loadAttention({ models: true });
const fixture = (name) => loadFixture(attn, name);
const panel = (trace, stage, name) => trace.stages.find((s) => s.id === stage).panels.find((p) => p.name === name);

test('a GPT-2 checkpoint: the tokenizer’s pieces, and every head as the model runs it', async () => {
  const model = await fixture('gpt2');
  const sentence = 'the fox jumps over the dog.';
  const { ids, tokens } = model.tokenize(sentence);
  const trace = attn.walkthrough('pretrained', { model, ids, sentence, layer: 1, head: 2 });
  assert.deepEqual(
    trace.stages.map((stage) => stage.id),
    [
      'tokens',
      'embeddings',
      'qkv',
      'scores',
      'mask',
      'softmax',
      'output',
      'model-view',
      'head-view',
      'sinks',
      'rollout',
      'prediction',
      'generation',
    ],
  );
  // the labels are the tokenizer's pieces as tokenize() shows them
  assert.deepEqual(trace.labels.tokens, tokens);
  assert.deepEqual(panel(trace, 'tokens', 'input_ids').colLabels, tokens);
  assert.deepEqual(Array.from(panel(trace, 'tokens', 'input_ids').data), Array.from(ids));
  assert.deepEqual(trace.labels.family, ['gpt2']);

  const run = model.run(sentence);
  const { layers, heads } = model.config;
  assert.equal(panel(trace, 'model-view', 'attention-0-0').rows, ids.length);
  for (let l = 0; l < layers; l++)
    for (let h = 0; h < heads; h++)
      assert.deepEqual(
        Array.from(panel(trace, 'model-view', `attention-${l}-${h}`).data),
        Array.from(run.attentions[l][h].data, (x) => Math.fround(x)),
      );
  assert.equal(trace.stages.find((s) => s.id === 'head-view').panels.length, heads);
  // one head's steps are the model's trace of it
  const steps = model.trace(sentence, { layer: 1, head: 2 });
  assert.deepEqual(Array.from(panel(trace, 'softmax', 'weights').data), Array.from(steps.weights.data));
  assert.deepEqual(Array.from(panel(trace, 'qkv', 'v').data), Array.from(steps.v.data));
  // the prediction is run()'s top ten, named by the tokenizer
  const top = panel(trace, 'prediction', 'top');
  assert.deepEqual(
    top.rowLabels,
    run.top.slice(0, 10).map((choice) => choice.token ?? `#${choice.id}`),
  );
  assert.deepEqual(trace.labels.predicted, [run.top[0].token]);
  model.dispose();
});

test('the generation stage writes what generate() writes, with each step’s attention row', async () => {
  const model = await fixture('gpt2');
  const sentence = 'the fox jumps';
  const { ids } = model.tokenize(sentence);
  for (const draw of [{}, { temperature: 1.5, topK: 5, seed: 11 }]) {
    const rows = [];
    const written = await model.generate(sentence, {
      maxTokens: 6,
      ...draw,
      stopAtEnd: false,
      onStep: (step) => rows.push(step.attentions[1][2]),
    });
    const trace = attn.walkthrough('pretrained', {
      model,
      ids,
      sentence,
      layer: 1,
      head: 2,
      maxTokens: 6,
      ...(draw.temperature ? { temperature: String(draw.temperature), topK: draw.topK, seed: draw.seed } : {}),
    });
    const chosen = panel(trace, 'generation', 'chosen');
    // the fixture's config names no end token: it writes every token asked for
    assert.deepEqual(trace.labels.generationEnd, ['tokens']);
    assert.deepEqual(trace.labels.generated, written.tokens);
    assert.deepEqual(chosen.rowLabels, written.tokens);
    assert.deepEqual(
      Array.from(chosen.data),
      written.steps.map((step) => step.probability),
    );
    const steps = panel(trace, 'generation', 'step_attention');
    assert.equal(steps.cols, ids.length + 5);
    rows.forEach((row, s) => {
      const shown = steps.data.subarray(s * steps.cols, (s + 1) * steps.cols);
      assert.deepEqual(Array.from(shown.subarray(0, row.cols)), Array.from(row.data, Math.fround));
      assert.ok(shown.subarray(row.cols).every((weight) => weight === 0)); // the tokens still to come
    });
    assert.equal(panel(trace, 'generation', 'key_cache').rows, ids.length + 5);
  }
  // a temperature is one of the menu's, named in the refusal
  assert.throws(
    () => attn.walkthrough('pretrained', { model, ids, sentence, temperature: '2' }),
    (error) => error.argument === 'temperature' && /0, 0\.5, 0\.8, 1, 1\.5/.test(error.message),
  );
  model.dispose();
});

test('bad inputs are refused, naming the input', async () => {
  const model = await fixture('gpt2');
  const { ids } = model.tokenize('a b c');
  const argumentOf = (inputs) => {
    try {
      attn.walkthrough('pretrained', inputs);
    } catch (error) {
      return error.argument;
    }
    return 'nothing';
  };
  assert.equal(argumentOf({ model, ids, layer: 2 }), 'layer');
  assert.equal(argumentOf({ model, ids, head: 4 }), 'head');
  assert.equal(argumentOf({ model, ids: [] }), 'ids');
  assert.equal(argumentOf({ model, ids: [1.5] }), 'ids');
  assert.equal(argumentOf({ model, ids: 'a b c' }), 'ids');
  assert.equal(argumentOf({ ids }), 'model');
  assert.equal(argumentOf({ model }), 'ids');
  // a text longer than the model's positions is the sentence's fault
  assert.equal(argumentOf({ model, ids: model.tokenize('a b c '.repeat(20)).ids }), 'sentence');
  model.dispose();
});

test('the small GPT-2 the package ships loads with its tokenizer and predicts', async () => {
  const model = await attn.loadShippedModel({ kind: 'pretrained' });
  assert.equal(model.family, 'gpt2');
  assert.deepEqual(
    [model.config.layers, model.config.heads, model.config.hidden, model.config.positions],
    [4, 4, 128, 128],
  );
  const sentence = attn.walkthroughInputs('pretrained').find((field) => field.name === 'sentence').default;
  const { ids, tokens } = model.tokenize(sentence);
  // its tokenizer begins every text with <|endoftext|>, as the model read every training window
  assert.equal(tokens[0], '<|endoftext|>');
  const trace = attn.walkthrough('pretrained', { model, ids, sentence });
  assert.equal(trace.stages.find((s) => s.id === 'model-view').panels.length, 16);
  const top = panel(trace, 'prediction', 'top');
  assert.ok(top.data[0] > top.data[9]);
  model.dispose();
});
