// The locales (web/locales/{en,zh}/: ui.json, walkthroughs.json and each walkthrough's own
// walkthroughs/<name>.json, whose keys are under its name): the same keys in both languages, no
// empty texts, the same {placeholders}, a title and text for every stage kind of every spec, and no
// key the code never asks for. The keys the code uses are read from its source: literal t('…')
// calls, the template keys it builds (expanded here from the specs and the engine's traces), and
// the keys it passes to t() by name (labels, hints, the heatmap's texts).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention, MODEL_KINDS } from 'attention-stepper';

import { loadTexts } from '../../web/locales/texts.js';
import { loadSpec, SPECS, WALKTHROUGHS } from '../../web/walkthroughs/index.js';
import { loadFixture } from './pretrained-fixtures.js';

await Promise.all(WALKTHROUGHS.map(loadSpec)); // every spec, as a page that shows every walkthrough has them

const web = fileURLToPath(new URL('../../web/', import.meta.url));
const LANGS = ['en', 'zh'];
const FILES = ['ui', 'walkthroughs', ...Object.keys(SPECS).map((name) => `walkthroughs/${name}`)];
// a file's words, a walkthrough's own under its name
function locale(lang, file) {
  const words = JSON.parse(readFileSync(join(web, 'locales', lang, `${file}.json`), 'utf8'));
  const [, name] = file.split('/');
  return name ? { [name]: words } : words;
}

/** [key, value] for every leaf of a locale file: 'field.seed' -> 'Seed'. */
function leaves(object, prefix = '') {
  return Object.entries(object).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? leaves(value, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value]],
  );
}

const entries = Object.fromEntries(
  LANGS.map((lang) => [lang, new Map(FILES.flatMap((file) => leaves(locale(lang, file))))]),
);
const placeholders = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort();

const stageKinds = Object.entries(SPECS).flatMap(([name, spec]) =>
  Object.keys(spec.stages).map((kind) => `${name}.stages.${kind}`),
);
// The keys of the stages' texts: a stage told in parts (its spec's `texts`) has one per part.
function stageTexts() {
  const english = Object.assign({}, ...Object.keys(SPECS).map((name) => locale('en', `walkthroughs/${name}`)));
  return Object.entries(SPECS).flatMap(([name, spec]) =>
    Object.entries(spec.stages).flatMap(([kind, entry]) =>
      entry.texts
        ? Object.keys(english[name].stages[kind]).map((part) => `${name}.stages.${kind}.${part}`)
        : [`${name}.stages.${kind}`],
    ),
  );
}
describe('both languages', () => {
  for (const file of FILES) {
    test(`${file}.json: en and zh have exactly the same keys, every value a non-empty string`, () => {
      const [en, zh] = LANGS.map((lang) => leaves(locale(lang, file)));
      assert.deepEqual(zh.map(([key]) => key).sort(), en.map(([key]) => key).sort());
      for (const [lang, list] of [
        ['en', en],
        ['zh', zh],
      ]) {
        for (const [key, value] of list) {
          assert.equal(typeof value, 'string', `${lang} ${key}`);
          assert.notEqual(value.trim(), '', `${lang} ${key} is empty`);
        }
      }
    });
  }

  test('ui and walkthroughs share no top-level key (the translator merges them)', () => {
    for (const lang of LANGS) {
      const ui = Object.keys(locale(lang, 'ui'));
      assert.deepEqual(
        Object.keys(locale(lang, 'walkthroughs')).filter((key) => ui.includes(key)),
        [],
      );
    }
  });

  test("a walkthrough's own texts share no key with its names (the translator merges them)", () => {
    for (const lang of LANGS) {
      const names = locale(lang, 'walkthroughs');
      for (const name of Object.keys(SPECS)) {
        const own = Object.keys(locale(lang, `walkthroughs/${name}`)[name]);
        assert.deepEqual(
          own.filter((key) => key in names[name]),
          [],
          `${lang} ${name}`,
        );
      }
    }
  });

  test("texts.js loads each walkthrough's own texts in each language, its own file", async () => {
    for (const lang of LANGS) {
      assert.deepEqual(
        readdirSync(join(web, 'locales', lang, 'walkthroughs')).sort(),
        Object.keys(SPECS)
          .map((name) => `${name}.json`)
          .sort(),
      );
      for (const name of WALKTHROUGHS)
        assert.deepEqual({ [name]: (await loadTexts(lang, name)).default }, locale(lang, `walkthroughs/${name}`));
    }
  });

  test('every {placeholder} of a key appears in both languages', () => {
    for (const [key, en] of entries.en) {
      assert.deepEqual(placeholders(entries.zh.get(key)), placeholders(en), key);
    }
  });

  // a stage told in parts (its spec's `texts`) has a text per part, and a title where the part
  // comes first: specs.test.js describes each such stage on screen
  test('every stage kind of every spec has a title and a text in both languages', () => {
    for (const key of stageTexts()) {
      for (const lang of LANGS) {
        assert.ok(entries[lang].has(`${key}.text`), `${lang}: ${key}.text`);
        if (stageKinds.includes(key)) assert.ok(entries[lang].has(`${key}.title`), `${lang}: ${key}.title`);
      }
    }
  });
});

