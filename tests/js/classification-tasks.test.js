// Classification tasks from the reader's own labelled sentences (issue 31): createClassificationTask
// reads text<TAB>label lines as createTranslationTask reads pairs, and a classifier learns,
// evaluates, classifies, explains, saves and loads on them; errors name their argument; a training
// run makes the task again where it trains.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadAttention, trainModel } from 'attention-stepper';

const attn = await loadAttention({ threads: 1, models: true });
const facts = attn.classifierFacts();

// An easy, separable toy set: a word of the label's own (an animal, a vehicle, a food) among words
// every label shares, with punctuation; n lines.
function toy(n) {
  const fillers = ['i', 'saw', 'a', 'the', 'today', 'really'];
  const words = [
    ['cat', 'dog', 'horse', 'cow'],
    ['car', 'bus', 'train', 'bike'],
    ['apple', 'bread', 'rice', 'soup'],
  ];
  const labels = ['animal', 'vehicle', 'food'];
  return Array.from(
    { length: n },
    (_, i) =>
      `${fillers[i % 6]} ${words[i % 3][Math.floor(i / 3) % 4]}, ${fillers[Math.floor(i / 7) % 6]}!\t${labels[i % 3]}`,
  ).join('\n');
}

// Articles 1 to 7 of the Universal Declaration of Human Rights in five of the UN's languages,
// labelled by language (tests/fixtures/udhr_languages.tsv).
const udhr = readFileSync(new URL('../fixtures/udhr_languages.tsv', import.meta.url), 'utf8');

test('createClassificationTask: labels, splits, stats, vocabulary and tokens of the reader’s sentences', () => {
  const text =
    '\uFEFFGreat food!\tpos\r\nAwful service.\t neg \r\n\r\nNot bad at all 😀\tpos\nHorrible, horrible.\tneg\n';
  const task = attn.createClassificationTask({ text, minCount: 1, validation: 0, test: 1, name: 'mine' });
  assert.match(task.id, /^mine-[0-9a-f]{8}$/);
  assert.equal(task.hash.length, 16);
  assert.deepEqual(task.labels, ['neg', 'pos']);
  assert.deepEqual(task.stats, {
    sentences: 4,
    dropped: {},
    train: 3,
    validation: 0,
    test: 1,
    vocabulary: task.vocabulary.length,
    unknownShare: task.stats.unknownShare,
  });
  assert.deepEqual(task.settings, { unit: 'word', lowercase: true, maxLength: 20 });
  assert.deepEqual(task.vocabulary.slice(0, 3), ['<sos>', '<eos>', '<unk>']);
  assert.equal(task.examples.length, 3);
  assert.deepEqual(task.validation, []);
  assert.equal(task.test.length, 1);
  assert.deepEqual([...task.examples, ...task.test].map((row) => row.join('|')).sort(), [
    'Awful service.|neg',
    'Great food!|pos',
    'Horrible, horrible.|neg',
    'Not bad at all 😀|pos',
  ]);
  assert.ok(Object.isFrozen(task) && Object.isFrozen(task.examples[0]));
  assert.deepEqual(task.tokenize('Not BAD 😀!'), ['not', 'bad', '😀', '!']);
  // the same text and options make the same task; the label in column 0 another
  const again = attn.createClassificationTask({ text, minCount: 1, validation: 0, test: 1, name: 'mine' });
  assert.equal(again.id, task.id);
  const swapped = attn.createClassificationTask({
    text: new TextEncoder().encode('a\tgood day\nb\tbad day\na\tgood night'),
    labelColumn: 0,
    validation: 0,
    test: 0,
  });
  assert.deepEqual(swapped.labels, ['a', 'b']);
  assert.match(swapped.id, /^sentences-/);
  for (const made of [task, again, swapped]) made.dispose();
  assert.throws(() => task.tokenize('a'), { argument: 'task', message: /was disposed/ });
  assert.equal(facts.text.maxLabels, 10);
  assert.equal(facts.text.defaults.labelColumn, 1);
});

