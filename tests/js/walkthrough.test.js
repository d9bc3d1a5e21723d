// The walkthrough traces the page draws from.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { loadTexts } from '../../web/locales/texts.js';
import { assertSeedNumbers, SEEDS } from '../seeds.js';
import { assertClose, assertMatrixClose, fixtures as f } from './helpers.js';
import { loadFixture } from './pretrained-fixtures.js';

const attn = await loadAttention({ models: true });
const stage = (trace, id) => trace.stages.find((s) => s.id === id);

// The seq2seq and scoring walkthroughs are models': small untrained ones will do for the structure.
const model = attn.createSeq2seq({ task: 'en-fr', scoring: 'general', embedding: 4, hidden: 8 });
const additive = attn.createSeq2seq({ task: 'en-fr', scoring: 'additive', embedding: 4, hidden: 8 });
const captioner = attn.createCaptioner({
  task: 'shapes',
  channels: 4,
  annotation: 4,
  attention: 4,
  embedding: 4,
  hidden: 8,
});
const transformer = attn.createTransformer({ task: 'en-fr', model: 8, feedforward: 16 });
const classifier = attn.createClassifier({ task: 'reviews', embedding: 8, hidden: 16, seed: 2 });
classifier.train({ steps: 30 });
const uniform = attn.createClassifier({ task: 'reviews', attention: 'uniform', embedding: 8, hidden: 16, seed: 2 });
// a pretrained checkpoint reads a text's ids, as its tokenizer makes them (the default sentence is
// longer than the tiny checkpoint's 32 positions)
const checkpoint = await loadFixture(attn, 'gpt2');
const sentence = 'the fox';
const needs = (name) =>
  ({
    pretrained: { model: checkpoint, ids: checkpoint.tokenize(sentence).ids },
    seq2seq: { model },
    scoring: { models: [additive, model] },
    captioning: { model: captioner },
    transformer: { model: transformer },
    sentiment: { model: classifier },
  })[name] ?? {};

test('nine walkthroughs, every stage well formed', () => {
  assert.deepEqual(attn.walkthroughNames, [
    'basics',
    'self-attention',
    'scoring',
    'seq2seq',
    'captioning',
    'transformer',
    'sentiment',
    'pretrained',
    'numerics',
  ]);
  for (const name of attn.walkthroughNames) {
    const trace = attn.walkthrough(name, needs(name));
    assert.equal(trace.walkthrough, name);
    assert.equal(new Set(trace.stages.map((s) => s.id)).size, trace.stages.length);
    for (const s of trace.stages) {
      // numbers and structure only: the words, formula and code are the specs'
      assert.deepEqual(Object.keys(s).sort(), s.step ? ['id', 'kind', 'panels', 'step'] : ['id', 'kind', 'panels']);
      assert.equal(s.id, s.step ? `${s.kind}-${s.step}` : s.kind);
      assert.equal(new Set(s.panels.map((p) => p.name)).size, s.panels.length, `${s.id}: panels found by name`);
      for (const p of s.panels) {
        assert.equal(p.data.length, p.rows * p.cols);
        assert.equal(p.rowLabels.length, p.rows);
        assert.equal(p.colLabels.length, p.cols);
      }
    }
  }
});

test("basics: the notebook's numbers, including 5.7661442e-340 as text", () => {
  const trace = attn.walkthrough('basics');
  const softmax = stage(trace, 'softmax').panels[0];
  const applied = stage(trace, 'applied').panels[0];
  assertSeedNumbers({
    score: stage(trace, 'single-score').panels[0].data[0],
    scores: stage(trace, 'scores').panels[0].data,
    weights: softmax.data,
    tiny: softmax.exact[2],
    appliedTiny: [0, 1, 2].map((i) => applied.exact[i * 4 + 2]),
    context: trace.output.data,
  });
  assert.deepEqual(softmax.exact, ['', '', SEEDS.tiny, '']);
});

test('basics recomputes from edited inputs', () => {
  const trace = attn.walkthrough('basics', { decoderState: [1, 0, 0] });
  assertClose(stage(trace, 'scores').panels[0].data, [3, 59, 1, 4]);
});

