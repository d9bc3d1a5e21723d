// The Transformer models (issue 23's test contract): attn.createTransformer on the translation
// tasks, its gradients, training, evaluation per head, translation with every layer's attention,
// files, errors by argument, training runs and memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention, MODEL_KINDS, trainModel } from 'attention-stepper';

import { argumentOf, finiteDifference, stateDict } from './model-helpers.js';

const attn = await loadAttention({ models: true });
const facts = attn.transformerFacts();
// small enough to train and evaluate in a blink
const tiny = (options) =>
  attn.createTransformer({ task: 'en-fr', model: 8, heads: 2, feedforward: 8, encoderLayers: 1, seed: 3, ...options });
const sentence = 'the car is red';

test('createTransformer: its config, vocabularies, tokens and parameters under PyTorch names', () => {
  assert.deepEqual(facts.defaults, {
    task: 'en-fr',
    model: 32,
    heads: 2,
    encoderLayers: 2,
    decoderLayers: 2,
    feedforward: 64,
    seed: 0,
    precision: 'float32',
    batch: 32,
    learningRate: 0.002,
    guide: 0,
  });
  const model = tiny();
  assert.equal(model.kind, 'transformer');
  assert.deepEqual(model.config, {
    task: 'en-fr',
    model: 8,
    heads: 2,
    encoderLayers: 1,
    decoderLayers: 2,
    feedforward: 8,
    seed: 3,
    precision: 'float32',
  });
  assert.deepEqual(model.guidedHead, { layer: 1, head: 0 });
  const task = attn.seq2seqTasks().find(({ id }) => id === 'en-fr');
  assert.deepEqual(model.vocab, { source: task.source, target: task.target, unit: 'word' });
  assert.deepEqual(
    model.tokenize(sentence).map((id) => model.vocab.source[id]),
    ['the', 'car', 'is', 'red', '<eos>'],
  );
  const parameters = model.parameters();
  assert.ok(parameters['src_tok_emb.embedding.weight'].data instanceof Float32Array);
  assert.deepEqual(parameters['transformer.encoder.layers.0.self_attn.in_proj_weight'].shape, [24, 8]);
  assert.deepEqual(parameters['generator.weight'].shape, [task.target.length, 8]);
  assert.ok(!('transformer.encoder.layers.1.norm1.weight' in parameters), 'one encoder layer');
  // setParameters takes them back, and a changed one changes the translation's numbers
  const changed = { ...parameters, 'generator.bias': { ...parameters['generator.bias'] } };
  changed['generator.bias'].data = parameters['generator.bias'].data.map((x, i) => x + i);
  model.setParameters(changed);
  assert.deepEqual(model.parameters()['generator.bias'], changed['generator.bias']);
  model.dispose();
});

test('gradients: the loss and its gradients, as finite differences of the loss in float64; guide adds its term', () => {
  const model = tiny({ precision: 'float64' });
  const pairs = [
    [sentence, 'la voiture est rouge'],
    ['the small car is wet', 'la petite voiture est mouillée'],
  ];
  const { loss, gradients } = model.gradients(pairs);
  assert.ok(Number.isFinite(loss) && loss > 0);
  for (const [name, index] of [
    ['transformer.decoder.layers.1.multihead_attn.in_proj_weight', 5],
    ['transformer.encoder.layers.0.linear1.bias', 2],
    ['tgt_tok_emb.embedding.weight', 8 * 3 + 1],
  ]) {
    const numeric = finiteDifference(model, name, index, () => model.gradients(pairs).loss);
    assert.ok(Math.abs(numeric - gradients[name].data[index]) < 1e-7, `${name}[${index}]: ${numeric}`);
  }
  const guided = model.gradients(pairs, { guide: 1 });
  assert.ok(guided.loss > loss, 'the guided head pays for attention off the gold links');
  model.dispose();
});

