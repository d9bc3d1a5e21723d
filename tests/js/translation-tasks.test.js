// Translation tasks from the reader's text: createTranslationTask reads pairs as the PyTorch
// tutorial's eng-fra.txt holds them, the translation kinds train on the task value, evaluate() says
// BLEU, and a saved model loads and translates alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention, trainModel } from 'attention-stepper';

import { runOptions, runTraining } from '../../web/engine/training.js';

import { translator } from '../../web/components/i18n.js';
import { describeStage } from '../../web/walkthroughs/index.js';
import { loadAllWalkthroughs } from './all-walkthroughs.js';

await loadAllWalkthroughs(); // chunks of their own, as the page loads them

const attn = await loadAttention({ threads: 1, models: true });

// Lines as eng-fra.txt has them: English, French, Tatoeba's attribution.
const tatoeba = [
  ['Go.', 'Va !'],
  ['Run!', 'Cours !'],
  ['Wait!', 'Attends !'],
  ['I see.', 'Je comprends.'],
  ['I won!', "J'ai gagné !"],
  ['Go on.', 'Poursuis.'],
];
const line = ([en, fr], i) => `${en}\t${fr}\tCC-BY 2.0 (France) Attribution: tatoeba.org #${2877272 + i} (CM)`;

// n different pairs of frequent words: "a3 b1 c0" -> "x3 y1 z0 ."
function toyPairs(n) {
  return Array.from({ length: n }, (_, i) => [`a${i % 7} b${i % 5} c${i % 3}`, `x${i % 7} y${i % 5} z${i % 3} .`]);
}

test('a task of Tatoeba lines: the tokens a model reads, its splits, vocabularies and identity', () => {
  const text = '\uFEFF' + tatoeba.map(line).join('\r\n') + '\r\n';
  const task = attn.createTranslationTask({ text, minCount: 1, validation: 1, test: 1, name: 'eng-fra' });
  assert.match(task.id, /^eng-fra-[0-9a-f]{8}$/);
  assert.equal(task.hash.length, 16);
  assert.deepEqual(task.stats, {
    pairs: 6,
    dropped: {},
    train: 4,
    validation: 1,
    test: 1,
    sourceVocabulary: task.vocabulary.source.length,
    targetVocabulary: task.vocabulary.target.length,
    unknownShare: task.stats.unknownShare,
  });
  assert.deepEqual(task.vocabulary.source.slice(0, 3), ['<sos>', '<eos>', '<unk>']);
  assert.deepEqual(task.tokenize('Go on.'), ['go', 'on', '.']);
  assert.deepEqual(task.tokenize("J'ai gagné !", 'target'), ['j', "'", 'ai', 'gagné', '!']);
  assert.deepEqual(task.settings, {
    unit: { source: 'word', target: 'word' },
    lowercase: true,
    maxLength: 20,
    goldLinks: false,
  });
  // the held-out pairs as given, each one of the lines
  for (const [source, target] of [...task.validation, ...task.test])
    assert.ok(tatoeba.some(([en, fr]) => en === source && fr === target));
  assert.notDeepEqual(task.validation, task.test);
  // the same text and options: the same task; another seed: another
  assert.equal(attn.createTranslationTask({ text, minCount: 1, validation: 1, test: 1, name: 'eng-fra' }).id, task.id);
  assert.notEqual(
    attn.createTranslationTask({ text, minCount: 1, validation: 1, test: 1, name: 'eng-fra', seed: 1 }).id,
    task.id,
  );
  // pairs given as an array make the task their lines make
  const pairs = attn.createTranslationTask({ pairs: tatoeba, minCount: 1, validation: 1, test: 1 });
  const lines = attn.createTranslationTask({
    text: tatoeba.map((p) => p.join('\t')).join('\n'),
    minCount: 1,
    validation: 1,
    test: 1,
  });
  assert.equal(pairs.id, lines.id);
  // the file's bytes, as a dropped file gives them
  const bytes = attn.createTranslationTask({
    text: new TextEncoder().encode(text),
    minCount: 1,
    validation: 1,
    test: 1,
    name: 'eng-fra',
  });
  assert.equal(bytes.id, task.id);
  // French to English
  const swapped = attn.createTranslationTask({ text, sourceColumn: 1, minCount: 1, validation: 1, test: 1 });
  assert.ok(swapped.vocabulary.source.includes('va'));
  for (const t of [task, pairs, lines, bytes, swapped]) t.dispose();
});

