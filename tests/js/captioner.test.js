// The captioners (issue 22's test contract): the shapes task and its scenes, attn.createCaptioner,
// its gradients, training, evaluation, captions with every word's attention over the grid, files,
// errors by argument, training runs and memory.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { fieldsThat, loadAttention, trainModel } from 'attention-stepper';

import { argumentOf, finiteDifference, stateDict } from './model-helpers.js';

const attn = await loadAttention({ models: true });
const facts = attn.captionerFacts();
const tasks = attn.captionTasks();
// small enough to train and evaluate in a blink
const tiny = (options) =>
  attn.createCaptioner({
    task: 'shapes',
    channels: 4,
    annotation: 4,
    attention: 4,
    embedding: 4,
    hidden: 8,
    seed: 3,
    ...options,
  });
const scene = {
  objects: [
    { shape: 'circle', colour: 'red', size: 'big', row: 0, column: 0 },
    { shape: 'square', colour: 'blue', size: 'small', row: 1, column: 0 },
  ],
};

test('captionTasks: shapes in English and Chinese, the same scenes, each word with its gold cells', () => {
  assert.deepEqual(
    tasks.map(({ id, language }) => [id, language]),
    [
      ['shapes', 'en'],
      ['shapes', 'zh'],
    ],
  );
  assert.equal(attn.captionTasks(), tasks, 'made once');
  assert.ok(Object.isFrozen(tasks[0].examples[0].regions));
  const [en, zh] = tasks;
  assert.deepEqual(en.examples[0].scene, zh.examples[0].scene);
  for (const task of tasks) {
    assert.equal(task.imageSize, 32);
    assert.deepEqual(task.vocab.slice(0, 2), ['<sos>', '<eos>']);
    assert.equal(task.examples.length, 10000);
    assert.equal(task.test.length, 500);
    for (const { scene, caption, regions, possible, categories } of task.examples.slice(0, 50)) {
      const words = caption.split(' ');
      assert.ok(words.every((word) => task.vocab.includes(word)) && words.length <= task.maxCaptionLength);
      assert.ok(scene.objects.length >= 1 && scene.objects.length <= facts.maxObjects);
      // one entry per word and <eos>, the cells on the 8 x 8 grid
      for (const cells of [regions, possible]) {
        assert.equal(cells.length, words.length + 1);
        assert.ok(cells.flat().every((cell) => Number.isInteger(cell) && cell >= 0 && cell < 64));
      }
      assert.equal(categories.at(-1), 'end');
      words.forEach((word, i) => {
        if (['size', 'colour', 'shape'].includes(categories[i])) assert.ok(regions[i].length > 0, word);
      });
    }
  }
  assert.deepEqual(en.examples[0].caption.split(' ')[0], 'a');
});

test('renderScene: CHW in [0, 1] at the task size, the objects drawn where they stand', () => {
  const image = attn.renderScene(scene);
  assert.deepEqual([image.channels, image.height, image.width], [3, 32, 32]);
  assert.ok(image.data instanceof Float32Array && image.data.length === 3 * 32 * 32);
  assert.ok(image.data.every((x) => x >= 0 && x <= 1));
  const pixel = (y, x) => [0, 1, 2].map((c) => image.data[(c * 32 + y) * 32 + x]);
  const background = pixel(8, 24); // the empty top-right slot's centre
  assert.notDeepEqual(pixel(8, 8), background, 'the red circle');
  assert.notDeepEqual(pixel(24, 8), background, 'the blue square');
  assert.deepEqual(pixel(24, 24), background);
  const [red, , blue] = pixel(8, 8);
  assert.ok(red > blue);
});

test("parseScene: a scene's text as the engine reads the walkthrough's, back to the same text", () => {
  const text = 'big red circle 0 0; small blue square 1 0';
  assert.deepEqual(attn.parseScene(text), scene);
  assert.deepEqual(attn.parseScene('  small green triangle 1 1 ; ').objects, [
    { shape: 'triangle', colour: 'green', size: 'small', row: 1, column: 1 },
  ]);
  assert.deepEqual(attn.renderScene(attn.parseScene(text)), attn.renderScene(scene));
  const objects = tasks[0].examples.slice(0, 20).map((example) => example.scene.objects);
  for (const list of objects) {
    const written = list.map(({ size, colour, shape, row, column }) => `${size} ${colour} ${shape} ${row} ${column}`);
    assert.deepEqual(attn.parseScene(written.join('; ')).objects, list);
  }
});

