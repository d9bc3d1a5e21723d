// The translation tasks the encoder–decoder learns, as the engine generates them (issue 11's
// `attn.seq2seqTasks()`): vocabularies, seed-0 splits and gold alignments.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention({ models: true });
const tasks = attn.seq2seqTasks();
const byId = Object.fromEntries(tasks.map((task) => [task.id, task]));

test('three tasks, made once and shared read-only', () => {
  assert.deepEqual(
    tasks.map((task) => [task.id, task.unit]),
    [
      ['en-fr', 'word'],
      ['en-zh', 'word'],
      ['dates', 'character'],
    ],
  );
  assert.equal(attn.seq2seqTasks(), tasks);
  assert.ok(Object.isFrozen(tasks) && Object.isFrozen(tasks[0].examples[0][2]));
});

test('vocabularies start with <sos> and <eos>; splits of 2000 and 400 pairs, none in both', () => {
  for (const task of tasks) {
    for (const vocabulary of [task.source, task.target]) {
      assert.deepEqual(vocabulary.slice(0, 2), ['<sos>', '<eos>'], task.id);
      assert.equal(new Set(vocabulary).size, vocabulary.length, `${task.id}: no token twice`);
    }
    assert.equal(task.examples.length, 2000);
    assert.equal(task.test.length, 400);
    const training = new Set(task.examples.map(([source]) => source));
    assert.ok(
      task.test.every(([source]) => !training.has(source)),
      `${task.id}: a test sentence in training`,
    );
  }
});

test('every pair within its limits, every target token aligned inside its source', () => {
  const tokens = (task, text, side) =>
    task.unit === 'word' ? text.split(' ') : [...(side === 'source' ? text.replaceAll(' ', '▁') : text)];
  for (const task of tasks) {
    for (const [source, target, alignment] of [...task.examples, ...task.test]) {
      const [src, tgt] = [tokens(task, source, 'source'), tokens(task, target, 'target')];
      assert.ok(src.length <= task.maxSourceLength && tgt.length <= task.maxTargetLength, source);
      assert.ok(
        src.every((token) => task.source.includes(token)),
        source,
      );
      assert.ok(
        tgt.every((token) => task.target.includes(token)),
        target,
      );
      assert.equal(alignment.length, tgt.length + 1, `${source}: one entry per target token and <eos>`);
      // positions count the source's <eos> too, which the target's <eos> aligns to
      assert.ok(
        alignment.flat().every((position) => position <= src.length),
        source,
      );
      assert.deepEqual(alignment.at(-1), [src.length], `${source}: <eos> aligns to <eos>`);
    }
  }
});

test("the WebAssembly build draws the same splits as the native core (numpy's RandomState)", () => {
  // the first training pairs of seed 0, as the C++ tests and numpy's randint give them
  assert.deepEqual(byId.dates.examples[0].slice(0, 2), ['October 21, 1991', '1991-10-21']);
  assert.deepEqual(byId['en-fr'].examples[0], [
    'the big white car is wet and new',
    'la grande voiture blanche est mouillée et nouvelle',
    [[0], [1], [3], [2], [4], [5], [6], [7], [8]],
    // the article and the adjectives agree with the noun: their possible link
    [[3], [3], [], [3], [], [3], [], [3], []],
    ['article', 'adjective', 'noun', 'adjective', 'verb', 'adjective', 'conjunction', 'adjective', 'end'],
  ]);
  assert.deepEqual(byId['en-zh'].examples[0].slice(0, 2), [
    'you do not buy bread in the park tomorrow',
    '你 明天 不 在 公园 买 面包',
  ]);
});

test('the alignments leave the diagonal: French adjectives follow the noun, Chinese time and place lead', () => {
  const reordered = (task) =>
    task.examples.filter(([, , alignment]) =>
      alignment.some(
        (positions, i) => positions.length && i > 0 && positions[0] < Math.max(...alignment.slice(0, i).flat(), -1),
      ),
    ).length / task.examples.length;
  assert.ok(reordered(byId['en-fr']) > 0.5, `en-fr ${reordered(byId['en-fr'])}`);
  assert.ok(reordered(byId['en-zh']) > 0.9, `en-zh ${reordered(byId['en-zh'])}`);
});

