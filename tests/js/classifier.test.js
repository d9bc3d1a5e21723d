// The sentence classifiers (issue 31's API): the reviews task with its rationales,
// attn.createClassifier, its gradients, training to the task's accuracy, evaluation, the weights
// over a sentence and the checks of them as an explanation, files, errors by argument, training
// runs and memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fieldsThat, loadAttention, trainModel } from 'attention-stepper';

import { argumentOf, finiteDifference, stateDict } from './model-helpers.js';

const attn = await loadAttention({ models: true });
const facts = attn.classifierFacts();
const tasks = attn.classificationTasks();
// small enough to train and evaluate in a blink
const tiny = (options) => attn.createClassifier({ task: 'reviews', embedding: 8, hidden: 8, seed: 3, ...options });
const sum = (values) => values.reduce((s, x) => s + x, 0);

test('classificationTasks: reviews in English and Chinese, each word with its rationale mark', () => {
  assert.deepEqual(
    tasks.map(({ id, language }) => [id, language]),
    [
      ['reviews', 'en'],
      ['reviews', 'zh'],
    ],
  );
  assert.equal(attn.classificationTasks(), tasks, 'made once');
  assert.ok(Object.isFrozen(tasks[0].examples[0][2]));
  for (const task of tasks) {
    assert.deepEqual(task.labels, ['negative', 'positive']);
    assert.deepEqual(task.vocab.slice(0, 2), ['<sos>', '<eos>']);
    assert.deepEqual([task.examples.length, task.test.length], [2000, 400]);
    for (const [text, label, rationale] of [...task.examples, ...task.test]) {
      const words = text.split(' ');
      assert.ok(words.length <= task.maxLength && words.every((word) => task.vocab.includes(word)), text);
      assert.ok(task.labels.includes(label));
      assert.equal(rationale.length, words.length);
      assert.ok(rationale.every((mark) => mark === 0 || mark === 1) && rationale.includes(1), text);
    }
  }
  // "not" decides with its adjective
  const negated = tasks[0].examples.find(([text]) => /^the \w+ was not (good|bad)$/.test(text));
  assert.deepEqual(negated[2], [0, 0, 0, 1, 1]);
});

test('createModel({ kind: "classifier" }) and createClassifier agree; parameters under PyTorch names', () => {
  const made = attn.createModel({ kind: 'classifier', task: 'reviews', embedding: 8, hidden: 8, seed: 3 });
  const alias = tiny();
  assert.deepEqual(made.config, alias.config);
  assert.deepEqual(made.parameters(), alias.parameters());
  assert.deepEqual(made.config, {
    task: 'reviews',
    language: 'en',
    encoder: 'bigru',
    attention: 'learned',
    embedding: 8,
    hidden: 8,
    seed: 3,
    precision: 'float32',
  });
  assert.deepEqual(made.labels, ['negative', 'positive']);
  assert.deepEqual(made.task.vocab, tasks[0].vocab);
  assert.deepEqual([made.task.id, made.task.language, made.task.rationales], ['reviews', 'en', true]);
  const parameters = made.parameters();
  const V = tasks[0].vocab.length;
  assert.deepEqual(
    Object.entries(parameters).map(([name, { shape }]) => [name, shape]),
    [
      ['embedding.weight', [V, 8]],
      ['encoder.weight_ih_l0', [12, 8]],
      ['encoder.weight_hh_l0', [12, 4]],
      ['encoder.bias_ih_l0', [12]],
      ['encoder.bias_hh_l0', [12]],
      ['encoder.weight_ih_l0_reverse', [12, 8]],
      ['encoder.weight_hh_l0_reverse', [12, 4]],
      ['encoder.bias_ih_l0_reverse', [12]],
      ['encoder.bias_hh_l0_reverse', [12]],
      ['attention.W.weight', [8, 8]],
      ['attention.W.bias', [8]],
      ['attention.v.weight', [1, 8]],
      ['classifier.weight', [2, 8]],
      ['classifier.bias', [2]],
    ],
  );
  // no encoder and uniform attention: the embeddings pooled by 1/n, no encoder.* or attention.*
  const bag = tiny({ encoder: 'none', attention: 'uniform' });
  assert.deepEqual(Object.keys(bag.parameters()), ['embedding.weight', 'classifier.weight', 'classifier.bias']);
  assert.deepEqual(facts.defaults.rationale, 0);
  assert.equal(attn.modelFacts('classifier').lossWeight, 'rationale');
  for (const model of [made, alias, bag]) model.dispose();
});