test('readScene: the words as written and every fault, which parseScene says together', () => {
  const text = 'big red circle 0 0; small blue square 0 0; big purple triangle 5 1; big red';
  const written = attn.readScene(text);
  assert.deepEqual(written.objects, [
    ['big', 'red', 'circle', '0', '0'],
    ['small', 'blue', 'square', '0', '0'],
    ['big', 'purple', 'triangle', '5', '1'],
    ['big', 'red'],
  ]);
  assert.deepEqual(
    written.faults.map(({ message, ...fault }) => fault),
    [
      { kind: 'count' },
      { kind: 'slot', object: 1, other: 0 },
      { kind: 'name', object: 2, part: 'colour' },
      { kind: 'place', object: 2 },
      { kind: 'words', object: 3 },
    ],
  );
  assert.match(written.faults[2].message, /unknown colour; the colours are red, green, blue, yellow/);
  assert.throws(
    () => attn.parseScene(text),
    (error) => error.argument === 'scene' && written.faults.every((fault) => error.message.includes(fault.message)),
  );
  assert.deepEqual(attn.readScene('small green triangle 1 1'), {
    objects: [['small', 'green', 'triangle', '1', '1']],
    faults: [],
  });
  assert.throws(() => attn.readScene(['big']), { argument: 'scene' });
});

test('createCaptioner: its config, vocabulary and parameters under PyTorch names, in the language asked', () => {
  assert.equal(facts.defaults.language, 'en');
  assert.deepEqual(facts.shapes, ['circle', 'square', 'triangle']);
  assert.deepEqual(facts.grid, { rows: 8, cols: 8 });
  const model = tiny({ language: 'zh' });
  assert.equal(model.kind, 'captioner');
  assert.deepEqual(model.config, {
    task: 'shapes',
    language: 'zh',
    normalization: 'batch',
    channels: 4,
    annotation: 4,
    attention: 4,
    embedding: 4,
    hidden: 8,
    seed: 3,
    precision: 'float32',
  });
  assert.deepEqual(model.vocab, tasks[1].vocab);
  const parameters = model.parameters();
  assert.deepEqual(Object.keys(parameters).slice(0, 3), [
    'encoder.conv1.weight',
    'encoder.conv1.bias',
    'encoder.bn1.weight',
  ]);
  assert.deepEqual(parameters['encoder.conv1.weight'].shape, [4, 5, 3, 3]);
  assert.ok(parameters['decoder.fc.weight'].data instanceof Float32Array);
  model.dispose();
});

test('gradients: the loss and its gradients, as finite differences of the loss in float64; the regulariser adds its term', () => {
  const model = tiny({ precision: 'float64' });
  const examples = tasks[0].examples.slice(0, 3);
  const { loss, gradients } = model.gradients(examples, { regularization: 1 });
  assert.ok(Number.isFinite(loss) && loss > 0);
  for (const [name, index] of [
    ['encoder.conv1.weight', 7],
    ['decoder.attention.full_att.weight', 1],
    ['decoder.decode_step.weight_hh', 12],
  ]) {
    const numeric = finiteDifference(model, name, index, () => model.gradients(examples, { regularization: 1 }).loss);
    assert.ok(Math.abs(numeric - gradients[name].data[index]) < 1e-7, `${name}[${index}]: ${numeric}`);
  }
  const free = model.gradients(examples).loss; // λ = 0 by default
  assert.ok(free < loss, 'λ = 1 adds the doubly stochastic term');
  assert.equal(attn.captionerFacts().defaults.regularization, 0);
  model.dispose();
});

test('train: steps from the seed, the same run bit for bit; evaluate: exact match, tokens, regions, by category', () => {
  const [a, b] = [tiny(), tiny()];
  const first = a.train({ steps: 3, batch: 4, regularization: 0.5 });
  assert.deepEqual(first, b.train({ steps: 3, batch: 4, regularization: 0.5 }));
  assert.equal(first.step, 3);
  assert.deepEqual(a.parameters(), b.parameters());
  const evaluation = a.evaluate();
  assert.deepEqual(Object.keys(evaluation), ['exactMatch', 'tokenAccuracy', 'regionAccuracy', 'byCategory']);
  for (const value of [evaluation.exactMatch, evaluation.tokenAccuracy, evaluation.regionAccuracy])
    assert.ok(value >= 0 && value <= 1);
  assert.deepEqual(
    evaluation.byCategory.map(({ category }) => category),
    ['size', 'colour', 'shape', 'relation'],
  );
  for (const { count, aligned } of evaluation.byCategory) assert.ok(count > 0 && aligned >= 0 && aligned <= 1);
  a.dispose();
  b.dispose();
});