test("self-attention: seed 42's weight matrices and the output for word 1", () => {
  const trace = attn.walkthrough('self-attention');
  const [W_Q, W_K, W_V] = ['W_Q', 'W_K', 'W_V'].map((name) =>
    stage(trace, 'weight-matrices').panels.find((p) => p.name === name),
  );
  assert.deepEqual([W_Q.rows, W_Q.cols], [3, 3]);
  assertSeedNumbers({ W_Q: W_Q.data, W_K: W_K.data, W_V: W_V.data, word1: stage(trace, 'word-output').panels[1].data });
  assertMatrixClose(trace.output, f.self_attention.output);
  const reseeded = attn.walkthrough('self-attention', { seed: 1 });
  assert.notDeepEqual(
    stage(reseeded, 'weight-matrices').panels[0].data,
    stage(trace, 'weight-matrices').panels[0].data,
  );
});

test('scoring: one step of each model, as its own teacher-forced translation computes it', () => {
  const trace = attn.walkthrough('scoring', { models: [additive, model], step: 3 });
  assert.deepEqual(trace.labels.target, ['la', 'voiture', 'rouge', 'est', 'petite', '<eos>']);
  assert.deepEqual(
    stage(trace, 'compare-weights').panels.map((p) => p.name),
    ['additive', 'general', 'gold'],
  );
  // each model's softmax of its scores, the rows of the output
  for (const [k, weights] of stage(trace, 'compare-weights').panels.slice(0, 2).entries()) {
    const scores = stage(trace, 'compare-scores').panels[k].data;
    const top = Math.max(...scores);
    const total = scores.reduce((sum, score) => sum + Math.exp(score - top), 0);
    const softmax = Array.from(scores, (score) => Math.exp(score - top) / total);
    assertClose(weights.data, softmax, 1e-6); // the models compute in float32
    assert.deepEqual(Array.from(trace.output.data.slice(k * 6, k * 6 + 6)), Array.from(weights.data));
  }
  // rouge: red, and possibly the noun it agrees with
  assert.deepEqual(Array.from(stage(trace, 'compare-weights').panels[2].data), [0, 1, 0.5, 0, 0, 0]);
  assert.throws(() => attn.walkthrough('scoring', { models: [] }), { argument: 'models' });
  assert.throws(() => attn.walkthrough('scoring', {}), { argument: 'models' });
  assert.throws(() => attn.walkthrough('scoring', { models: [model, model] }), { argument: 'models' });
  assert.throws(() => attn.walkthrough('scoring', { models: [model], task: 'dates' }), { argument: 'task' });
  assert.throws(() => attn.walkthrough('scoring', { models: [model], step: 7 }), {
    argument: 'step',
    message: /step \(7\) must be between 1 and 6/,
  });
});

test("captioning: a scene's caption stage by stage, the model's own weights; the scene's errors", () => {
  const scene = 'big red circle 0 1; small blue square 1 0';
  const trace = attn.walkthrough('captioning', { model: captioner, scene: scene.split(' '), beam: 2 });
  const { words, steps, image } = captioner.caption(
    {
      objects: [
        { size: 'big', colour: 'red', shape: 'circle', row: 0, column: 1 },
        { size: 'small', colour: 'blue', shape: 'square', row: 1, column: 0 },
      ],
    },
    { beam: 2 },
  );
  assert.deepEqual(trace.labels.caption, words);
  assert.deepEqual(
    trace.stages.map((s) => s.kind),
    ['scene', 'encoder', ...steps.map(() => 'step'), 'caption'],
  );
  const picture = stage(trace, 'scene').panels[0];
  assert.deepEqual([picture.name, picture.palette, picture.rows, picture.cols], ['image', 'image', 96, 32]);
  assert.deepEqual([...picture.data], [...image.data]);
  steps.forEach((step, i) => {
    const shown = stage(trace, `step-${i + 1}`).panels;
    const weights = shown.find((p) => p.name === 'weights');
    assert.deepEqual([weights.rows, weights.cols], [8, 8]);
    assert.deepEqual([...weights.data], [...step.weights.data]);
    assert.deepEqual([...shown.find((p) => p.name === 'attention').data], [...step.weights.data]);
    assert.deepEqual(
      shown.find((p) => p.name === 'top').rowLabels,
      step.top.map((top) => top.token),
    );
  });
  const measures = stage(trace, 'caption').panels.find((p) => p.name === 'measures');
  const { exactMatch, regionAccuracy } = captioner.evaluate();
  assert.deepEqual([measures.data[0], measures.data[2]], [exactMatch, regionAccuracy]);
  for (const bad of [
    'big red circle 0',
    'big red star 0 0',
    'big red circle 2 0',
    'big red circle 0 0; small blue square 0 0',
  ])
    assert.throws(() => attn.walkthrough('captioning', { model: captioner, scene: bad.split(' ') }), {
      argument: 'scene',
    });
  assert.throws(() => attn.walkthrough('captioning', { model: captioner, language: 'zh' }), { argument: 'language' });
  assert.throws(() => attn.walkthrough('captioning', { model }), { argument: 'model' });
});