test('train: the defaults reach 95% on the reviews test split and on its negation and contrast reviews', () => {
  assert.deepEqual([facts.defaults.embedding, facts.defaults.hidden, facts.defaults.batch], [32, 64, 32]);
  const model = attn.createClassifier({ task: 'reviews' });
  model.train({ steps: 100 });
  const evaluation = model.evaluate();
  assert.deepEqual(Object.keys(evaluation), [
    'accuracy',
    'rationaleShare',
    'majority',
    'confusion',
    'byCategory',
    'negationContrastAccuracy',
  ]);
  assert.ok(evaluation.accuracy >= 0.95, `${evaluation.accuracy}`);
  assert.ok(evaluation.negationContrastAccuracy >= 0.95, `${evaluation.negationContrastAccuracy}`);
  assert.ok(evaluation.majority > 0.4 && evaluation.majority < 0.6, 'about half the reviews are positive');
  assert.ok(evaluation.rationaleShare > 0 && evaluation.rationaleShare < 1);
  // the confusion matrix and the categories add up to the split and to the accuracy
  const cells = evaluation.confusion.flat();
  assert.equal(sum(cells), 400);
  assert.equal((evaluation.confusion[0][0] + evaluation.confusion[1][1]) / 400, evaluation.accuracy);
  assert.deepEqual(
    evaluation.byCategory.map(({ category }) => category),
    ['plain', 'negation', 'contrast'],
  );
  assert.equal(sum(evaluation.byCategory.map(({ count }) => count)), 400);
  assert.equal(sum(evaluation.byCategory.map(({ correct }) => correct)) / 400, evaluation.accuracy);
  const train = model.evaluate({ split: 'train' });
  assert.equal(sum(train.confusion.flat()), 2000);
  model.dispose();
});

test('train: the same seed trains the same parameters bit for bit; another seed others', () => {
  const [a, b, c] = [tiny(), tiny(), tiny({ seed: 4 })];
  const first = a.train({ steps: 3, batch: 8, rationale: 0.5 });
  assert.deepEqual(first, b.train({ steps: 3, batch: 8, rationale: 0.5 }));
  assert.equal(first.step, 3);
  assert.deepEqual(a.parameters(), b.parameters());
  c.train({ steps: 3, batch: 8, rationale: 0.5 });
  assert.notDeepEqual(a.parameters(), c.parameters());
  for (const model of [a, b, c]) model.dispose();
});

test('gradients: the loss and its gradients, as finite differences in float64; a rationale adds its term', () => {
  const model = tiny({ precision: 'float64' });
  const examples = tasks[0].examples.slice(0, 3);
  const { loss, gradients } = model.gradients(examples, { rationale: 1 });
  assert.ok(Number.isFinite(loss) && loss > 0);
  assert.ok(gradients['attention.W.weight'].data instanceof Float64Array);
  for (const [name, index] of [
    ['embedding.weight', 20],
    ['encoder.weight_hh_l0_reverse', 5],
    ['attention.v.weight', 2],
    ['classifier.bias', 1],
  ]) {
    const numeric = finiteDifference(model, name, index, () => model.gradients(examples, { rationale: 1 }).loss);
    assert.ok(Math.abs(numeric - gradients[name].data[index]) < 1e-7, `${name}[${index}]: ${numeric}`);
  }
  // λ = 0 (the default), or sentences without their rationale: the cross-entropy alone
  const plain = model.gradients(examples).loss;
  assert.ok(plain < loss);
  assert.equal(
    model.gradients(
      examples.map(([text, label]) => [text, label]),
      { rationale: 1 },
    ).loss,
    plain,
  );
  model.dispose();
});

test('tokenize, classify: the ids and words as the model reads them, the weights over them summing to 1', () => {
  const model = tiny();
  model.train({ steps: 5 });
  const sentence = 'honestly the food was not good';
  const ids = model.tokenize(sentence);
  assert.deepEqual(
    ids.map((id) => model.task.vocab[id]),
    sentence.split(' '),
  );
  assert.deepEqual(model.tokenize('  The FOOD was not good!'), model.tokenize('the food was not good'));
  const result = model.classify(sentence);
  assert.deepEqual(Object.keys(result), ['label', 'probabilities', 'weights', 'tokens', 'states', 'scores']);
  assert.deepEqual(result.tokens, sentence.split(' '));
  assert.ok(result.probabilities instanceof Float32Array && result.probabilities.length === 2);
  assert.ok(Math.abs(sum(result.probabilities) - 1) < 1e-6);
  assert.equal(result.label, model.labels[result.probabilities[1] > result.probabilities[0] ? 1 : 0]);
  assert.equal(result.weights.length, 6);
  assert.ok(Math.abs(sum(result.weights) - 1) < 1e-6);
  assert.ok(result.weights.every((w) => w > 0));
  assert.deepEqual([result.states.rows, result.states.cols, result.scores.length], [6, 8, 6]);
  // uniform attention: every word weighs 1/n, its scores 0
  const uniformModel = tiny({ attention: 'uniform' });
  const uniform = uniformModel.classify(sentence);
  assert.ok(uniform.weights.every((w) => Math.abs(w - 1 / 6) < 1e-7));
  assert.ok(uniform.scores.every((e) => e === 0));
  // no encoder: the states are the embeddings
  const bag = tiny({ encoder: 'none' });
  const embeddings = bag.parameters()['embedding.weight'].data;
  const first = ids[0] * 8;
  assert.deepEqual(bag.classify(sentence).states.data.slice(0, 8), embeddings.slice(first, first + 8));
  for (const m of [model, uniformModel, bag]) m.dispose();
});