test('caption: a scene or its image, every step with its 8 x 8 weights, gate and likeliest words', () => {
  const model = tiny();
  model.train({ steps: 3, batch: 8 });
  const caption = model.caption(scene);
  assert.deepEqual(model.caption(attn.renderScene(scene)), caption);
  assert.deepEqual(
    caption.steps.map((step) => step.token).filter((token) => token !== '<eos>'),
    caption.words,
  );
  for (const step of caption.steps) {
    assert.deepEqual([step.weights.rows, step.weights.cols, step.weights.data.length], [8, 8, 64]);
    assert.ok(Math.abs(step.weights.data.reduce((s, x) => s + x, 0) - 1) < 1e-5);
    assert.equal(step.gate.length, 4);
    assert.ok(step.gate.every((g) => g > 0 && g < 1));
    assert.equal(step.top.length, 5);
    assert.equal(step.top[0].token, step.token);
  }
  assert.deepEqual([caption.annotations.rows, caption.annotations.cols], [64, 4]);
  assert.deepEqual(caption.image, attn.renderScene(scene));
  const beam = model.caption(scene, { beam: 3 });
  assert.ok(beam.beams.length >= 1 && beam.beams.length <= 3);
  model.dispose();
});

test('save and loadModel: the same captioner bit for bit, from its own file or a PyTorch state_dict', () => {
  for (const precision of ['float32', 'float64']) {
    const model = tiny({ precision, language: 'zh' });
    model.train({ steps: 2, batch: 4 });
    const bytes = model.save();
    assert.deepEqual(stateDict(bytes).metadata, {
      format: 'attention-stepper/captioner',
      task: 'shapes',
      language: 'zh',
      normalization: 'batch',
      channels: '4',
      annotation: '4',
      attention: '4',
      embedding: '4',
      hidden: '8',
      seed: '3',
      precision,
    });
    const loaded = attn.loadModel(bytes);
    assert.equal(loaded.kind, 'captioner');
    assert.deepEqual(loaded.config, model.config);
    assert.deepEqual(loaded.save(), bytes);
    assert.deepEqual(loaded.caption(scene), model.caption(scene));
    // PyTorch's state_dict of the reference model: the sizes from the shapes, the language from the
    // vocabulary's size
    const pytorch = attn.loadModel(stateDict(bytes, { format: 'pt' }).bytes);
    assert.deepEqual({ ...pytorch.config, seed: 3 }, model.config);
    assert.deepEqual(pytorch.parameters(), model.parameters());
    for (const broken of [bytes.slice(0, bytes.length - 1), bytes.slice(0, 20)])
      assert.equal(
        argumentOf(() => attn.loadModel(broken)),
        'bytes',
      );
    for (const m of [model, loaded, pytorch]) m.dispose();
  }
});

// The first layout's files (no batch norms, and no "normalization" in their metadata) stay
// loadable: the captioner the package shipped before the batch norms, as it was.
test('a captioner file of the first layout loads as normalization none, and saves byte for byte', () => {
  const bytes = new Uint8Array(
    readFileSync(new URL('../fixtures/captioner-first-layout.safetensors', import.meta.url)),
  );
  assert.equal(stateDict(bytes).metadata.normalization, undefined);
  const model = attn.loadModel(bytes);
  assert.equal(model.config.normalization, 'none');
  assert.ok(!Object.keys(model.parameters()).some((name) => name.includes('bn')));
  assert.deepEqual(model.save({ dtype: 'float16' }), bytes);
  assert.equal(model.caption(scene).words.join(' '), 'a big red circle above a small blue square');
  // a new model of that layout is what the first models were; the default has the batch norms
  const none = tiny({ normalization: 'none' });
  assert.deepEqual(Object.keys(none.parameters()), Object.keys(model.parameters()));
  assert.equal(stateDict(none.save()).metadata.normalization, undefined);
  const batch = tiny();
  assert.equal(batch.config.normalization, 'batch');
  assert.equal(Object.keys(batch.parameters()).length, Object.keys(model.parameters()).length + 10);
  assert.deepEqual(
    Object.keys(batch.parameters()).filter((name) => name.startsWith('encoder.')),
    ['conv1', 'bn1', 'conv2', 'bn2'].flatMap((module) =>
      (module.startsWith('conv')
        ? ['weight', 'bias']
        : ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
      ).map((name) => `encoder.${module}.${name}`),
    ),
  );
  assert.equal(
    argumentOf(() => tiny({ normalization: 'layer' })),
    'normalization',
  );
  for (const m of [model, none, batch]) m.dispose();
});