test('train: steps from the seed, the same run bit for bit; evaluate: every cross-attention head', () => {
  const [a, b] = [tiny(), tiny()];
  const first = a.train({ steps: 3, batch: 4, learningRate: 0.01, guide: 0.5 });
  assert.deepEqual(first, b.train({ steps: 3, batch: 4, learningRate: 0.01, guide: 0.5 }));
  assert.equal(first.step, 3);
  assert.deepEqual(a.parameters(), b.parameters());
  assert.equal(a.train({ steps: 1 }).step, 4);
  const evaluation = b.evaluate();
  assert.deepEqual(Object.keys(evaluation), ['exactMatch', 'tokenAccuracy', 'bleu', 'loss', 'aer', 'heads']);
  assert.deepEqual(
    evaluation.heads.map(({ layer, head }) => [layer, head]),
    [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ],
  );
  assert.equal(evaluation.aer, Math.min(...evaluation.heads.map((head) => head.aer)));
  for (const value of [evaluation.exactMatch, evaluation.tokenAccuracy, evaluation.aer])
    assert.ok(value >= 0 && value <= 1);
  assert.deepEqual(Object.keys(b.evaluate({ split: 'train' })), Object.keys(evaluation));
  a.dispose();
  b.dispose();
});

test("translate: every layer's attention per head, the decoder's causal, the likeliest tokens per step", () => {
  const model = tiny();
  model.train({ steps: 5, batch: 8, learningRate: 0.01 });
  const translation = model.translate(sentence);
  const n = translation.source.length;
  const m = translation.steps.length;
  assert.deepEqual(translation.source, ['the', 'car', 'is', 'red', '<eos>']);
  assert.deepEqual(
    translation.steps.map((step) => step.token).filter((token) => token !== '<eos>'),
    translation.target,
  );
  const rowsSumToOne = (heads, rows, cols) => {
    assert.equal(heads.length, 2);
    for (const head of heads) {
      assert.equal(head.length, rows);
      for (const row of head) {
        assert.ok(row instanceof Float32Array && row.length === cols);
        assert.ok(Math.abs(row.reduce((s, x) => s + x, 0) - 1) < 1e-5);
      }
    }
  };
  assert.equal(translation.encoder.length, 1);
  rowsSumToOne(translation.encoder[0].attention, n, n);
  assert.equal(translation.decoder.length, 2);
  for (const layer of translation.decoder) {
    rowsSumToOne(layer.selfAttention, m, m);
    rowsSumToOne(layer.crossAttention, m, n);
    for (const head of layer.selfAttention) head.forEach((row, q) => assert.ok(row.slice(q + 1).every((x) => x === 0)));
  }
  for (const { top } of translation.steps) {
    assert.equal(top.length, 5);
    assert.ok(top.every((entry, i) => i === 0 || entry.probability <= top[i - 1].probability));
  }
  assert.deepEqual(translation.beams[0].target, translation.target);
  const beam = model.translate(sentence, { beam: 3 });
  assert.ok(beam.beams.length >= 1 && beam.beams.length <= 3);
  assert.ok(beam.beams[0].logProbability >= translation.beams[0].logProbability - 1e-6);
  model.dispose();
});

test('save and loadModel: the same model bit for bit, from its own file or a PyTorch state_dict', () => {
  for (const precision of ['float32', 'float64']) {
    const model = tiny({ precision, task: 'en-zh' });
    model.train({ steps: 2, batch: 4 });
    const bytes = model.save();
    const { metadata } = stateDict(bytes);
    assert.deepEqual(metadata, {
      format: 'attention-stepper/transformer',
      task: 'en-zh',
      model: '8',
      heads: '2',
      encoderLayers: '1',
      decoderLayers: '2',
      feedforward: '8',
      seed: '3',
      precision,
    });
    const loaded = attn.loadModel(bytes);
    assert.equal(loaded.kind, 'transformer');
    assert.deepEqual(loaded.config, model.config);
    assert.deepEqual(loaded.save(), bytes);
    const zh = 'I eat rice at home today';
    assert.deepEqual(loaded.translate(zh), model.translate(zh));
    // the same tensors as PyTorch's state_dict saves them: the sizes from the shapes, the task from
    // the vocabularies, the heads from a "heads" entry
    const pytorch = attn.loadModel(stateDict(bytes, { format: 'pt', heads: '2' }).bytes);
    assert.equal(pytorch.kind, 'transformer');
    assert.deepEqual({ ...pytorch.config, seed: 3 }, model.config);
    assert.deepEqual(pytorch.parameters(), model.parameters());
    const half = attn.loadModel(model.save({ dtype: 'float16' }));
    assert.equal(half.config.precision, precision);
    for (const broken of [
      bytes.slice(0, bytes.length - 1),
      bytes.slice(0, 20),
      stateDict(bytes, { format: 'gpt' }).bytes,
    ])
      assert.equal(
        argumentOf(() => attn.loadModel(broken)),
        'bytes',
      );
    for (const m of [model, loaded, pytorch, half]) m.dispose();
  }
});