test("explain: leave-one-out, gradients, the permutations' median and τ; uniform attention's τ is null", () => {
  const model = tiny({ precision: 'float64' });
  model.train({ steps: 10 });
  const sentence = 'the food was not good but the staff was great';
  const n = sentence.split(' ').length;
  const explanation = model.explain(sentence);
  assert.deepEqual(Object.keys(explanation), ['leaveOneOut', 'gradients', 'permutation', 'tau']);
  assert.ok(explanation.leaveOneOut instanceof Float64Array && explanation.leaveOneOut.length === n);
  assert.ok(explanation.gradients.length === n && explanation.gradients.every((g) => g >= 0));
  assert.ok(explanation.permutation >= 0 && explanation.permutation <= 1);
  for (const tau of Object.values(explanation.tau)) assert.ok(tau >= -1 && tau <= 1, `${tau}`);
  assert.deepEqual(model.explain(sentence), explanation, 'the same shuffles each time');
  // leave-one-out is the predicted label's probability with and without each word
  const { label, probabilities } = model.classify(sentence);
  const words = sentence.split(' ');
  const p = probabilities[model.labels.indexOf(label)];
  words.forEach((_, j) => {
    const without = model.classify(words.filter((__, k) => k !== j).join(' ')).probabilities;
    assert.ok(Math.abs(explanation.leaveOneOut[j] - (p - without[model.labels.indexOf(label)])) < 1e-12);
  });
  // α = 1/n ranks no word above another: τ is undefined, null; shuffling 1/n changes nothing
  const uniform = tiny({ attention: 'uniform', precision: 'float64' });
  const flat = uniform.explain(sentence);
  assert.deepEqual(flat.tau, { leaveOneOut: null, gradients: null });
  assert.ok(flat.permutation < 1e-12);
  for (const m of [model, uniform]) m.dispose();
});

test('save and loadModel: the same classifier bit for bit, from its own file or a PyTorch state_dict', () => {
  for (const precision of ['float32', 'float64']) {
    const model = tiny({ precision, language: 'zh' });
    model.train({ steps: 2 });
    const bytes = model.save();
    assert.deepEqual(stateDict(bytes).metadata, {
      format: 'attention-stepper/classifier',
      task: 'reviews',
      language: 'zh',
      encoder: 'bigru',
      attention: 'learned',
      embedding: '8',
      hidden: '8',
      seed: '3',
      precision,
    });
    const loaded = attn.loadModel(bytes);
    assert.equal(loaded.kind, 'classifier');
    assert.deepEqual(loaded.config, model.config);
    assert.deepEqual(loaded.save(), bytes);
    const sentence = tasks[1].test[0][0];
    assert.deepEqual(loaded.classify(sentence), model.classify(sentence));
    // PyTorch's state_dict of the reference model: the sizes from the shapes, the language from
    // the vocabulary's size
    const pytorch = attn.loadModel(stateDict(bytes, { format: 'pt' }).bytes);
    assert.deepEqual({ ...pytorch.config, seed: 3 }, model.config);
    assert.deepEqual(pytorch.parameters(), model.parameters());
    for (const m of [model, loaded, pytorch]) m.dispose();
  }
});