test("sentiment: a review stage by stage, the classifier's own numbers and checks; the uniform model beside it; errors", () => {
  const sentence = 'honestly the food was not good but the staff was lovely';
  const trace = attn.walkthrough('sentiment', { model: classifier, uniform, sentence: sentence.split(' ') });
  assert.deepEqual(
    trace.stages.map((s) => s.id),
    ['tokens', 'encoder', 'scores', 'weights', 'prediction', 'accuracy', 'permutation', 'attribution'],
  );
  assert.deepEqual(trace.models, [
    { encoder: 'bigru', attention: 'learned' },
    { encoder: 'bigru', attention: 'uniform' },
  ]);
  const { label, probabilities, weights, tokens } = classifier.classify(sentence);
  assert.deepEqual(trace.labels.tokens, tokens);
  assert.deepEqual(trace.labels.predicted, [label]);
  const panel = (id, name) => stage(trace, id).panels.find((p) => p.name === name);
  assert.deepEqual([...panel('weights', 'weights').data], [...weights]);
  assert.deepEqual([...panel('weights', 'highlight').data], [...weights]);
  assert.equal(panel('weights', 'highlight').palette, 'highlight');
  // the grammar's rationale: the second clause's adjective decides
  assert.deepEqual([...panel('weights', 'rationale').data], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(panel('weights', 'rationale').rowLabels, ['positive']);
  const shown = panel('prediction', 'probabilities');
  assert.deepEqual([shown.rows, shown.cols], [2, 2]);
  assert.deepEqual([shown.data[0], shown.data[2]], [probabilities[0], probabilities[1]]);
  assert.equal(shown.data[3], uniform.classify(sentence).probabilities[1]);
  const accuracy = panel('accuracy', 'accuracy');
  assert.deepEqual(accuracy.rowLabels, [{ attention: 'learned' }, { attention: 'uniform' }, { metric: 'majority' }]);
  assert.deepEqual(
    accuracy.colLabels.map((l) => l.metric ?? l.category),
    ['accuracy', 'plain', 'negation', 'contrast'],
  );
  const evaluated = classifier.evaluate();
  assert.deepEqual([accuracy.data[0], accuracy.data[8]], [evaluated.accuracy, evaluated.majority]);
  assert.equal(accuracy.data[4], uniform.evaluate().accuracy);
  const explained = classifier.explain(sentence);
  assert.deepEqual([...panel('attribution', 'leave_one_out').data], [...explained.leaveOneOut]);
  assert.deepEqual([...panel('attribution', 'gradients').data], [...explained.gradients]);
  assert.equal(panel('permutation', 'permutation').data[0], explained.permutation);
  assert.deepEqual(
    [...panel('attribution', 'tau').data.slice(0, 2)],
    [explained.tau.leaveOneOut, explained.tau.gradients],
  );
  // alone: the learned model's column and row only
  const alone = attn.walkthrough('sentiment', { model: classifier });
  assert.equal(alone.stages.find((s) => s.id === 'prediction').panels[1].cols, 1);
  for (const [inputs, argument] of [
    [{ model: classifier, sentence: ['the', 'food', 'was', 'purple'] }, 'sentence'],
    [{ model: classifier, sentence: ['good'] }, 'sentence'],
    [{ model: classifier, uniform: classifier }, 'uniform'],
    [{ model: classifier, encoder: 'none' }, 'encoder'],
    [{ model: classifier, language: 'zh' }, 'language'],
    [{ model: captioner }, 'model'],
    [{ model: classifier, uniform: 'x' }, 'uniform'],
  ])
    assert.throws(() => attn.walkthrough('sentiment', inputs), { argument }, JSON.stringify(argument));
});

test('the inputs each walkthrough takes, with their limits and defaults, as the engine publishes them', () => {
  for (const name of attn.walkthroughNames) {
    const fields = attn.walkthroughInputs(name);
    assert.ok(Object.isFrozen(fields) && Object.isFrozen(fields[0]), 'read-only');
    // the defaults are the notebook's: computing with all of them equals computing with none
    const defaults = Object.fromEntries(fields.filter((f) => !f.optional).map((f) => [f.name, f.default]));
    if (name === 'seq2seq') defaults.scoring = model.config.scoring; // the model's, not the default's
    assert.deepEqual(attn.walkthrough(name, { ...defaults, ...needs(name) }), attn.walkthrough(name, needs(name)));
    for (const field of fields.filter((f) => f.kind === 'integer')) {
      assert.ok(field.min <= field.default && field.default <= field.max, field.name);
      // the published limits are the ones the engine enforces, at both ends
      for (const value of [field.max + 1, field.min - 1])
        assert.throws(() => attn.walkthrough(name, { [field.name]: value, ...needs(name) }), { argument: field.name });
    }
  }
  // a seq2seq trace is its model's: the task and scoring, when given, must be the model's
  assert.throws(() => attn.walkthrough('seq2seq', { model, scoring: 'dot' }), { argument: 'scoring' });
  assert.throws(() => attn.walkthrough('seq2seq', { model, task: 'dates' }), { argument: 'task' });
  assert.throws(() => attn.walkthrough('seq2seq', { model, sentence: ['the', 'blu', 'car'] }), {
    argument: 'sentence',
    message: /"blu".*"blue"/,
  });
  const [decoderState] = attn.walkthroughInputs('basics');
  assert.deepEqual(decoderState, {
    name: 'decoderState',
    kind: 'vector',
    optional: false,
    default: SEEDS.decoderState,
  });
  assert.deepEqual(attn.walkthroughInputs('seq2seq').find((f) => f.name === 'scoring').choices, [
    'additive',
    'dot',
    'general',
    'concat',
  ]);
});

test('label lists the texts refer to', () => {
  assert.deepEqual(attn.walkthrough('self-attention').labels, { words: ['word_1', 'word_2', 'word_3', 'word_4'] });
  assert.deepEqual(attn.walkthrough('scoring', { models: [model], sentence: ['the', 'car', 'is', 'red'] }).labels, {
    source: ['the', 'car', 'is', 'red', '<eos>'],
    target: ['la', 'voiture', 'est', 'rouge', '<eos>'],
  });
  assert.deepEqual(attn.walkthrough('basics').labels, {});
});

test("the .wasm holds no stage titles, LaTeX or Python: those are the specs' and the locales'", async () => {
  const wasm = (await readFile(new URL(import.meta.resolve('attention-stepper/wasm')))).toString('latin1');
  const english = Object.fromEntries(
    await Promise.all(attn.walkthroughNames.map(async (name) => [name, (await loadTexts('en', name)).default])),
  );
  const titles = Object.values(english).flatMap((walkthrough) =>
    // a stage told in parts has a title per part that can come first
    Object.values(walkthrough.stages ?? {}).flatMap((stage) =>
      (stage.title ? [stage] : Object.values(stage).filter((part) => part.title)).map((part) =>
        part.title.replace(/\{\w+\}.*/, ''),
      ),
    ),
  );
  assert.ok(titles.length > 20);
  for (const text of [...titles, '\\mathbb', '\\frac', '\\operatorname', 'np.random', 'np.array', 'softmax(']) {
    assert.ok(!wasm.includes(text), `the .wasm contains ${JSON.stringify(text)}`);
  }
  assert.ok(wasm.includes('must equal'), 'the check itself reads the module (its error messages are there)');
});

test("transformer: the model's layer and head in detail, −inf in the causal mask, errors named", () => {
  const trace = attn.walkthrough('transformer', { model: transformer, layer: 2, head: 2, compare: [additive] });
  assert.deepEqual(trace.labels.source, ['the', 'red', 'car', 'is', 'small', '<eos>']);
  assert.equal(trace.labels.input[0], '<sos>');
  assert.equal(trace.labels.best.length, 2);
  const mask = stage(trace, 'decoder-self').panels.find((p) => p.name === 'mask');
  assert.equal(mask.data[1], -Infinity); // step 1 does not see step 2
  assert.equal(mask.data[mask.cols], 0);
  const view = stage(trace, 'model-view').panels.map((p) => p.name);
  assert.deepEqual(view.slice(0, 4), ['encoder-1-1', 'encoder-1-2', 'encoder-2-1', 'encoder-2-2']);
  const metrics = stage(trace, 'compare').panels.find((p) => p.name === 'metrics');
  assert.equal(metrics.rows, 2); // the best head, and the GRU model
  assert.throws(() => attn.walkthrough('transformer', { model: transformer, head: 3 }), { argument: 'head' });
  assert.throws(() => attn.walkthrough('transformer', { model: transformer, layer: 3 }), { argument: 'layer' });
  assert.throws(() => attn.walkthrough('transformer', { model: transformer, compare: [transformer] }), {
    argument: 'compare',
  });
  assert.throws(() => attn.walkthrough('transformer', { model }), { argument: 'model' });
});