test('createClassificationTask: bad text and options name their argument', () => {
  const cases = [
    [{}, 'text', /options.text must be/],
    [{ text: '' }, 'text', /text is empty: give one sentence a line, text<TAB>label/],
    [{ text: 'a\tx\nno label\nb\ty' }, 'text', /line 2 without column 1/],
    [{ text: 'a\tx\nb\ty', labelColumn: 2 }, 'labelColumn', /lines 1, 2 without column 2/],
    [{ text: 'a\tx\nb\tx' }, 'text', /text holds 1 label \("x"\)/],
    [{ text: Array.from({ length: 11 }, (_, i) => `w${i}\tl${i}`).join('\n') }, 'text', /text holds 11 labels/],
    [{ text: 'a\tx\nb\ty', validation: 1, test: 1 }, 'validation', /leaves none/],
    [{ text: 'a\tx\nb\ty', test: 0.5 }, 'test', /below 0.5/],
    [{ text: 'a\tx\nb\ty', test: 'some' }, 'test', /a share below 0.5 or a number of sentences/],
    [{ text: 'a\tx\nb\ty', maxLength: 101 }, 'maxLength', /maxLength \(101\) must be from 1 to 100/],
    [{ text: 'a\tx\nb\ty', maxVocabulary: 0 }, 'maxVocabulary', /maxVocabulary/],
    [{ text: 'a\tx\nb\ty', minCount: 0 }, 'minCount', /minCount/],
    [{ text: 'a\tx\nb\ty', name: 'my text' }, 'name', /name must be/],
    [{ text: 'a\tx\nb\ty', unit: 'letter' }, 'unit', /word or character/],
    [{ text: 'a\tx\nb\ty', lowercase: 'yes' }, 'lowercase', /true or false/],
    [{ text: 'a\tx\nb\ty', seed: -1 }, 'seed', /options.seed must be an integer/],
    [{ text: 5 }, 'text', /a string, a Uint8Array or an ArrayBuffer/],
    [
      { text: new Uint8Array([0x61, 0x09, 0x78, 0x0a, 0xff, 0x09, 0x79]) },
      'text',
      /line 2 holds bytes that are not UTF-8/,
    ],
    [{ text: 'a\tx', pairs: [] }, 'pairs', /options.pairs is not an option/],
  ];
  for (const [options, argument, message] of cases)
    assert.throws(() => attn.createClassificationTask(options), { argument, message }, JSON.stringify(options));
});

test('a classifier of a reader’s task learns it beyond the majority, without rationales, explains, and loads alone', () => {
  const task = attn.createClassificationTask({ text: toy(120), minCount: 1, validation: 12, test: 12, name: 'toy' });
  const model = attn.createModel({ kind: 'classifier', task, embedding: 16, hidden: 16 });
  assert.equal(model.config.task, task.id);
  assert.deepEqual(model.labels, task.labels);
  assert.deepEqual(model.task.vocab, task.vocabulary);
  assert.equal(model.task.rationales, false);
  const before = model.evaluate({ split: 'validation' });
  model.train({ steps: 80, batch: 16, learningRate: 0.02 });
  const after = model.evaluate({ split: 'validation' });
  assert.ok(after.accuracy > after.majority, `${after.accuracy} vs majority ${after.majority}`);
  assert.ok(after.accuracy >= 0.9 && after.accuracy > before.accuracy, `${before.accuracy} -> ${after.accuracy}`);
  assert.ok(!('rationaleShare' in after));
  assert.ok(!('negationContrastAccuracy' in after));
  assert.deepEqual(
    after.byCategory.map(({ category, count }) => [category, count]),
    [['plain', 12]],
  );
  assert.equal(after.confusion.length, 3);
  assert.equal(model.classify('I saw a horse today').label, 'animal');
  assert.deepEqual(model.classify('a cow 🐄').tokens, ['a', 'cow', '<unk>']);
  const explained = model.explain('the bus, really');
  assert.equal(explained.leaveOneOut.length, 4);
  assert.equal(typeof explained.permutation, 'number');
  // no rationales to pull the attention onto
  assert.throws(() => model.train({ steps: 1, rationale: 1 }), {
    argument: 'rationale',
    message: /marks no rationales/,
  });

  // the file keeps the vocabulary and labels: the model loads and classifies with the task gone
  const bytes = model.save();
  const loaded = attn.loadModel(bytes);
  assert.deepEqual(loaded.config, model.config);
  assert.deepEqual(loaded.evaluate({ split: 'test' }), model.evaluate({ split: 'test' }));
  loaded.dispose();
  task.dispose();
  const alone = attn.loadModel(bytes);
  assert.deepEqual(alone.labels, task.labels);
  assert.deepEqual(alone.classify('a cow!').probabilities, model.classify('a cow!').probabilities);
  assert.deepEqual(alone.save(), bytes);
  assert.throws(() => alone.evaluate(), { argument: 'split', message: /make the task from its text again/ });
  assert.throws(() => attn.createClassifier({ task: task.id }), { argument: 'task', message: /task from text/ });
  // the text again: its models evaluate on it
  const back = attn.createClassificationTask({ text: toy(120), minCount: 1, validation: 12, test: 12, name: 'toy' });
  assert.equal(back.id, task.id);
  const reloaded = attn.loadModel(bytes);
  assert.equal(reloaded.evaluate().accuracy, model.evaluate().accuracy);
  for (const made of [model, alone, reloaded, back]) made.dispose();
});