test('bad text and options get an Error naming the argument, and the lines at fault', () => {
  const error = (opts, argument, message) =>
    assert.throws(
      () => attn.createTranslationTask(opts),
      (e) => e.argument === argument && message.test(e.message),
    );
  error({ text: '' }, 'pairs', /pairs is empty/);
  error({ text: 'a\tb\nno tab here\nc\td\n' }, 'pairs', /line 2 without a tab/);
  error(
    { text: new Uint8Array([0x61, 0x09, 0x62, 0x0a, 0x63, 0xff, 0x09, 0x64]) },
    'pairs',
    /line 2 holds bytes that are not UTF-8/,
  );
  error({ text: 'a\tb\n\0\tc\n' }, 'pairs', /NUL character on line 2/);
  // a file Windows saved as "Unicode": UTF-16 with its byte order mark
  const utf16 = new Uint8Array([0xff, 0xfe, ...[...'a\tb\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
  error({ text: utf16 }, 'pairs', /pairs is UTF-16 text, not UTF-8 .*: save the file as UTF-8/);
  error({ text: 'a b\tc d\t0-0 1-1\nc\td\t0-7\n' }, 'pairs', /line 2 of column 2 hold no alignment/);
  error({ text: 'a\tb', pairs: [['a', 'b']] }, 'pairs', /either options.text/);
  error({ pairs: [['a\tb', 'c']] }, 'pairs', /without tabs/);
  error({ text: 42 }, 'pairs', /must be a string, a Uint8Array/);
  error({ text: 'a\tb\n', unit: 'letter' }, 'unit', /word, character/);
  error({ text: 'a\tb\n', minCount: 0 }, 'minCount', /at least 1/);
  error({ text: 'a\tb\n', maxLength: 1000 }, 'maxLength', /from 1 to 100/);
  error({ text: 'a\tb\n', validation: 0.7 }, 'validation', /below 0.5/);
  error({ text: 'a\tb\n', name: 'my pairs' }, 'name', /without spaces/);
  error({ text: 'a\tb\n', colour: 1 }, 'colour', /not an option/);
  error({ text: 'a\tb\n', file: 7 }, 'file', /must be a string/);
  const facts = attn.translationTaskFacts();
  assert.equal(facts.maxPairs, 200000);
  assert.equal(facts.maxBytes, 20000000);
  assert.equal(facts.defaults.minCount, 2);
});

test('a seq2seq model and a Transformer train on a task value; evaluate() says BLEU and loss', () => {
  const task = attn.createTranslationTask({ pairs: toyPairs(140), validation: 10, test: 10, name: 'toy' });
  const seq2seq = attn.createModel({ kind: 'seq2seq', task, embedding: 16, hidden: 32, precision: 'float64' });
  assert.equal(seq2seq.config.task, task.id);
  const before = seq2seq.evaluate({ split: 'validation' });
  assert.equal(before.aer, undefined); // no gold links: no alignment to score
  seq2seq.train({ steps: 150, batch: 16, learningRate: 0.02 });
  const after = seq2seq.evaluate({ split: 'validation' });
  assert.ok(after.loss < before.loss, `${after.loss} < ${before.loss}`);
  assert.ok(after.bleu > before.bleu && after.bleu <= 100, `BLEU ${before.bleu} -> ${after.bleu}`);
  assert.ok(after.exactMatch >= 0 && after.exactMatch <= 1);
  const translation = seq2seq.translate('A3 b1 c2 unheard');
  assert.deepEqual(translation.source, ['a3', 'b1', 'c2', '<unk>', '<eos>']);
  // the walkthrough names the words read as <unk>, with the nearest words the vocabulary has
  const trace = attn.walkthrough('seq2seq', { model: seq2seq, task: task.id, sentence: ['a3', 'b9', 'unheard'] });
  assert.deepEqual(trace.labels.unknown, ['b9', 'unheard']);
  assert.match(trace.labels.nearest[0], /^b[0-4] b[0-4] b[0-4]$/); // one edit away, most frequent first
  assert.equal(trace.labels.nearest[1], '');

  const transformer = attn.createModel({ kind: 'transformer', task, model: 16, heads: 2, feedforward: 32 });
  transformer.train({ steps: 5, batch: 16 });
  const result = transformer.evaluate({ split: 'test' });
  assert.ok(Number.isFinite(result.bleu) && Number.isFinite(result.loss));
  assert.equal(result.heads, undefined);
  // no gold links, so no head is the best: the compare stage shows every cross-attention head
  const walked = attn.walkthrough('transformer', {
    model: transformer,
    compare: [seq2seq],
    sentence: ['a3', 'b1', 'c2'],
  });
  const compare = walked.stages.find((stage) => stage.kind === 'compare');
  assert.deepEqual(
    compare.panels.map((panel) => panel.name),
    ['cross-1-1', 'cross-1-2', 'cross-2-1', 'cross-2-2', 'gru'],
  );
  assert.equal(walked.labels.best, undefined);
  for (const [language, title] of [
    ['en', 'Every cross-attention head beside the GRU model'],
    ['zh', '每个交叉注意力头，与 GRU 模型并列'],
  ]) {
    const described = describeStage(walked, compare, { task: task.id, layer: 1, head: 1 }, translator(language));
    assert.equal(described.title, title);
    assert.doesNotMatch(described.paragraphs.join(' '), /undefined|\{/);
    assert.doesNotMatch(described.code, /best = min/);
  }

  // the model file keeps the task's vocabularies and rules: it loads and translates alone
  const bytes = seq2seq.save();
  task.dispose();
  assert.throws(() => task.tokenize('a1'), { argument: 'task' });
  const loaded = attn.loadModel(bytes);
  assert.equal(loaded.config.task, task.id);
  assert.deepEqual(loaded.vocab.source, task.vocabulary.source);
  assert.deepEqual(loaded.translate('A3 b1 c2 unheard').target, translation.target);
  assert.throws(() => loaded.evaluate({ split: 'test' }), { argument: 'split' });
  assert.throws(() => attn.createModel({ kind: 'seq2seq', task: task.id }), { argument: 'task' });
  for (const m of [seq2seq, transformer, loaded]) m.dispose();
});

test('a training run on the reader pairs: evaluations of the validation split with BLEU, and a stop', async () => {
  const run = trainModel({
    kind: 'seq2seq',
    model: { task: 'the reader pairs', embedding: 8, hidden: 16 },
    task: { pairs: toyPairs(100), validation: 10, test: 10, name: 'toy' },
    train: { batch: 16, learningRate: 0.02 },
    probe: { sentence: 'a1 b1 c1' },
    steps: 400,
    chunk: 25,
    evaluateEvery: 25,
    target: 1,
    patience: 2,
  });
  const progress = [];
  run.addEventListener('progress', ({ detail }) => progress.push(detail));
  const { bytes, reason, step } = await run.finished;
  const evaluated = progress.filter((report) => report.evaluation);
  assert.ok(evaluated.every((report) => report.split === 'validation' && report.evaluation.bleu >= 0));
  assert.ok(['target', 'plateau', 'steps'].includes(reason), reason);
  if (reason === 'plateau') {
    // the last two evaluations did not beat the best before them
    const losses = evaluated.map((report) => report.evaluation.loss);
    assert.ok(Math.min(...losses.slice(-2)) >= Math.min(...losses.slice(0, -2)));
  }
  assert.ok(step <= 400);
  const model = attn.loadModel(bytes);
  assert.match(model.config.task, /^toy-[0-9a-f]{8}$/);
  assert.deepEqual(model.translate('a1 b1 c1').source, ['a1', 'b1', 'c1', '<eos>']);
  model.dispose();
});

test("a grammar's sample reads back as a task with gold links, and a model of it measures AER", () => {
  const sample = attn.translationTaskSample('en-fr');
  assert.equal(sample.unit, 'word');
  const [first] = sample.text.split('\n');
  assert.equal(first.split('\t').length, 3);
  const task = attn.createTranslationTask({ ...sample, validation: 100, test: 100 });
  assert.equal(task.settings.goldLinks, true);
  assert.equal(task.stats.pairs, 2400);
  assert.equal(task.stats.unknownShare, 0);
  const model = attn.createModel({ kind: 'seq2seq', task, embedding: 8, hidden: 16 });
  const evaluation = model.evaluate({ split: 'validation' });
  assert.ok(evaluation.aer >= 0 && evaluation.aer <= 1);
  assert.deepEqual(
    evaluation.categories.map(({ category }) => category),
    ['word'],
  );
  model.dispose();
  task.dispose();
  assert.throws(() => attn.translationTaskSample('en-de'), { argument: 'task' });
});

test("a grammar's sample read back as a task trains to the built-in task's test exact match within 1%", () => {
  // The same model, seed and steps on en-fr (2,000 training pairs, 400 test ones) and on its
  // sample's pairs read back as text, 400 of them held out at random as the test split.
  const sample = attn.translationTaskSample('en-fr');
  assert.equal(sample.text.trimEnd().split('\n').length, 2400);
  const builtIn = attn.createSeq2seq({ task: 'en-fr', seed: 0 });
  const task = attn.createTranslationTask({ ...sample, validation: 0, test: 400, name: 'en-fr-sample' });
  const readBack = attn.createModel({ kind: 'seq2seq', task, seed: 0 });
  const [expected, got] = [builtIn, readBack].map((model) => {
    model.train({ steps: 400 });
    return model.evaluate({ split: 'test' }).exactMatch;
  });
  assert.ok(expected > 0.95, `en-fr learns: ${expected}`);
  assert.ok(Math.abs(got - expected) <= 0.01, `read back ${got} against built in ${expected}`);
  for (const m of [builtIn, readBack]) m.dispose();
  task.dispose();
});

test("a task of a file is named after it by one rule, the engine's, unless given a name", () => {
  const text = 'a b\tc d\ne f\tg h\n';
  const named = (options) => attn.createTranslationTask({ text, validation: 0, test: 0, minCount: 1, ...options }).name;
  assert.equal(named({ file: 'eng-fra.txt' }), 'eng-fra');
  assert.equal(named({ file: 'my  pairs\tof 2024.tsv' }), 'my-pairs-of-2024');
  assert.equal(named({ file: 'folder/deeper\\archive.tar.gz' }), 'archive.tar');
  assert.equal(named({ file: '.tsv' }), 'pairs');
  assert.equal(named({ file: 'eng-fra.txt', name: 'mine' }), 'mine');
  // at most 40 bytes, of whole characters: 13 three-byte characters are 39 bytes
  assert.equal(named({ file: `${'译'.repeat(20)}.txt` }), '译'.repeat(13));
  // labelled sentences follow the same rule
  assert.equal(
    attn.createClassificationTask({ text: 'good\tpos\nbad\tneg\n', validation: 0, test: 0, file: 'reviews 1.tsv' })
      .name,
    'reviews-1',
  );
});

test('a task saved as bytes loads as the same task, without its text; other bytes are refused naming them', () => {
  const text = tatoeba.map(line).join('\n');
  const task = attn.createTranslationTask({ text, name: 'tatoeba', validation: 1, test: 1, minCount: 1 });
  const bytes = task.save();
  assert.ok(bytes instanceof Uint8Array);
  const loaded = attn.loadTranslationTask(bytes.buffer.slice(0)); // an ArrayBuffer too
  for (const key of ['id', 'hash', 'settings', 'stats', 'vocabulary', 'validation', 'test'])
    assert.deepEqual(loaded[key], task[key], key);
  assert.deepEqual(loaded.tokenize('Run, I see!'), task.tokenize('Run, I see!'));
  assert.deepEqual(loaded.save(), bytes);
  // one task to the engine: a model of it trains while either object is kept
  loaded.dispose();
  const model = attn.createModel({ kind: 'seq2seq', task, embedding: 8, hidden: 8 });
  assert.equal(model.config.task, task.id);
  model.dispose();
  assert.throws(() => attn.loadTranslationTask(bytes.subarray(0, 100)), {
    argument: 'bytes',
    message: /not a saved translation task: (they end too soon|a length runs past their end)/,
  });
  assert.throws(() => attn.loadTranslationTask('bytes'), { argument: 'bytes', message: /Uint8Array/ });
  const classes = attn.createClassificationTask({ text: 'a\tx\nb\ty\nc\tx\nd\ty', validation: 0, test: 1 });
  assert.throws(() => attn.loadTranslationTask(classes.save()), {
    argument: 'bytes',
    message: /not a saved translation task: they begin with "attention-stepper\/classification-task"/,
  });
  classes.dispose();
  task.dispose();
});

test("a training run given a task object reads no text: it loads the task's bytes, once", async () => {
  const task = attn.createTranslationTask({ pairs: toyPairs(60), validation: 6, test: 6, name: 'toy' });
  // the engine the run trains on, its reader functions counted
  const calls = { createTranslationTask: 0, loadTranslationTask: 0 };
  const counted = Object.create(
    attn,
    Object.fromEntries(
      Object.keys(calls).map((key) => [key, { value: (...args) => (calls[key]++, attn[key](...args)) }]),
    ),
  );
  const run = { kind: 'seq2seq', model: { embedding: 8, hidden: 8 }, probe: { sentence: 'a1 b1 c1' }, steps: 2 };
  const reports = [];
  await runTraining(
    counted,
    runOptions({ ...run, task }),
    (report) => reports.push(report),
    async () => true,
  );
  assert.deepEqual(calls, { createTranslationTask: 0, loadTranslationTask: 1 });
  const done = reports.at(-1);
  assert.equal(done.type, 'done');
  assert.equal(attn.loadModel(done.bytes).config.task, task.id);
  // the caller's task outlives the run's (one task to the engine until both are disposed)
  assert.equal(task.test.length, 6);
  // options of a text are read where the run trains, as before
  await runTraining(
    counted,
    { ...run, task: { pairs: toyPairs(60), name: 'toy' } },
    () => {},
    async () => true,
  );
  assert.deepEqual(calls, { createTranslationTask: 1, loadTranslationTask: 1 });
  task.dispose();
});
