// The recipe of docs/architecture.md ("How to add a trained model") held true in Node: the tests'
// package (build/test-kinds/, scripts/build.sh) differs from the sources by the toy kind's own
// files (tests/kinds/) and the recipe's one edit of web/engine/kinds.js (its C++ twin is
// model_kinds.hpp's, under ATTENTION_TEST_KINDS), and its engine serves the toy as every kind.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MODEL_KINDS as PACKAGED } from 'attention-stepper';

import { writeStateDict } from './model-helpers.js';

const root = new URL('../../', import.meta.url);
const built = new URL('build/test-kinds/', root);
const { loadAttention, MODEL_KINDS, trainModel } = await import(new URL('dist/engine/index.node.js', built));
const attn = await loadAttention({ threads: 1, models: true });

test("the tests' sources are the package's with the toy's files, and two lines of kinds.js", () => {
  const lines = (url) => readFileSync(url, 'utf8').split('\n');
  const source = lines(new URL('web/engine/kinds.js', root));
  const edited = lines(new URL('web/engine/kinds.js', built));
  assert.deepEqual(
    edited.filter((line) => !source.includes(line)),
    [
      "import { toyKind } from './toy.js';",
      "import { frozenKind } from './frozen.js';",
      '  toy: toyKind,',
      '  frozen: frozenKind,',
    ],
  );
  assert.deepEqual(
    source.filter((line) => !edited.includes(line)),
    [],
  );
  const files = (url) => readdirSync(url, { recursive: true }).filter((path) => !/^(models|app)\//.test(path));
  const added = files(new URL('web/', built)).filter((path) => !files(new URL('web/', root)).includes(path));
  assert.deepEqual(added.sort(), [
    'engine/frozen-types.d.ts',
    'engine/frozen.js',
    'engine/toy-types.d.ts',
    'engine/toy.js',
    'locales/en/walkthroughs/frozen.json',
    'locales/en/walkthroughs/toy.json',
    'locales/zh/walkthroughs/frozen.json',
    'locales/zh/walkthroughs/toy.json',
    'walkthroughs/trained/frozen.js',
    'walkthroughs/trained/toy.js',
  ]);
  // and the package has no toy
  assert.equal(PACKAGED.toy, undefined);
});

test('the toy is made, trained, saved, loaded, labelled and walked through as every kind', () => {
  assert.deepEqual(Object.keys(MODEL_KINDS), [...Object.keys(PACKAGED), 'toy', 'frozen']);
  assert.deepEqual(attn.walkthroughNames.slice(-3), ['toy', 'frozen', 'numerics']);
  const facts = attn.modelFacts('toy');
  assert.equal(attn.toyFacts(), facts);
  assert.deepEqual(facts.abilities, { creates: true, trains: true, saves: true });
  assert.deepEqual(
    facts.fields.map((field) => field.name),
    ['task', 'language', 'embedding', 'seed'],
  );
  const made = attn.createModel({ kind: 'toy', task: 'reviews', embedding: 4, seed: 3 });
  const alias = attn.createToy({ task: 'reviews', embedding: 4, seed: 3 });
  assert.deepEqual(made.parameters(), alias.parameters());
  assert.deepEqual(made.config, { task: 'reviews', language: 'en', embedding: 4, seed: 3, precision: 'float32' });
  const first = made.train({ steps: 1 }).loss;
  let last = first;
  for (let round = 0; round < 5; round++) last = made.train({ steps: 10 }).loss;
  assert.ok(last < first, `${first} → ${last}`);
  assert.throws(() => made.train({ steps: 0 }), { argument: 'steps' });
  const loaded = attn.loadModel(made.save());
  assert.equal(loaded.kind, 'toy');
  assert.deepEqual(loaded.evaluate(), made.evaluate());
  const trace = attn.walkthrough('toy', { model: loaded, sentence: ['the', 'food', 'was', 'good'] });
  assert.deepEqual(trace.models, [{ language: 'en' }]);
  assert.deepEqual(
    trace.stages.map((stage) => stage.id),
    ['embeddings', 'weights'],
  );
  assert.throws(() => attn.walkthrough('toy', { model: loaded, language: 'zh' }), { argument: 'language' });
  for (const model of [made, alias, loaded]) model.dispose();
});

test('a kind that only loads and runs is loaded from its tensors, labelled and walked through, and refuses the rest', async () => {
  const facts = attn.modelFacts('frozen');
  assert.deepEqual(facts.abilities, { creates: false, trains: false, saves: false });
  assert.equal(facts.lossWeight, undefined);
  const vocabulary = attn.classificationTasks().find((task) => task.language === 'en').vocab;
  const table = Float32Array.from({ length: vocabulary.length * 2 }, (_, i) => (i % 7) / 7);
  const model = attn.loadModel(
    writeStateDict([
      ['frozen.embedding.weight', [vocabulary.length, 2], table],
      ['frozen.query', [2], Float32Array.of(1, -1)],
    ]),
  );
  assert.equal(model.kind, 'frozen');
  assert.deepEqual(model.config, { task: 'reviews', language: 'en', embedding: 2, precision: 'float32' });
  assert.equal(model.train, undefined);
  assert.equal(model.save, undefined);
  const { weights, tokens } = model.read('the food was good');
  const score = (word) => table[vocabulary.indexOf(word) * 2] - table[vocabulary.indexOf(word) * 2 + 1];
  const total = tokens.reduce((sum, word) => sum + Math.exp(score(word)), 0);
  assert.ok(Math.abs(weights[1] - Math.exp(score('food')) / total) < 1e-6);
  const trace = attn.walkthrough('frozen', { model, sentence: tokens });
  assert.deepEqual(trace.models, [{ language: 'en' }]);
  assert.deepEqual([...trace.output.data], [...weights].map(Number));
  // what it cannot do says so, naming the argument
  assert.equal(attn.createFrozen, undefined);
  assert.throws(() => attn.createModel({ kind: 'frozen', task: 'reviews' }), { argument: 'kind' });
  await assert.rejects(trainModel({ kind: 'frozen', model: {}, probe: { sentence: 'the food' } }).finished, {
    argument: 'kind',
    message: /frozen models do not train/,
  });
  model.dispose();
});