test('bad input names its argument; another kind of model, or a disposed one, is refused as model', () => {
  const model = tiny();
  const bytes = model.save();
  const cases = [
    ['sentence', () => model.classify('')],
    ['sentence', () => model.classify('   ')],
    ['sentence', () => model.classify('the food was goood')],
    ['sentence', () => model.classify(['the', 'food'])],
    ['sentence', () => model.classify(Array(facts.maxLength + 2).join('good '))],
    ['sentence', () => model.explain('good')],
    ['sentence', () => model.tokenize(42)],
    ['task', () => tiny({ task: 'imdb' })],
    ['task', () => attn.createClassifier({ language: 'en' })],
    ['language', () => tiny({ language: 'fr' })],
    ['encoder', () => tiny({ encoder: 'lstm' })],
    ['attention', () => tiny({ attention: 'dot' })],
    ['embedding', () => tiny({ embedding: 0 })],
    ['hidden', () => tiny({ hidden: 7 })],
    ['hidden', () => tiny({ hidden: 100000 })],
    ['seed', () => tiny({ seed: 2 ** 33 })],
    ['precision', () => tiny({ precision: 'bfloat16' })],
    ['split', () => model.evaluate({ split: 'validation' })],
    ['steps', () => model.train({ steps: 0 })],
    ['batch', () => model.train({ steps: 1, batch: 0 })],
    ['rationale', () => model.train({ steps: 1, rationale: -1 })],
    ['guide', () => model.train({ steps: 1, guide: 1 })],
    ['examples', () => model.gradients([])],
    ['examples', () => model.gradients('the food was good')],
    ['examples', () => model.gradients([{ text: 'the food was good', label: 'positive' }])],
    ['label', () => model.gradients([['the food was good', 'neutral']])],
    ['label', () => model.gradients([['the food was good', 1]])],
    ['rationale', () => model.gradients([['the food was good', 'positive', [0, 1]]])],
    ['rationale', () => model.gradients([['the food was good', 'positive', [0, 0, 0, 2]]])],
    ['rationale', () => model.gradients([['the food was good', 'positive']], { rationale: -1 })],
    ['sentence', () => model.gradients([['the food was goood', 'positive']])],
    ['bytes', () => attn.loadModel(bytes.slice(0, bytes.length - 1))],
    ['bytes', () => attn.loadModel(bytes.slice(0, 20))],
  ];
  for (const [argument, call] of cases) assert.equal(argumentOf(call), argument, call.toString());
  assert.throws(() => attn.walkthrough('seq2seq', { model, sentence: ['the'] }), {
    argument: 'model',
    message: /classifier model, not a seq2seq model/,
  });
  model.dispose();
  for (const call of [() => model.train({ steps: 1 }), () => model.classify('the food was good'), () => model.save()])
    assert.throws(call, { argument: 'model', message: 'this classifier model was disposed' });
});

test('trainModel: a classifier run reports the attention over its sentence and ends with bytes that load', async () => {
  assert.deepEqual(fieldsThat(facts, 'identity'), ['task', 'language', 'encoder', 'attention']);
  const run = trainModel({
    kind: 'classifier',
    model: { task: 'reviews', language: 'zh', embedding: 8, hidden: 8 },
    train: { batch: 8, rationale: 0 },
    probe: { sentence: '菜 不 好' },
    steps: 4,
    chunk: 2,
    evaluateEvery: 2,
  });
  const reports = [];
  run.addEventListener('progress', ({ detail }) => reports.push(detail));
  const { step, bytes } = await run.finished;
  assert.equal(step, 4);
  const { probe, evaluation } = reports.at(-1);
  assert.deepEqual([probe.rows, probe.cols], [1, 3]);
  assert.deepEqual(probe.colLabels, ['菜', '不', '好']);
  assert.ok(['negative', 'positive'].includes(probe.rowLabels[0]));
  assert.ok(Math.abs(sum(probe.data) - 1) < 1e-6);
  assert.ok('negationContrastAccuracy' in evaluation);
  const model = attn.loadModel(bytes);
  assert.deepEqual([model.kind, model.config.language], ['classifier', 'zh']);
  model.dispose();
  // its target is of the accuracy: a run stops once it is reached
  const reaching = trainModel({
    kind: 'classifier',
    model: { task: 'reviews' },
    probe: { sentence: 'the food was good' },
    chunk: 25,
    evaluateEvery: 25,
    target: 0.9,
  });
  const reached = await reaching.finished;
  assert.equal(reached.reason, 'target');
  assert.ok(reached.step < 1000, `${reached.step} steps`);
  // a classifier's probe is a sentence
  const failing = trainModel({ kind: 'classifier', model: { task: 'reviews' }, probe: { scene: { objects: [] } } });
  await assert.rejects(failing.finished, { argument: 'sentence' });
});

test('100 create/train/dispose cycles leave the WebAssembly heap where it was', () => {
  const cycle = () => {
    const model = tiny();
    model.train({ steps: 1, batch: 4 });
    model.classify('the food was good');
    model.explain('the food was good');
    model.save();
    model.dispose();
  };
  for (let i = 0; i < 5; i++) cycle();
  const before = attn.memory();
  for (let i = 0; i < 100; i++) cycle();
  assert.deepEqual(attn.memory(), before);
});