// ---- the keys the code uses ----------------------------------------------------------------------

function sources(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'wasm' ? [] : sources(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

// Comments name keys in examples ("t('field.seed')"): they use none.
const withoutComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[\s;{}(),])\/\/.*$/gm, '$1');
const code = Object.fromEntries(
  sources(web).map((path) => [relative(web, path), withoutComments(readFileSync(path, 'utf8'))]),
);
const allCode = Object.values(code).join('\n');
// t( or controller.t( or this.t(, not get( or split(
const T_CALL = String.raw`(?<![\w$])t\(\s*`;
const unique = (list) => [...new Set(list)];
const matches = (source, pattern) => [...source.matchAll(new RegExp(pattern, 'g'))].map((match) => match[1]);

const attn = await loadAttention({ threads: 1, models: true });
// the seq2seq, scoring and captioning walkthroughs are models': a small untrained model will do
const model = attn.createSeq2seq({ task: 'en-fr', embedding: 4, hidden: 8 });
const captioner = attn.createCaptioner({
  task: 'shapes',
  channels: 4,
  annotation: 4,
  attention: 4,
  embedding: 4,
  hidden: 8,
});
const transformer = attn.createTransformer({ task: 'en-fr', model: 8, feedforward: 16 });
const classifier = attn.createClassifier({ task: 'reviews', embedding: 4, hidden: 8 });
const checkpoint = await loadFixture(attn, 'gpt2');
const traceOf = (name) =>
  attn.walkthrough(
    name,
    {
      pretrained: { model: checkpoint, ids: checkpoint.tokenize('the fox').ids },
      seq2seq: { model, compare: [model] },
      scoring: { models: [model] },
      captioning: { model: captioner },
      transformer: { model: transformer },
      sentiment: { model: classifier },
    }[name] ?? {},
  );

/** The exercise questions of every spec, asked on the notebook's inputs (which ask them all). */
function questions() {
  return Object.entries(SPECS).flatMap(([name, spec]) => {
    const trace = traceOf(name);
    const inputs = Object.fromEntries(attn.walkthroughInputs(name).map((field) => [field.name, field.default]));
    return trace.stages.flatMap((stage) => {
      const question = spec.stages[stage.kind].question?.({ trace, stage, inputs, notebookInputs: true });
      return question ? [{ walkthrough: name, ...question }] : [];
    });
  });
}

/** The options of every menu the specs define, as the form builds them: [value, label key]. */
function menuOptions() {
  return Object.entries(SPECS).flatMap(([name, spec]) => {
    const trace = traceOf(name);
    return spec.fields
      .filter((shown) => shown.options)
      .flatMap((shown) => {
        const field = attn.walkthroughInputs(name).find((candidate) => candidate.name === shown.name);
        return shown.options({ trace, field, inputs: {} });
      });
  });
}

/** The structured labels of every panel of every walkthrough's trace (format.js words them). */
const structuredLabels = () =>
  Object.keys(SPECS).flatMap((name) =>
    traceOf(name).stages.flatMap((stage) =>
      stage.panels.flatMap((panel) =>
        [...panel.rowLabels, ...panel.colLabels].filter((label) => typeof label !== 'string'),
      ),
    ),
  );

const fieldErrorKeys = unique(matches(code['components/inputs.js'], String.raw`new FieldError\(\s*'(\w+)'`));

// Each template key the code builds, as written in the source, and the keys it stands for.
const classifierChoices = (name) => attn.classifierFacts().fields.find((field) => field.name === name).choices;

