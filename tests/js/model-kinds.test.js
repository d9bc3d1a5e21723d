// Every kind of model through one path: the engine describes each kind once (its configuration's
// fields, which tell models apart, which training sets, their defaults), and createModel, the
// create aliases, a model's config, its file and the identity a page keys it by all read that.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { fieldsThat, identityDefaults, loadAttention, MODEL_KINDS, modelFile, modelIdentity } from 'attention-stepper';

const attn = await loadAttention({ threads: 1, models: true });

const tiny = {
  seq2seq: { task: 'dates', embedding: 4, hidden: 8 },
  transformer: { task: 'dates', model: 8, heads: 2, feedforward: 8, encoderLayers: 1, decoderLayers: 1 },
  captioner: { task: 'shapes', channels: 4, annotation: 4, attention: 4, embedding: 4, hidden: 8 },
  classifier: { task: 'reviews', embedding: 4, hidden: 4 },
};

// the kinds whose models are made from options (a pretrained checkpoint's are only loaded)
const creating = Object.keys(MODEL_KINDS).filter((kind) => attn.modelFacts(kind).abilities.creates);

for (const kind of creating) {
  test(`${kind}: createModel makes what its alias makes, its config lists its fields, and its file keeps them`, () => {
    const facts = attn.modelFacts(kind);
    assert.equal(attn[MODEL_KINDS[kind].facts](), facts);
    const names = facts.fields.map((field) => field.name);
    const made = attn.createModel({ kind, ...tiny[kind], seed: 7 });
    const alias = attn[MODEL_KINDS[kind].create]({ ...tiny[kind], seed: 7 });
    assert.equal(made.kind, kind);
    assert.deepEqual(Object.keys(made.config), [...names, 'precision']);
    assert.deepEqual(made.config, alias.config);
    assert.deepEqual(made.parameters(), alias.parameters());
    // each field not given takes its default
    for (const field of facts.fields.filter((f) => !(f.name in tiny[kind]) && f.name !== 'seed' && !f.defaultBy))
      assert.equal(made.config[field.name], facts.defaults[field.name], field.name);
    const loaded = attn.loadModel(made.save());
    assert.deepEqual(loaded.config, made.config);
    for (const model of [made, alias, loaded]) model.dispose();
  });

  test(`${kind}: prepare() computes its walkthrough's measures a batch per task; disposed, it rejects`, async () => {
    const model = attn.createModel({ kind, ...tiny[kind] });
    let turns = 0; // the event loop's turns while it prepares
    const counting = setInterval(() => turns++);
    await model.prepare();
    clearInterval(counting);
    assert.ok(turns >= 2, `${turns} turns`);
    await model.prepare(); // ready: at once
    model.dispose();
    await assert.rejects(model.prepare(), { message: /disposed/ });
  });
}

test('the identity and its defaults come from the fields the engine marks', () => {
  const facts = attn.modelFacts('seq2seq');
  assert.deepEqual(fieldsThat(facts, 'identity'), ['task', 'scoring', 'encoder', 'layers', 'guide']);
  assert.deepEqual(fieldsThat(facts, 'trained'), ['guide']);
  assert.equal(facts.lossWeight, 'guide');
  assert.equal(attn.modelFacts('captioner').lossWeight, 'regularization');
  // the encoder's default follows the scoring function: Bahdanau's reads both ways
  // the scoring function is always said (en-fr-additive.safetensors), the others only when not
  // their default
  assert.deepEqual(fieldsThat(facts, 'named'), ['scoring']);
  assert.deepEqual(identityDefaults(facts, { scoring: 'additive' }), {
    encoder: 'bidirectional',
    layers: 1,
    guide: 0,
  });
  const dot = modelIdentity('seq2seq', { task: 'en-fr', scoring: 'dot', guide: '0.5' }, facts);
  assert.deepEqual(dot, { task: 'en-fr', scoring: 'dot', encoder: 'forward', layers: 1, guide: 0.5 });
  assert.equal(modelFile({ kind: 'seq2seq', ...dot }), 'en-fr-dot-forward-layers1-guide0.5.safetensors');
  // a model's config follows what training set
  const model = attn.createModel({ kind: 'seq2seq', ...tiny.seq2seq });
  model.train({ steps: 1, guide: 2 });
  assert.equal(model.config.guide, 2);
  model.dispose();
});

// Each kind's create options are typed by hand (Emscripten 3.1.6 writes no declarations): they
// must list the fields the engine describes, in its order, optional unless required.
const optionsTypes = {
  seq2seq: ['seq2seq-types.d.ts', 'Seq2seqOptions'],
  captioner: ['captioner-types.d.ts', 'CaptionerOptions'],
  transformer: ['transformer-types.d.ts', 'TransformerOptions'],
  classifier: ['classifier-types.d.ts', 'ClassifierOptions'],
};
test("each kind's options type lists the fields the engine describes", () => {
  assert.deepEqual(Object.keys(optionsTypes), creating);
  for (const [kind, [file, name]] of Object.entries(optionsTypes)) {
    const text = readFileSync(new URL(`../../web/engine/${file}`, import.meta.url), 'utf8');
    const body = text.match(new RegExp(`export interface ${name}<[^>]*> \\{\\n([\\s\\S]*?)\\n\\}`))[1];
    const typed = [...body.matchAll(/^ {2}(\w+)(\??):/gm)].map(([, field, optional]) => `${field}${optional}`);
    const described = attn
      .modelFacts(kind)
      .fields.filter((field) => !field.trained)
      .map((field) => `${field.name}${field.required ? '' : '?'}`);
    assert.deepEqual(typed, [...described, 'precision?'], name);
  }
});

// A kind is named in its own files and in the kinds' tables, nowhere else in the engine's code
// (docs/architecture.md, "How to add a trained model"): the C++ list and the JavaScript table.
// Besides them, feed_forward.hpp cites PyTorch's nn.TransformerEncoderLayer.
const ownFiles =
  /^cpp\/src\/models\/(captioner|transformer|seq2seq|classifier|pretrained)\/|^cpp\/bindings\/(captioner|transformer|seq2seq|translation|classifier|pretrained)|^web\/engine\/(captioner|transformer|seq2seq|translation|classifier|pretrained)|^cpp\/include\/attention\/(captioner|caption_tasks|captioning|transformer|seq2seq|translation_tasks|classifier|classification_tasks|sentiment|pretrained)|^cpp\/src\/walkthroughs\/(captioning|transformer|seq2seq|sentiment|pretrained)|^web\/walkthroughs\/(trained\/|translation)|^cpp\/src\/tasks\/|^web\/models\/|^web\/locales\//;
const tables = ['cpp/include/attention/model_kinds.hpp', 'web/engine/kinds.js'];
const allowed = {
  seq2seq: tables,
  captioner: tables,
  transformer: [...tables, 'cpp/src/nn/feed_forward.hpp'],
  classifier: tables,
  pretrained: tables,
};
test('no generic file of the engine, the page or the scripts names a kind, but the kinds’ tables', () => {
  const root = new URL('../../', import.meta.url);
  const files = ['cpp', 'web', 'scripts'].flatMap((folder) =>
    readdirSync(new URL(folder, root), { recursive: true })
      .map((path) => `${folder}/${path}`)
      .filter((path) => /\.(cpp|hpp|js|ts|json)$/.test(path) && !ownFiles.test(path)),
  );
  for (const kind of Object.keys(MODEL_KINDS)) {
    const naming = files.filter((path) => readFileSync(new URL(path, root), 'utf8').toLowerCase().includes(kind));
    assert.deepEqual(naming.sort(), allowed[kind].sort(), kind);
  }
});