test('real sentences in five scripts (the UDHR): read, split and told apart by language', () => {
  // by character, the longest sentences are beyond maxLength's 100 and dropped
  const characters = attn.createClassificationTask({ text: udhr, unit: 'character', maxLength: 100, test: 5 });
  assert.equal(characters.stats.sentences + characters.stats.dropped.tooLong, 35);
  assert.deepEqual(characters.tokenize('Würde, 人人').slice(0, 6), ['w', 'ü', 'r', 'd', 'e', ',']);
  const task = attn.createClassificationTask({ text: udhr, minCount: 1, maxLength: 40, validation: 0, test: 5 });
  assert.deepEqual(task.labels, ['de', 'en', 'fr', 'ru', 'zh']);
  assert.equal(task.stats.sentences, 35);
  assert.deepEqual(task.tokenize('人人生而自由，在尊严'), ['人', '人', '生', '而', '自', '由', '，', '在', '尊', '严']);
  assert.deepEqual(task.tokenize('Würde, 👍🏽 Все!'), ['würde', ',', '👍🏽', 'все', '!']);
  const model = attn.createClassifier({ task, embedding: 16, hidden: 16 });
  model.train({ steps: 60, batch: 15, learningRate: 0.02 });
  assert.ok(model.evaluate({ split: 'train' }).accuracy >= 0.9);
  assert.equal(model.classify('人人有权享有受教育的权利。').label, 'zh');
  assert.equal(model.classify('Каждый человек имеет право на образование.').label, 'ru');
  for (const made of [model, task, characters]) made.dispose();
});

test('trainModel: a classifier run makes the reader’s task where it trains, shows held-out sentences and stops at its target', async () => {
  const run = trainModel({
    kind: 'classifier',
    model: { task: 'the reader sentences', embedding: 16, hidden: 16 },
    task: { text: toy(120), minCount: 1, validation: 12, test: 12, name: 'toy' },
    train: { batch: 16, learningRate: 0.02 },
    probe: { sentence: 'a red bus' },
    steps: 400,
    chunk: 20,
    evaluateEvery: 20,
    target: 0.99,
  });
  const progress = [];
  run.addEventListener('progress', ({ detail }) => progress.push(detail));
  const { bytes, reason, step } = await run.finished;
  assert.equal(reason, 'target');
  assert.ok(step < 400, `${step} steps`);
  const last = progress.at(-1);
  assert.equal(last.split, 'validation');
  assert.ok(last.evaluation.accuracy >= 0.99);
  assert.equal(last.samples.length, 3);
  for (const { source, output, reference } of last.samples) {
    assert.equal(typeof source, 'string');
    assert.ok(['animal', 'vehicle', 'food'].includes(output) && output === reference, `${source}: ${output}`);
  }
  assert.deepEqual(last.probe.colLabels, ['a', '<unk>', 'bus']);
  assert.ok(last.epoch > 0 && last.pairs === step * 16);
  const model = attn.loadModel(bytes);
  assert.match(model.config.task, /^toy-[0-9a-f]{8}$/);
  assert.deepEqual(model.labels, ['animal', 'food', 'vehicle']);
  model.dispose();
  // a kind without reader's tasks refuses one
  const refused = trainModel({
    kind: 'captioner',
    model: { task: 'shapes' },
    task: { text: toy(10) },
    probe: { scene: 'small red circle 1 1' },
  });
  await assert.rejects(refused.finished, { argument: 'task', message: /captioner models learn no reader's text/ });
});

test("classificationTaskSample: a grammar's sentences as text, read back as the same task's sentences", () => {
  for (const { id, language, examples, test: held } of attn.classificationTasks()) {
    const sample = attn.classificationTaskSample(id, language);
    assert.equal(sample.name, `${id}-${language}`);
    assert.equal(sample.unit, 'word');
    const lines = sample.text.split('\n');
    assert.deepEqual(
      lines,
      [...examples, ...held].map(([text, label]) => `${text}\t${label}`),
    );
    const task = attn.createClassificationTask(sample);
    assert.equal(task.stats.sentences, lines.length);
    task.dispose();
  }
  assert.throws(() => attn.classificationTaskSample('nope', 'en'), { argument: 'task' });
  assert.throws(() => attn.classificationTaskSample('reviews', 7), { argument: 'language' });
});

test('a classification task saved as bytes loads as the same task, and a run given the task trains on it', async () => {
  const task = attn.createClassificationTask({ text: toy(120), minCount: 1, validation: 12, test: 12, name: 'toy' });
  const loaded = attn.loadClassificationTask(task.save());
  for (const key of ['id', 'hash', 'labels', 'settings', 'stats', 'vocabulary', 'examples', 'validation', 'test'])
    assert.deepEqual(loaded[key], task[key], key);
  assert.deepEqual(loaded.tokenize('a red bus'), task.tokenize('a red bus'));
  loaded.dispose();
  assert.throws(() => attn.loadClassificationTask(new Uint8Array([1, 2, 3])), { argument: 'bytes' });
  const run = trainModel({
    kind: 'classifier',
    model: { embedding: 16, hidden: 16 },
    task,
    probe: { sentence: 'a red bus' },
    steps: 20,
    chunk: 20,
  });
  const { bytes } = await run.finished;
  assert.equal(attn.loadModel(bytes).config.task, task.id);
  assert.equal(task.test.length, 12);
  task.dispose();
});