const TEMPLATES = {
  '${controller.walkthrough}.title': () => attn.walkthroughNames.map((name) => `${name}.title`),
  '${name}.title': () => attn.walkthroughNames.map((name) => `${name}.title`),
  '${name}.tab': () => attn.walkthroughNames.map((name) => `${name}.tab`),
  '${controller.walkthrough}.summary': () => attn.walkthroughNames.map((name) => `${name}.summary`),
  '${loading}.title': () => attn.walkthroughNames.map((name) => `${name}.title`), // main.js, a tab loading
  'model.ended.${ended.reason}': () =>
    ['steps', 'target', 'plateau', 'stopped'].map((reason) => `model.ended.${reason}`),
  '${following}.title': () => attn.walkthroughNames.map((name) => `${name}.title`), // main.js, the next walkthrough
  '${this.walkthrough}.title': () => attn.walkthroughNames.map((name) => `${name}.title`), // a link's unknown stage
  // describeStage: a part's title where it has one (a part that only adds a paragraph has none)
  '${keys[0]}.title': () =>
    stageTexts()
      .filter((key) => stageKinds.includes(key) || entries.en.has(`${key}.title`))
      .map((key) => `${key}.title`),
  '${key}.text': () => stageTexts().map((key) => `${key}.text`),
  '${keys[0]}.reveal': () =>
    Object.entries(SPECS).flatMap(([name, spec]) =>
      Object.entries(spec.stages).flatMap(([kind, entry]) => (entry.reveal ? [`${name}.stages.${kind}.reveal`] : [])),
    ),
  '${key}.prompt': () => questions().map((q) => `${q.walkthrough}.questions.${q.id}.prompt`), // the controller
  "${key}.${given === question.answer ? 'right' : 'wrong'}": () =>
    questions().flatMap((q) => ['right', 'wrong'].map((part) => `${q.walkthrough}.questions.${q.id}.${part}`)),
  'errors.${parseError.key}': () => fieldErrorKeys.map((key) => `errors.${key}`), // session.fieldError
  'errors.${error.key}': () => fieldErrorKeys.map((key) => `errors.${key}`), // session.setTexts
  'files.notFit.${input.kind}': () => ['vector', 'matrix'].map((kind) => `files.notFit.${kind}`), // file-panel.js
  // a checkpoint's load under way (components/model-checkpoint.js): its phase, as loadPretrained reports it
  'checkpoint.${phase}': () => ['checkpoint.download', 'checkpoint.read'],
  // a model's origin (components/model-store.js), as the model panel says it
  'model.${origin}': () => ['untrained', 'loading', 'shipped', 'trained', 'none'].map((origin) => `model.${origin}`),
  'model.idle.${origin}': () =>
    ['untrained', 'loading', 'shipped', 'trained', 'none'].map((origin) => `model.idle.${origin}`),
  // a panel's structured labels, as labelText in format.js words them
  'labels.metric.${label.metric}': () =>
    unique([
      ...structuredLabels().flatMap((label) => (label.metric ? [`labels.metric.${label.metric}`] : [])),
      'labels.metric.bleu', // the measures of a model of the reader's pairs without gold links
    ]),
  // what a run is measured by (training-chart.js, runMeasure): its chart, points, progress, numbers
  ...Object.fromEntries(
    ['chart', 'point', 'progress', 'numbers', 'rises'].map((part) => [
      part === 'rises' ? 'model.measure.${measureKey()}.rises' : `model.measure.\${measure.key}.${part}`,
      () => ['exact', 'bleu', 'accuracy'].map((key) => `model.measure.${key}.${part}`),
    ]),
  ),
  // what a run waits for (model-run-view.js): the exact match, or on the reader's pairs its steps
  'model.goal.${measureKey()}': () => ['model.goal.exact', 'model.goal.bleu', 'model.goal.accuracy'],
  // the reader's own text (model-data.js): its words by the kind of lines (each spec's data.texts),
  // why lines were dropped, the options, the units
  '${data.texts}.${key}': () => [
    ...['data.pairs', 'data.sentences'].flatMap((texts) =>
      ['heading', 'intro', 'text', 'read', 'reading', 'failed', 'unkept', 'stats', 'keptTask', 'pace'].map(
        (key) => `${texts}.${key}`,
      ),
    ),
    ...['empty', 'sourceTooLong', 'targetTooLong', 'duplicate'].map((reason) => `data.pairs.dropped.${reason}`),
    ...['empty', 'tooLong', 'duplicate'].map((reason) => `data.sentences.dropped.${reason}`),
  ],
  '${controller.spec.models.data.texts}.sourceFailed': () => ['data.pairs.sourceFailed', 'data.sentences.sourceFailed'],
  '${texts}.pace': () => ['data.pairs.pace', 'data.sentences.pace'], // model-run-view.js
  'data.options.${name}': () =>
    ['sourceColumn', 'labelColumn', 'unit', 'lowercase', 'minCount', 'maxLength'].map((name) => `data.options.${name}`),
  'data.units.${option.value}': () => ['word', 'character'].map((unit) => `data.units.${unit}`),
  // a task's name (format.js): a grammar's
  'taskNames.${id}': () => attn.seq2seqFacts().tasks.map((task) => `taskNames.${task}`),
  'taskNames.${task}': () => attn.seq2seqFacts().tasks.map((task) => `taskNames.${task}`),
  // a kind of target word (format.js), of every task's grammar
  'labels.category.${category}': () =>
    unique(
      attn
        .seq2seqTasks()
        .flatMap(({ examples }) => examples.flatMap((example) => example[4]))
        .map((category) => `labels.category.${category}`)
        // and every kind of review (the classification tasks')
        .concat(['plain', 'negation', 'contrast'].map((category) => `labels.category.${category}`)),
    ),
  // a model's fields in a label (format.js): the words of the fields the locale words, read by
  // value (every value of every kind's choice fields it words; a model that learnt freely), or a
  // number's words
  'labels.model.${field}': () =>
    unique([
      ...Object.keys(MODEL_KINDS).flatMap((kind) =>
        attn
          .modelFacts(kind)
          .fields.filter((field) => field.choices && entries.en.has(`labels.model.${field.name}.${field.choices[0]}`))
          .flatMap((field) => field.choices.map((choice) => `labels.model.${field.name}.${choice}`)),
      ),
      'labels.model.guide.0',
    ]),
  'labels.model.${field}.value': () => ['labels.model.layers.value', 'labels.model.guide.value'],
  // the sentiment walkthrough's menus, its training's choices and the published model it cites
  'sentiment.tasks.${id}': () => attn.classifierFacts().tasks.map((id) => `sentiment.tasks.${id}`),
  'sentiment.languages.${name}': () => attn.classifierFacts().languages.map((name) => `sentiment.languages.${name}`),
  'sentiment.languages.${language}': () =>
    attn.classifierFacts().languages.map((name) => `sentiment.languages.${name}`),
  'sentiment.rationales.${value}': () => ['0', '1'].map((value) => `sentiment.rationales.${value}`),
  'sentiment.published.${published}': () => ['bilstm', 'none'].map((name) => `sentiment.published.${name}`),
  'model.encoderNames.${name}': () =>
    ['default', ...attn.seq2seqFacts().encoders].map((name) => `model.encoderNames.${name}`),
  'field.comparisons.${name}': () =>
    attn
      .walkthroughInputs('seq2seq')
      .find((field) => field.name === 'comparison')
      .choices.map((name) => `field.comparisons.${name}`),
  'taskNames.${identity.task}': () => attn.seq2seqFacts().tasks.map((task) => `taskNames.${task}`),
  // the scene composer's menus and their options (scene-composer.js), and a captioner's name
  'scene.${key}': () => ['size', 'colour', 'shape'].map((key) => `scene.${key}`),
  'scene.faults.${part}': () => ['size', 'colour', 'shape'].map((part) => `scene.faults.${part}`),
  'scene.names.${name}': () => {
    const { sizes, colours, shapes } = attn.captionerFacts();
    return [...sizes, ...colours, ...shapes].map((name) => `scene.names.${name}`);
  },
  'scene.places.${row}${column}': () => {
    const { rows, columns } = attn.captionerFacts().layout;
    return Array.from({ length: rows * columns }, (_, i) => `scene.places.${Math.floor(i / columns)}${i % columns}`);
  },
  'field.captionLanguages.${language}': () =>
    attn.captionerFacts().languages.map((language) => `field.captionLanguages.${language}`),
  // the head view's token buttons, and the model view's attentions (head-view.js, model-view.js)
  'headView.${kind}': () => ['query', 'key'].map((kind) => `headView.${kind}`),
  'modelView.${attention}': () =>
    ['encoder', 'decoder', 'cross', 'attention'].map((attention) => `modelView.${attention}`),
  // the views of attention computed elsewhere (attention-views.js): their sentence pairs
  'attentionViews.sentences.${filter}': () =>
    ['all', 'aa', 'ab', 'ba', 'bb'].map((filter) => `attentionViews.sentences.${filter}`),
  'labels.scale.${end}': () => ['labels.scale.best', 'labels.scale.worst'], // a panel of measures' legend
};