// ---- attn.createSeq2seq: a model that learns a task --------------------------------------------

const small = (options) => attn.createSeq2seq({ task: 'en-fr', embedding: 8, hidden: 16, seed: 3, ...options });
const argumentOf = (f) => {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof Error, String(error));
    return error.argument;
  }
  return '(no error)';
};

test('createSeq2seq: the vocabularies, tokens and parameters under PyTorch names, in the precision asked', () => {
  const model = small();
  assert.deepEqual(model.vocab.source, byId['en-fr'].source);
  assert.deepEqual(model.vocab.target, byId['en-fr'].target);
  assert.equal(model.vocab.unit, 'word');
  const dates = attn.createSeq2seq({ task: 'dates', embedding: 4, hidden: 8 });
  assert.equal(dates.vocab.unit, 'character');
  dates.dispose();
  assert.deepEqual(model.config, {
    task: 'en-fr',
    scoring: 'additive',
    encoder: 'bidirectional',
    layers: 1,
    guide: 0,
    embedding: 8,
    hidden: 16,
    seed: 3,
    validation: 0,
    precision: 'float32',
  });
  const source = model.tokenize('the car is red');
  assert.deepEqual(
    source.map((id) => model.vocab.source[id]),
    ['the', 'car', 'is', 'red', '<eos>'],
  );
  assert.deepEqual(
    model.tokenize('la voiture est rouge', 'target').map((id) => model.vocab.target[id]),
    ['la', 'voiture', 'est', 'rouge', '<eos>'],
  );
  const parameters = model.parameters();
  assert.deepEqual(Object.keys(parameters).slice(0, 3), [
    'encoder.embedding.weight',
    'encoder.gru.weight_ih_l0',
    'encoder.gru.weight_hh_l0',
  ]);
  assert.deepEqual(parameters['encoder.embedding.weight'].shape, [model.vocab.source.length, 8]);
  assert.deepEqual(parameters['decoder.attention.va.weight'].shape, [1, 16]);
  assert.deepEqual(parameters['decoder.out.weight'].shape, [model.vocab.target.length, 16]);
  for (const { shape, data } of Object.values(parameters)) {
    assert.ok(data instanceof Float32Array);
    assert.equal(
      data.length,
      shape.reduce((a, b) => a * b, 1),
    );
  }
  model.dispose();
  const precise = small({ precision: 'float64', scoring: 'dot' });
  const names = Object.keys(precise.parameters());
  assert.ok(names.every((name) => !name.startsWith('decoder.attention.')));
  assert.ok(precise.parameters()['decoder.combine.weight'].data instanceof Float64Array);
  precise.dispose();
});

test("createSeq2seq's defaults are the engine's: additive, bidirectional, one layer, embedding 32, hidden 64, seed 0, float32", () => {
  const model = attn.createSeq2seq({ task: 'dates' });
  assert.deepEqual(model.config, {
    task: 'dates',
    scoring: 'additive',
    encoder: 'bidirectional',
    layers: 1,
    guide: 0,
    embedding: 32,
    hidden: 64,
    seed: 0,
    validation: 0,
    precision: 'float32',
  });
  assert.equal(model.train({ steps: 1 }).step, 1); // batch 32, learning rate 0.005
  model.dispose();
  const facts = attn.seq2seqFacts();
  assert.deepEqual(facts.encoders, ['forward', 'bidirectional']);
  assert.equal(facts.maxLayers, 2);
  assert.equal(facts.maxValidation, 1000);
  assert.deepEqual(facts.defaults.encoder, {
    additive: 'bidirectional',
    dot: 'forward',
    general: 'forward',
    concat: 'forward',
  });
  assert.equal(facts.defaults.layers, 1);
  assert.equal(facts.defaults.guide, 0);
  const luong = attn.createSeq2seq({ task: 'dates', scoring: 'dot', embedding: 4, hidden: 8 });
  assert.equal(luong.config.encoder, 'forward');
  luong.dispose();
});