test('bad input names its argument; another kind of model, or a disposed one, is refused as model', () => {
  const model = tiny();
  const cases = {
    task: () => attn.createTransformer({ task: 'en-de' }),
    heads: () => tiny({ heads: 3 }), // 8 is not divisible by 3
    model: () => tiny({ model: facts.maxWidth + 2 }),
    encoderLayers: () => tiny({ encoderLayers: facts.maxLayers + 1 }),
    decoderLayers: () => tiny({ decoderLayers: 1.5 }),
    feedforward: () => tiny({ feedforward: 0 }),
    seed: () => tiny({ seed: -1 }),
    precision: () => tiny({ precision: 'float16' }),
    dropout: () => tiny({ dropout: 0.1 }),
    sentence: () => model.translate('the car is blu'),
    beam: () => model.translate(sentence, { beam: facts.maxBeam + 1 }),
    steps: () => model.train({ steps: 0 }),
    batch: () => model.train({ steps: 1, batch: 5000 }),
    learningRate: () => model.train({ steps: 1, learningRate: -1 }),
    guide: () => model.train({ steps: 1, guide: -1 }),
    regularization: () => model.train({ steps: 1, regularization: 1 }),
    split: () => model.evaluate({ split: 'validation' }),
    pairs: () => model.gradients([]),
    side: () => model.tokenize('the car', 'middle'),
    parameters: () => model.setParameters({ 'generator.bias': { shape: [1], data: [0] } }),
    dtype: () => model.save({ dtype: 'bfloat16' }),
  };
  for (const [argument, call] of Object.entries(cases)) assert.equal(argumentOf(call), argument, argument);
  assert.match(
    (() => {
      try {
        model.translate('the car is blu');
      } catch (error) {
        return error.message;
      }
    })(),
    /"blu".*"blue"/,
  );
  assert.equal(
    argumentOf(() => attn.createTransformer()),
    'task',
  );
  // the seq2seq walkthrough takes seq2seq models only
  assert.throws(() => attn.walkthrough('seq2seq', { model, sentence: ['the', 'car'] }), {
    argument: 'model',
    message: /transformer model, not a seq2seq model/,
  });
  model.dispose();
  model.dispose(); // twice is harmless
  for (const call of [() => model.train({ steps: 1 }), () => model.parameters(), () => model.translate(sentence)])
    assert.throws(call, { argument: 'model', message: 'this transformer model was disposed' });
});

test('trainModel: a Transformer run reports the guided head over its sentence and stops at its target', async () => {
  assert.equal(MODEL_KINDS.transformer.create, 'createTransformer');
  const run = trainModel({
    kind: 'transformer',
    model: { task: 'en-fr', model: 8, feedforward: 8, encoderLayers: 1, decoderLayers: 1 },
    train: { batch: 8, guide: 1 },
    probe: { sentence },
    chunk: 2,
    evaluateEvery: 2,
    target: 0,
  });
  const reports = [];
  run.addEventListener('progress', ({ detail }) => reports.push(detail));
  const { step, bytes } = await run.finished;
  assert.equal(step, 2, 'the first evaluation meets a target of 0');
  assert.deepEqual(
    reports.map((report) => report.step),
    [0, 2],
  );
  const { probe, evaluation } = reports.at(-1);
  assert.deepEqual(probe.colLabels, ['the', 'car', 'is', 'red', '<eos>']);
  assert.equal(probe.rows, probe.rowLabels.length, 'a row per output token');
  assert.equal(probe.rows * probe.cols, probe.data.length);
  assert.equal(evaluation.heads.length, 2);
  const model = attn.loadModel(bytes);
  assert.equal(model.kind, 'transformer');
  model.dispose();
  const failing = trainModel({ kind: 'transformer', model: { task: 'en-fr', heads: 5 }, probe: { sentence } });
  await assert.rejects(failing.finished, { argument: 'heads' });
});

test('100 create/train/dispose cycles leave the WebAssembly heap where it was', () => {
  const cycle = () => {
    const model = tiny();
    model.train({ steps: 1, batch: 4 });
    model.translate(sentence);
    model.save();
    model.dispose();
  };
  for (let i = 0; i < 5; i++) cycle();
  const before = attn.memory();
  for (let i = 0; i < 100; i++) cycle();
  assert.deepEqual(attn.memory(), before);
});