// Keys passed to t() by name, and the keys each name takes.
const NAMED = {
  // a walkthrough's fields, and the model panel's training choices (spec.models.training)
  'field.label': () =>
    Object.values(SPECS).flatMap((spec) => [
      ...spec.fields.map((field) => field.label),
      ...(spec.models?.training?.fields.flatMap((field) => [
        field.label,
        ...(field.choiceLabel ? field.choices.map(field.choiceLabel) : []),
      ]) ?? []),
    ]),
  'shown.label': () => Object.values(SPECS).flatMap((spec) => spec.fields.map((field) => field.label)), // session.fileInputs
  'field.hint': () => Object.values(SPECS).flatMap((spec) => spec.fields.flatMap((field) => field.hint ?? [])),
  // the heatmap's texts, looked up by stage-view.js
  key: () => matches(code['components/stage-view.js'].match(/HEATMAP_TEXT = \[([^\]]*)\]/)[1], String.raw`'(\w+)'`),
};

// Labels of menus and answer choices are keys where the locale has them ('labels.model.scoring.dot', 'yes'),
// and texts shown as they are otherwise ('word_1', 'h4'): used where defined.
const labels = () => [
  ...menuOptions().map(([, label]) => label),
  ...questions().flatMap((q) => q.choices.map(([, label]) => label)),
];