test('encoders and layers: PyTorch names and shapes, and a file that says what it is', () => {
  const model = small({ encoder: 'bidirectional', layers: 2, scoring: 'general' });
  assert.deepEqual(model.config.encoder, 'bidirectional');
  const parameters = model.parameters();
  const shapes = Object.fromEntries(Object.entries(parameters).map(([name, { shape }]) => [name, shape]));
  assert.deepEqual(shapes['encoder.gru.weight_ih_l0_reverse'], [24, 8]);
  assert.deepEqual(shapes['encoder.gru.weight_ih_l1'], [24, 16]); // both directions' states in
  assert.deepEqual(shapes['encoder.bridge.weight'], [16, 8]);
  assert.deepEqual(shapes['decoder.gru.weight_hh_l1'], [48, 16]);
  const names = Object.keys(parameters);
  assert.ok(names.indexOf('encoder.gru.bias_hh_l1_reverse') < names.indexOf('encoder.bridge.weight'));
  model.train({ steps: 2, batch: 8 });
  const loaded = attn.loadModel(model.save());
  assert.deepEqual(loaded.config, model.config);
  assert.deepEqual(loaded.translate('the car is red'), model.translate('the car is red'));
  for (const m of [model, loaded]) m.dispose();
});

test('guided alignment: its gradient equals central differences, and training with it aligns', () => {
  const pairs = [
    ['the car is red', 'la voiture est rouge'],
    ['the houses are small', 'les maisons sont petites'],
  ];
  for (const options of [{}, { scoring: 'dot', layers: 2 }]) {
    const model = small({ precision: 'float64', ...options });
    const free = model.gradients(pairs).loss;
    const { loss, gradients } = model.gradients(pairs, { guide: 0.5 });
    assert.ok(loss > free, `${loss} > ${free}`);
    const parameters = model.parameters();
    for (const [name, index] of [
      ['encoder.gru.weight_hh_l0', 17],
      ['decoder.embedding.weight', 40],
    ]) {
      const lossAt = (delta) => {
        const data = parameters[name].data.slice();
        data[index] += delta;
        model.setParameters({ ...parameters, [name]: { shape: parameters[name].shape, data } });
        return model.gradients(pairs, { guide: 0.5 }).loss;
      };
      const h = 1e-5;
      const numeric = (lossAt(h) - lossAt(-h)) / (2 * h);
      const analytic = gradients[name].data[index];
      assert.ok(Math.abs(numeric - analytic) <= 1e-6 * (1 + Math.abs(analytic)), `${name}: ${numeric} vs ${analytic}`);
    }
    model.dispose();
  }
  const [free, guided] = [small(), small()];
  free.train({ steps: 60, batch: 16, learningRate: 0.01 });
  guided.train({ steps: 60, batch: 16, learningRate: 0.01, guide: 1 });
  const measured = (model) => model.evaluate({ split: 'test' });
  assert.ok(measured(guided).aer < measured(free).aer, `${measured(guided).aer} < ${measured(free).aer}`);
  // a model says the largest guide its training used, and so does its file
  assert.equal(free.config.guide, 0);
  assert.equal(guided.config.guide, 1);
  guided.train({ steps: 1, guide: 0.5 });
  assert.equal(guided.config.guide, 1);
  const loaded = attn.loadModel(guided.save());
  assert.equal(loaded.config.guide, 1);
  for (const model of [free, guided, loaded]) model.dispose();
});

test('setParameters round-trips, and refuses wrong names and shapes without changing anything', () => {
  const model = small();
  const parameters = model.parameters();
  const changed = Object.fromEntries(
    Object.entries(parameters).map(([name, { shape, data }]) => [name, { shape, data: data.map((v) => v / 2) }]),
  );
  model.setParameters(changed);
  assert.deepEqual(model.parameters(), changed);
  const { 'decoder.out.bias': dropped, ...missing } = changed;
  assert.ok(dropped);
  assert.equal(
    argumentOf(() => model.setParameters(missing)),
    'parameters',
  );
  assert.equal(
    argumentOf(() => model.setParameters({ ...changed, 'decoder.extra': dropped })),
    'parameters',
  );
  assert.equal(
    argumentOf(() => model.setParameters({ ...changed, 'decoder.out.bias': { shape: [3], data: [1, 2, 3] } })),
    'parameters',
  );
  assert.equal(
    argumentOf(() => model.setParameters({ ...changed, 'decoder.out.bias': { shape: dropped.shape } })),
    'parameters',
  );
  assert.equal(
    argumentOf(() => model.setParameters(null)),
    'parameters',
  );
  assert.deepEqual(model.parameters(), changed);
  model.dispose();
});