test('bad input names its argument; another kind of model, or a disposed one, is refused as model', () => {
  const model = tiny();
  const object = scene.objects[0];
  const image = attn.renderScene(scene);
  const cases = [
    ['scene', () => attn.renderScene({ objects: [] })],
    ['scene', () => attn.renderScene({ objects: [object, object, object, object] })],
    ['scene', () => attn.renderScene({ objects: [{ ...object, shape: 'star' }] })],
    ['scene', () => attn.renderScene({ objects: [{ ...object, colour: 'purple' }] })],
    ['scene', () => attn.renderScene({ objects: [{ ...object, row: 2 }] })],
    ['scene', () => attn.renderScene({ objects: [{ ...object, column: 0.5 }] })],
    ['scene', () => attn.renderScene([object])],
    ['scene', () => attn.parseScene(scene)],
    ['scene', () => attn.parseScene('')],
    ['scene', () => attn.parseScene('big red circle 0')],
    ['scene', () => attn.parseScene('big red circle 0 x')],
    ['scene', () => attn.parseScene('big purple circle 0 0')],
    ['scene', () => attn.parseScene('big red circle 0 0; small blue square 0 0')],
    ['scene', () => model.caption('a red circle')],
    ['image', () => model.caption({ ...image, height: 16 })],
    ['image', () => model.caption({ ...image, channels: 1, data: image.data.slice(0, 32 * 32) })],
    ['image', () => model.caption({ ...image, data: image.data.map((x, i) => (i === 5 ? NaN : x)) })],
    ['image', () => model.caption({ ...image, data: 'pixels' })],
    ['task', () => tiny({ task: 'mnist' })],
    ['task', () => attn.createCaptioner({ language: 'en' })],
    ['language', () => tiny({ language: 'fr' })],
    ['channels', () => tiny({ channels: 0 })],
    ['hidden', () => tiny({ hidden: 5000 })],
    ['seed', () => tiny({ seed: 2 ** 33 })],
    ['precision', () => tiny({ precision: 'bfloat16' })],
    ['split', () => model.evaluate({ split: 'validation' })],
    ['beam', () => model.caption(scene, { beam: facts.maxBeam + 1 })],
    ['steps', () => model.train({ steps: 0 })],
    ['regularization', () => model.train({ steps: 1, regularization: -1 })],
    ['guide', () => model.train({ steps: 1, guide: 1 })],
    ['examples', () => model.gradients([])],
    ['examples', () => model.gradients([[scene, 'a big red circle']])],
    ['caption', () => model.gradients([{ scene, caption: 'a big purple circle' }])],
    ['scene', () => model.gradients([{ scene: { objects: [] }, caption: 'a big red circle' }])],
  ];
  for (const [argument, call] of cases) assert.equal(argumentOf(call), argument, call.toString());
  assert.throws(() => attn.walkthrough('seq2seq', { model, sentence: ['the'] }), {
    argument: 'model',
    message: /captioner model, not a seq2seq model/,
  });
  model.dispose();
  for (const call of [() => model.train({ steps: 1 }), () => model.caption(scene), () => model.save()])
    assert.throws(call, { argument: 'model', message: 'this captioner model was disposed' });
});

test('trainModel: a captioner run reports the attention of its scene and stops at its target', async () => {
  assert.deepEqual(fieldsThat(attn.captionerFacts(), 'identity'), ['task', 'language', 'normalization']);
  const run = trainModel({
    kind: 'captioner',
    model: { task: 'shapes', language: 'zh', channels: 4, annotation: 4, attention: 4, embedding: 4, hidden: 8 },
    train: { batch: 4, regularization: 0 },
    probe: { scene },
    chunk: 2,
    evaluateEvery: 2,
    target: 0,
  });
  const reports = [];
  run.addEventListener('progress', ({ detail }) => reports.push(detail));
  const { step, bytes } = await run.finished;
  assert.equal(step, 2);
  const { probe, evaluation } = reports.at(-1);
  assert.equal(probe.cols, 64);
  assert.equal(probe.colLabels[9], '1,1');
  assert.equal(probe.rows, probe.rowLabels.length, 'a row per output token');
  // the scene's image, its channels' rows one after the other, for a page to draw the attention over
  assert.deepEqual([probe.image.rows, probe.image.cols], [96, 32]);
  assert.deepEqual([...probe.image.data], [...attn.renderScene(scene).data]);
  assert.ok('regionAccuracy' in evaluation);
  const model = attn.loadModel(bytes);
  assert.deepEqual([model.kind, model.config.language], ['captioner', 'zh']);
  model.dispose();
  // a captioner's probe is a scene
  const failing = trainModel({ kind: 'captioner', model: { task: 'shapes' }, probe: { sentence: 'a red circle' } });
  await assert.rejects(failing.finished, { argument: 'scene' });
});

test('100 create/train/dispose cycles leave the WebAssembly heap where it was', () => {
  const cycle = () => {
    const model = tiny();
    model.train({ steps: 1, batch: 4 });
    model.caption(scene);
    model.save();
    model.dispose();
  };
  for (let i = 0; i < 5; i++) cycle();
  const before = attn.memory();
  for (let i = 0; i < 100; i++) cycle();
  assert.deepEqual(attn.memory(), before);
});