function usedKeys() {
  const literal = [
    ...matches(allCode, `${T_CALL}'([^'\\\\]+)'`),
    ...matches(allCode, String.raw`translator\([^()]*\)\(\s*'([^']+)'`), // the language menu's names
    // the page's chrome: [selector, key] pairs set in a loop (main.js)
    ...matches(code['app/main.js'], String.raw`\[\s*'#[\w-]+',\s*'([\w.]+)'\s*\]`),
  ];
  const templates = matches(allCode, `${T_CALL}\`([^\`]*)\``);
  for (const template of templates) {
    assert.ok(template in TEMPLATES, `t(\`${template}\`) is new: say in TEMPLATES which keys it builds`);
  }
  const names = matches(allCode, String.raw`${T_CALL}([\w$.]+)\s*[,)]`);
  for (const name of names) {
    assert.ok(name in NAMED || name === 'label', `t(${name}) is new: say in NAMED which keys it takes`);
  }
  const built = [...new Set(templates)].flatMap((template) => TEMPLATES[template]());
  const named = [...new Set(names)].filter((name) => name !== 'label').flatMap((name) => NAMED[name]());
  return { exact: new Set([...literal, ...built, ...named]), labels: new Set(names.includes('label') ? labels() : []) };
}

describe('keys and code', () => {
  test('every key the code asks for is defined', () => {
    const { exact } = usedKeys();
    assert.ok(exact.size > 100, `only ${exact.size} keys found: is the source scan broken?`);
    assert.deepEqual(
      [...exact].filter((key) => !entries.en.has(key)),
      [],
    );
  });

  test('every defined key is used by the code', () => {
    const { exact, labels: labelKeys } = usedKeys();
    assert.deepEqual(
      [...entries.en.keys()].filter((key) => !exact.has(key) && !labelKeys.has(key)),
      [],
    );
  });

  test('the scan sees what it should: templates, named keys, chrome pairs and the heatmap texts', () => {
    const { exact, labels: labelKeys } = usedKeys();
    for (const key of [
      'stageOf', // a literal
      'keyboardHint', // a [selector, key] pair
      'exportNumpy', // HEATMAP_TEXT
      'seq2seq.stages.step.title', // describeStage's template
      'basics.questions.softmax-share.wrong', // the controller's template
      'errors.ragged', // a FieldError key
      'field.sentenceHint', // a spec's hint
    ]) {
      assert.ok(exact.has(key), key);
    }
    assert.ok(labelKeys.has('labels.model.scoring.concat') && labelKeys.has('yes') && labelKeys.has('word_1'));
    assert.deepEqual(fieldErrorKeys.sort(), ['empty', 'integer', 'notNumber', 'ragged']);
  });
});