test('gradients equal central differences of the loss (float64)', () => {
  const model = small({ precision: 'float64' });
  const pairs = [
    ['the car is red', 'la voiture est rouge'],
    ['the houses are small', 'les maisons sont petites'],
  ];
  const { loss, gradients } = model.gradients(pairs);
  assert.ok(loss > 0);
  const parameters = model.parameters();
  for (const [name, index] of [
    ['decoder.attention.Wa.weight', 5],
    ['encoder.gru.weight_hh_l0', 17],
    ['decoder.out.bias', 3],
  ]) {
    const lossAt = (delta) => {
      const data = parameters[name].data.slice();
      data[index] += delta;
      model.setParameters({ ...parameters, [name]: { shape: parameters[name].shape, data } });
      return model.gradients(pairs).loss;
    };
    const h = 1e-5;
    const numeric = (lossAt(h) - lossAt(-h)) / (2 * h);
    const analytic = gradients[name].data[index];
    assert.ok(Math.abs(numeric - analytic) <= 1e-6 * (1 + Math.abs(analytic)), `${name}: ${numeric} vs ${analytic}`);
  }
  model.setParameters(parameters);
  assert.equal(model.gradients(pairs).loss, loss);
  model.dispose();
});

test('train: the same seed gives the same losses and parameters bit for bit, and the loss falls', () => {
  const [a, b] = [small(), small()];
  const losses = (model) => Array.from({ length: 4 }, () => model.train({ steps: 5, batch: 16 }).loss);
  const first = losses(a);
  assert.deepEqual(losses(b), first);
  assert.deepEqual(a.parameters(), b.parameters());
  assert.equal(a.train({ steps: 1, batch: 16 }).step, 21);
  const other = small({ seed: 4 });
  assert.notDeepEqual(losses(other), first);
  const start = a.train({ steps: 1 }).loss;
  const end = a.train({ steps: 80, learningRate: 0.01 }).loss;
  assert.ok(end < start * 0.6, `${start} -> ${end}`);
  for (const model of [a, b, other]) model.dispose();
});

test('translate: tokens, an alignment row per step summing to 1, each step with its numbers', () => {
  for (const scoring of ['additive', 'general']) {
    const model = small({ scoring, task: 'dates' });
    model.train({ steps: 10, batch: 16 });
    const translation = model.translate('Nov 23, 2026');
    assert.deepEqual(translation.source, [...'Nov▁23,▁2026', '<eos>']);
    const { alignment, steps } = translation;
    assert.equal(alignment.rows, steps.length);
    assert.equal(alignment.cols, translation.source.length);
    const produced = steps.map((step) => step.token);
    assert.deepEqual(
      produced.filter((token) => token !== '<eos>'),
      translation.target,
    );
    steps.forEach((step, t) => {
      const sum = step.weights.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${t} sums to ${sum}`);
      assert.deepEqual(step.weights, alignment.data.slice(t * alignment.cols, (t + 1) * alignment.cols));
      assert.equal(step.state.length, 16);
      assert.equal(step.context.length, 16);
      assert.equal(step.scores.length, alignment.cols);
      assert.equal(step.attentional === null, scoring === 'additive');
      assert.equal(step.top.length, 5);
      assert.equal(step.top[0].token, step.token);
      assert.ok(step.top.every((entry, i) => i === 0 || entry.probability <= step.top[i - 1].probability));
    });
    assert.equal(translation.encoder.embeddings.rows, translation.source.length);
    assert.equal(translation.encoder.states.cols, 16);
    const { categories, bleu, loss, ...evaluation } = model.evaluate({ split: 'test' });
    for (const value of Object.values(evaluation)) assert.ok(value >= 0 && value <= 1, JSON.stringify(evaluation));
    assert.ok(bleu >= 0 && bleu <= 100 && loss > 0, `BLEU ${bleu}, loss ${loss}`);
    assert.deepEqual(Object.keys(evaluation), [
      'exactMatch',
      'tokenAccuracy',
      'alignmentAccuracy',
      'aer',
      'alignedShare',
    ]);
    // dates' digits by category; its hyphens link to nothing and are left out
    assert.deepEqual(
      categories.map(({ category }) => category),
      ['year', 'month', 'day'],
    );
    for (const { count, aligned, instead } of categories) {
      assert.ok(count > 0 && aligned >= 0 && aligned <= 1);
      // where the unaligned words look: a source token, and a share that fits beside the aligned one
      if (aligned === 1) assert.equal(instead, null);
      else assert.ok(model.vocab.source.includes(instead.token) && instead.share > 0 && aligned + instead.share <= 1);
    }
    model.dispose();
  }
});

test('translate with a beam: the hypotheses best first, the steps those of the best', () => {
  const model = small({ task: 'dates' });
  model.train({ steps: 10, batch: 16 });
  const greedy = model.translate('Nov 23, 2026');
  assert.equal(greedy.beams.length, 1);
  assert.deepEqual(greedy.beams[0].target, greedy.target);
  const chosen = greedy.steps.reduce((sum, step) => sum + Math.log(step.top[0].probability), 0);
  assert.ok(Math.abs(greedy.beams[0].logProbability - chosen) < 1e-4, `${greedy.beams[0].logProbability} ${chosen}`);
  const searched = model.translate('Nov 23, 2026', { beam: 3 });
  assert.ok(searched.beams.length >= 1 && searched.beams.length <= 3);
  assert.deepEqual(searched.beams[0].target, searched.target);
  assert.equal(searched.alignment.rows, searched.steps.length);
  searched.beams.forEach((beam, i) => {
    assert.ok(beam.logProbability <= 0);
    if (i) assert.ok(beam.logProbability <= searched.beams[i - 1].logProbability);
  });
  model.dispose();
});

test('save and loadModel: the same parameters, configuration and translation, bit for bit', () => {
  for (const precision of ['float32', 'float64']) {
    const model = small({ precision, task: 'en-zh', scoring: 'concat' });
    model.train({ steps: 3, batch: 8 });
    const bytes = model.save();
    assert.ok(bytes instanceof Uint8Array);
    const header = JSON.parse(
      new TextDecoder().decode(bytes.subarray(8, 8 + Number(new DataView(bytes.buffer).getBigUint64(0, true)))),
    );
    assert.deepEqual(header.__metadata__, {
      format: 'attention-stepper/seq2seq',
      task: 'en-zh',
      scoring: 'concat',
      encoder: 'forward',
      layers: '1',
      embedding: '8',
      hidden: '16',
      seed: '3',
      validation: '0',
      precision,
    });
    assert.equal(header['decoder.out.weight'].dtype, precision === 'float32' ? 'F32' : 'F64');
    const loaded = attn.loadModel(bytes);
    assert.deepEqual(loaded.config, model.config);
    assert.deepEqual(loaded.parameters(), model.parameters());
    const sentence = 'I eat rice at home today';
    assert.deepEqual(loaded.translate(sentence), model.translate(sentence));
    assert.deepEqual(loaded.save(), bytes);
    for (const broken of [bytes.slice(0, bytes.length - 1), bytes.slice(0, 20), new Uint8Array(0)])
      assert.equal(
        argumentOf(() => attn.loadModel(broken)),
        'bytes',
      );
    const corrupt = bytes.slice();
    corrupt.set(new TextEncoder().encode('"hidden":"32"'), new TextDecoder().decode(bytes).indexOf('"hidden":"16"'));
    assert.equal(
      argumentOf(() => attn.loadModel(corrupt)),
      'bytes',
    );
    assert.equal(
      argumentOf(() => attn.loadModel([1, 2, 3])),
      'bytes',
    );
    model.dispose();
    loaded.dispose();
  }
});

test('a validation split: the training pairs held out, kept by a saved model', () => {
  const model = small({ validation: 20 });
  assert.equal(model.config.validation, 20);
  const { exactMatch, aer } = model.evaluate({ split: 'validation' });
  assert.ok(exactMatch >= 0 && exactMatch <= 1 && aer >= 0 && aer <= 1);
  const loaded = attn.loadModel(model.save());
  assert.equal(loaded.config.validation, 20);
  assert.deepEqual(loaded.evaluate({ split: 'validation' }), model.evaluate({ split: 'validation' }));
  model.dispose();
  loaded.dispose();
});

test('bad input names its argument; a disposed model says so', () => {
  const model = small();
  const cases = {
    task: () => attn.createSeq2seq({ task: 'en-de' }),
    scoring: () => small({ scoring: 'cosine' }),
    encoder: () => small({ encoder: 'sideways' }),
    layers: () => small({ layers: 3 }),
    hidden: () => small({ hidden: 15 }), // odd, for a bidirectional encoder
    guide: () => model.train({ steps: 1, guide: -1 }),
    embedding: () => small({ embedding: 1.5 }),
    seed: () => small({ seed: -1 }),
    validation: () => small({ validation: attn.seq2seqFacts().maxValidation + 1 }),
    precision: () => small({ precision: 'float16' }),
    sentence: () => model.translate('the car is blu'),
    steps: () => model.train({ steps: 0 }),
    batch: () => model.train({ steps: 1, batch: 5000 }),
    learningRate: () => model.train({ steps: 1, learningRate: -1 }),
    split: () => model.evaluate({ split: 'dev' }),
    beam: () => model.translate('the car is red', { beam: 17 }),
    pairs: () => model.gradients([]),
    lambda: () => model.gradients([['the car is red', 'la voiture est rouge']], { guide: 1, lambda: 2 }),
    side: () => model.tokenize('the car', 'middle'),
  };
  for (const [argument, call] of Object.entries(cases)) assert.equal(argumentOf(call), argument, argument);
  assert.equal(
    argumentOf(() => model.evaluate({ split: 'validation' })),
    'split',
  );
  for (const guide of [Number.NaN, Infinity, '1', null])
    assert.equal(
      argumentOf(() => model.gradients([['the car is red', 'la voiture est rouge']], { guide })),
      'guide',
    );
  assert.equal(
    argumentOf(() => small({ layers: 1.5 })),
    'layers',
  );
  for (const sentence of ['', '   ', Array(200).fill('the').join(' ')])
    assert.equal(
      argumentOf(() => model.translate(sentence)),
      'sentence',
    );
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
    argumentOf(() => attn.createSeq2seq()),
    'task',
  );
  model.dispose();
  model.dispose(); // twice is harmless
  for (const call of [() => model.train({ steps: 1 }), () => model.parameters(), () => model.translate('the car')])
    assert.equal(argumentOf(call), 'model');
});

test('a training run whose loss stops being finite stops with an Error and keeps the last finite parameters', () => {
  const model = small();
  const parameters = model.parameters();
  const huge = parameters['decoder.out.weight'];
  model.setParameters({ ...parameters, 'decoder.out.weight': { shape: huge.shape, data: huge.data.map(() => 3e38) } });
  const before = model.parameters();
  assert.equal(
    argumentOf(() => model.train({ steps: 2, batch: 4 })),
    'learningRate',
  );
  assert.deepEqual(model.parameters(), before);
  model.dispose();
  const wild = small();
  let message = '';
  try {
    wild.train({ steps: 30, batch: 4, learningRate: 1e30 });
  } catch (error) {
    assert.equal(error.argument, 'learningRate');
    message = error.message;
  }
  const kept = Number(/the parameters are those of step (\d+)/.exec(message)?.[1]);
  assert.ok(kept >= 1 && kept < 30, message);
  assert.ok(Object.values(wild.parameters()).every(({ data }) => data.every(Number.isFinite)));
  // those of the last step that went well: a fresh model trained that far has them bit for bit
  const again = small();
  again.train({ steps: kept, batch: 4, learningRate: 1e30 });
  assert.deepEqual(again.parameters(), wild.parameters());
  for (const model of [wild, again]) model.dispose();
});

test('100 create/train/dispose cycles leave the WebAssembly heap where it was', () => {
  const cycle = () => {
    const model = small();
    model.train({ steps: 1, batch: 4 });
    model.translate('the car is red');
    model.save();
    model.dispose();
  };
  for (let i = 0; i < 5; i++) cycle();
  const before = attn.memory();
  for (let i = 0; i < 100; i++) cycle();
  assert.deepEqual(attn.memory(), before);
});
