// The walkthrough specs (web/walkthroughs/): a formula and code for exactly the stage kinds the
// engine's traces produce, texts in both languages, the notebooks' exact code and LaTeX that KaTeX
// renders, for the notebooks' inputs and edited ones.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import katex from 'katex';
import { loadAttention } from 'attention-stepper';

import { translator } from '../../web/components/i18n.js';
import { DRAWING_NAMES } from '../../web/components/stage-view.js';
import { describeStage, hasModels, inputAttributes, SPECS, WALKTHROUGHS } from '../../web/walkthroughs/index.js';
import { loadAllWalkthroughs } from './all-walkthroughs.js';
import { loadFixture } from './pretrained-fixtures.js';

await loadAllWalkthroughs(); // chunks of their own, as the page loads them

const attn = await loadAttention({ threads: 1, models: true });
const t = { en: translator('en'), zh: translator('zh') };

// Small untrained models: the seq2seq and scoring walkthroughs' numbers are the models', the
// spec's words the same.
const model = (task, scoring, options = {}) =>
  attn.createSeq2seq({ task, scoring, embedding: 4, hidden: 8, ...options });
const fourModels = (task) => ['additive', 'dot', 'general', 'concat'].map((scoring) => model(task, scoring));
// Bahdanau's model read one way and both ways (its default), of two layers, and trained a step
// with guided alignment
const transformer = (task) => attn.createTransformer({ task, model: 8, feedforward: 16 });
const oneWay = model('en-fr', 'additive', { encoder: 'forward' });
const bothWays = model('en-fr', 'additive');
const stacked = model('en-fr', 'additive', { layers: 2 });
const guided = model('en-fr', 'additive');
guided.train({ steps: 1, batch: 2, guide: 1 });

const captioner = (language) =>
  attn.createCaptioner({ task: 'shapes', language, channels: 4, annotation: 4, attention: 4, embedding: 4, hidden: 8 });

const classifier = (options) => attn.createClassifier({ task: 'reviews', embedding: 4, hidden: 8, ...options });

// A checkpoint of each family, reading a text (its tokenizer's ids) at a layer and head.
const checkpoints = Object.fromEntries(
  await Promise.all(['gpt2', 'llama', 'bert', 'distilbert'].map(async (name) => [name, await loadFixture(attn, name)])),
);
const reading = (name, sentence, options = {}) => ({
  model: checkpoints[name],
  ids: checkpoints[name].tokenize(sentence).ids,
  sentence,
  ...options,
});

// The inputs each walkthrough is described for: the notebook's ({}) and edited ones.
const VARIANTS = {
  pretrained: [
    reading('gpt2', 'the fox'),
    reading('llama', 'the fox jumps', { layer: 1, head: 3 }),
    reading('bert', 'the fox', { layer: 1 }),
    reading('distilbert', 'the fox', { head: 1 }),
  ],
  sentiment: [
    { model: classifier() },
    { model: classifier(), uniform: classifier({ attention: 'uniform' }), sentence: 'the food was good'.split(' ') },
    {
      model: classifier({ language: 'zh', encoder: 'none', embedding: 8 }),
      language: 'zh',
      encoder: 'none',
      sentence: '服务员 非常 棒'.split(' '),
    },
    // a sentence the grammar would not write: no rationale
    { model: classifier(), sentence: 'the food was'.split(' ') },
    // the uniform model on screen
    { model: classifier({ attention: 'uniform' }) },
  ],
  captioning: [
    { model: captioner('en') },
    { model: captioner('zh'), language: 'zh', scene: 'small green triangle 1 0'.split(' '), beam: 2 },
  ],
  seq2seq: [
    { model: model('en-fr', 'additive') },
    { scoring: 'dot', model: model('en-fr', 'dot') },
    {
      task: 'en-zh',
      scoring: 'general',
      model: model('en-zh', 'general'),
      sentence: ['I', 'eat', 'rice', 'at', 'home', 'today'],
      beam: 3,
    },
    { task: 'dates', scoring: 'concat', model: model('dates', 'concat'), sentence: ['23', 'November', '2026'] },
    {
      model: model('en-fr', 'additive'),
      compare: ['additive', 'dot', 'general', 'concat'].map((scoring) => model('en-fr', scoring)),
    },
    { model: stacked, layers: 2 },
    { model: oneWay, encoder: 'forward', comparison: 'encoder', compare: [oneWay, bothWays] },
    { model: guided, guide: '1', comparison: 'guide', compare: [bothWays, guided] },
  ],
  basics: [
    {},
    {
      decoderState: [1, 0],
      annotations: [
        [1, 0],
        [0, 1],
        [2, 2],
      ],
      seed: 3,
    },
    { decoderState: [0.1, 1e-5, 1e16], annotations: [[1, 2, 3]] },
  ],
  'self-attention': [
    {},
    {
      embeddings: [
        [1, 0],
        [0, 1],
      ],
      word: 1,
      high: 5,
      seed: 0,
    },
  ],
  scoring: [
    { models: fourModels('en-fr') },
    { models: [model('en-fr', 'dot'), model('en-fr', 'additive')], step: 1 },
    {
      task: 'en-zh',
      models: [model('en-zh', 'general')],
      sentence: ['I', 'eat', 'rice', 'at', 'home', 'today'],
      step: 3,
    },
    { task: 'dates', models: [model('dates', 'concat')], sentence: ['23', 'November', '2026'], step: 5 },
    { models: fourModels('en-fr'), sentence: ['the', 'car', 'car'], step: 1 },
    { comparison: 'encoder', models: [oneWay, bothWays], step: 1 },
    { comparison: 'guide', models: [bothWays, guided] },
    { comparison: 'encoder', models: [stacked], layers: 2 },
  ],
  numerics: [{}, { scores: [1, 2, 3], mask: [0, 0, 1], seed: 3 }, { scores: [1e5], mask: [1] }],
  transformer: [
    { model: transformer('en-fr') },
    { model: transformer('en-fr'), layer: 2, head: 2, beam: 2, compare: [model('en-fr', 'additive')] },
    { task: 'en-zh', model: transformer('en-zh'), sentence: ['I', 'eat', 'rice', 'at', 'home', 'today'] },
    { task: 'dates', model: transformer('dates'), sentence: ['23', 'November', '2026'] },
  ],
};

/** The trace of `given`, and its inputs completed with the engine's defaults, as the session has them. */
function computed(name, given) {
  const defaults = Object.fromEntries(
    attn
      .walkthroughInputs(name)
      .filter((field) => !field.optional)
      .map((field) => [field.name, field.default]),
  );
  const inputs = { ...defaults, ...given };
  return { trace: attn.walkthrough(name, inputs), inputs };
}

const everyVariant = () =>
  Object.entries(VARIANTS).flatMap(([name, list]) => list.map((given) => ({ name, given, ...computed(name, given) })));
const label = ({ name, given }) =>
  `${name} ${JSON.stringify(given, (key, value) => (value?.config ? Object.values(value.config).slice(0, 5).join('/') : value))}`;
const stageOf = (trace, id) => trace.stages.find((stage) => stage.id === id);
/** describeStage for the stage `id` of the trace of `given`. */
const described = (name, given, id, lang = 'en') => {
  const { trace, inputs } = computed(name, given);
  return describeStage(trace, stageOf(trace, id), inputs, t[lang]);
};

describe('stage kinds', () => {
  test('a spec for every walkthrough, named as the walkthrough; those with models are the ones loaded with them', () => {
    assert.deepEqual(Object.keys(SPECS).sort(), [...attn.walkthroughNames].sort());
    assert.deepEqual(WALKTHROUGHS, attn.walkthroughNames); // in the page's order too
    for (const [name, spec] of Object.entries(SPECS)) {
      assert.equal(spec.name, name);
      assert.equal(hasModels(name), Boolean(spec.models), name);
      if (!hasModels(name)) assert.deepEqual(inputAttributes(name), [], name);
      // an attribute is one of the form's inputs
      for (const attribute of inputAttributes(name))
        assert.ok(
          spec.fields.some((field) => field.name === attribute),
          `${name}: ${attribute}`,
        );
    }
    // a name that is none, an Object.prototype key included, has no models and takes no attributes
    for (const name of ['nope', 'constructor', undefined]) {
      assert.equal(hasModels(name), false);
      assert.deepEqual(inputAttributes(name), []);
    }
  });

  test('every spec covers every stage kind its traces produce, and nothing else', () => {
    const produced = Object.fromEntries(attn.walkthroughNames.map((name) => [name, new Set()]));
    for (const variant of everyVariant()) {
      for (const stage of variant.trace.stages) {
        assert.ok(stage.kind in SPECS[variant.name].stages, `${label(variant)}: no spec for ${stage.kind}`);
        produced[variant.name].add(stage.kind);
      }
    }
    for (const name of attn.walkthroughNames) {
      assert.deepEqual([...produced[name]].sort(), Object.keys(SPECS[name].stages).sort(), name);
    }
  });

  test('the drawings a spec names instead of heatmaps are ones the stage view has, for colour roles its traces use', () => {
    const palettes = Object.fromEntries(attn.walkthroughNames.map((name) => [name, new Set()]));
    for (const variant of everyVariant())
      for (const panel of variant.trace.stages.flatMap((stage) => stage.panels))
        palettes[variant.name].add(panel.palette);
    for (const [name, spec] of Object.entries(SPECS)) {
      for (const [kind, stage] of Object.entries(spec.stages))
        if (stage.view !== undefined)
          assert.ok(DRAWING_NAMES.stages.includes(stage.view), `${name}/${kind}: ${stage.view}`);
      for (const [palette, drawing] of Object.entries(spec.drawings ?? {})) {
        assert.ok(DRAWING_NAMES.panels.includes(drawing), `${name}: ${palette} drawn as ${drawing}`);
        assert.ok(palettes[name].has(palette), `${name}: no panel of palette ${palette}`);
      }
    }
    assert.deepEqual(SPECS.captioning.drawings, { image: 'picture', overlay: 'picture' });
  });

  test("the scoring walkthrough: a panel per model, the formulas and code of the models' functions", () => {
    const [four, two] = VARIANTS.scoring;
    for (const id of ['encoder-states', 'decoder-states', 'compare-scores']) {
      assert.deepEqual(
        stageOf(computed('scoring', two).trace, id).panels.map((panel) => panel.name),
        ['dot', 'additive'],
      );
    }
    // the gold alignment of the step's word, when the grammar makes the sentence
    const weights = (given) =>
      stageOf(computed('scoring', given).trace, 'compare-weights').panels.map(({ name }) => name);
    assert.deepEqual(weights(four), ['additive', 'dot', 'general', 'concat', 'gold']);
    assert.deepEqual(weights(VARIANTS.scoring[4]), ['additive', 'dot', 'general', 'concat']);
    assert.equal(
      described('scoring', two, 'compare-scores').code,
      "# attention, s_t (s_prev) and annotations: each model's own\n" +
        "scores['dot'] = annotations @ s_t\n" +
        "scores['additive'] = attention.va(torch.tanh(attention.Wa(s_prev) + attention.Ua(annotations)))",
    );
    const formula = (given) => described('scoring', given, 'compare-scores').formula;
    assert.match(formula(four), /\\text\{dot\}/);
    assert.doesNotMatch(formula(VARIANTS.scoring[2]), /\\text\{dot\}/);
    // the state that scores: Bahdanau's before the step (at step 1 the decoder's start, here
    // bridged from ←h_1), Luong's the step's
    assert.equal(
      described('scoring', two, 'decoder-states').formula,
      '\\begin{aligned}\\text{dot} &: s_{1} = \\operatorname{GRU}(E_{y_{0}},\\ s_{0})\\\\ \\text{additive} &: s_0 = \\tanh(W_s \\overleftarrow{h}_1)\\end{aligned}',
    );
    assert.match(
      described('scoring', four, 'decoder-states').formula,
      /s_\{1\} = \\operatorname\{GRU\}\(\[E_\{y_\{0\}\}; c_\{1\}\]/,
    );
    assert.match(described('scoring', four, 'decoder-states').code, /^prefix = \['<sos>', 'la'\]$/m);
    assert.equal(described('scoring', four, 'compare-weights').title, 'Where each model looks to write “voiture”');
    assert.equal(described('scoring', four, 'compare-weights', 'zh').title, '各模型为写出“voiture”关注哪里');
  });

  test("the seq2seq walkthrough: the model's steps, the code and formula of its scoring function", () => {
    const given = VARIANTS.seq2seq[2];
    const { trace } = computed('seq2seq', given);
    const steps = trace.stages.filter((stage) => stage.kind === 'step');
    assert.equal(steps.length, trace.labels.target.length);
    assert.deepEqual(trace.labels.source, [...given.sentence, '<eos>']);
    const step = described('seq2seq', given, 'step-1');
    assert.equal(step.title, `Decoder step 1: “${trace.labels.target[0]}”`);
    assert.match(step.code, /^scores = attention\.Wa\(annotations\) @ s_t$/m);
    assert.match(step.formula, /s_t\^\\top W_a h_j/);
    assert.match(described('seq2seq', VARIANTS.seq2seq[0], 'step-1').formula, /W_a s_\{t-1\}/);
    assert.match(described('seq2seq', VARIANTS.seq2seq[0], 'source').code, /"the red car is small <eos>"/);
  });

  test('the projections follow the word followed step by step', () => {
    assert.equal(
      described('self-attention', { word: 2 }, 'projections').code,
      'query_3 = word_3 @ W_Q\nkey_3 = word_3 @ W_K\nvalue_3 = word_3 @ W_V',
    );
  });
});

describe('what each stage shows', () => {
  test('a title, text, formula and code in en and zh, every {placeholder} filled', () => {
    for (const variant of everyVariant()) {
      for (const stage of variant.trace.stages) {
        const where = `${label(variant)} ${stage.id}`;
        const [en, zh] = ['en', 'zh'].map((lang) => describeStage(variant.trace, stage, variant.inputs, t[lang]));
        for (const [lang, shown] of [
          ['en', en],
          ['zh', zh],
        ]) {
          for (const part of ['title', 'formula', 'code']) {
            assert.equal(typeof shown[part], 'string', `${where} ${lang} ${part}`);
            assert.notEqual(shown[part].trim(), '', `${where} ${lang} ${part}`);
          }
          assert.ok(shown.paragraphs.length > 0, `${where} ${lang}`);
          for (const text of [shown.title, ...shown.paragraphs]) {
            assert.notEqual(text.trim(), '', `${where} ${lang}: an empty paragraph`);
            assert.doesNotMatch(text, /\{\w+\}/, `${where} ${lang}: a placeholder left`);
          }
        }
        assert.match(zh.title, /\p{Script=Han}/u, `${where}: the zh title is Chinese`);
        assert.notEqual(zh.paragraphs.join(), en.paragraphs.join(), where);
        // formula and code do not depend on the language
        assert.equal(zh.formula, en.formula, where);
        assert.equal(zh.code, en.code, where);
      }
    }
  });

  test('every formula is LaTeX that KaTeX renders', () => {
    for (const variant of everyVariant()) {
      for (const stage of variant.trace.stages) {
        const { formula } = describeStage(variant.trace, stage, variant.inputs, t.en);
        assert.doesNotThrow(
          () => katex.renderToString(formula, { throwOnError: true, displayMode: true }),
          `${label(variant)} ${stage.id}: ${formula}`,
        );
      }
    }
  });

  test("the notebooks' code and titles for the notebooks' inputs", () => {
    assert.equal(described('basics', {}, 'decoder-state').code, 'dec_hidden_state = [5,1,20]');
    assert.equal(described('basics', {}, 'annotation').code, 'annotation = [3,12,45] #e.g. Encoder hidden state');
    assert.equal(
      described('basics', {}, 'annotations').code,
      'annotations = np.transpose([[3,12,45], [59,2,5], [1,43,5], [4,3,45.3]])',
    );
    assert.equal(
      described('basics', {}, 'attentional-state').code,
      'np.random.seed(0)\nW_c = np.random.randn(3, 6) * 0.1\n' +
        'h_tilde = np.tanh(W_c @ np.concatenate([attention_vector, dec_hidden_state]))',
    );
    assert.equal(
      described('self-attention', {}, 'weight-matrices').code,
      'np.random.seed(42)\nW_Q = np.random.randint(3, size=(3, 3))\n' +
        'W_K = np.random.randint(3, size=(3, 3))\nW_V = np.random.randint(3, size=(3, 3))',
    );
    assert.equal(described('self-attention', {}, 'word-scores').title, 'Scores of word_1 against every key');
    assert.equal(described('self-attention', {}, 'embeddings').code.split('\n')[3], 'word_4 = np.array([0,0,1])');
  });

  test('edited inputs: the code, formulas and titles follow them', () => {
    assert.equal(described('basics', VARIANTS.basics[2], 'decoder-state').code, 'dec_hidden_state = [0.1,1e-05,1e+16]');
    assert.equal(described('basics', VARIANTS.basics[1], 'annotations').formula, 'H = [h_1, \\dots, h_{3}]');
    assert.match(
      described('basics', VARIANTS.basics[1], 'attentional-state').code,
      /^np\.random\.seed\(3\)\nW_c = np\.random\.randn\(2, 4\)/,
    );
    const words = VARIANTS['self-attention'][1];
    assert.equal(described('self-attention', words, 'word-scores').title, 'Scores of word_2 against every key');
    assert.equal(described('self-attention', words, 'word-scores').formula, 'e_{2j} = q_{2} \\cdot k_j');
    assert.equal(
      described('self-attention', words, 'word-scores').code,
      'scores = np.array([np.dot(query_2, key_1), np.dot(query_2, key_2)])',
    );
    assert.equal(
      described('self-attention', words, 'weight-matrices').formula,
      'W^Q,\\ W^K,\\ W^V \\in \\{0, \\dots, 4\\}^{2 \\times 2}',
    );
    assert.equal(
      described('scoring', VARIANTS.scoring[2], 'encoder-states').code.split('\n')[0],
      'ids = torch.tensor([source_vocab.index(w) for w in "I eat rice at home today <eos>".split()])',
    );
  });
});

test('scoring: the titles say how many of the scoring functions have a trained model on screen', () => {
  const title = (models, lang) => described('scoring', { models, step: 2 }, 'encoder-states', lang).title;
  assert.equal(
    title([model('en-fr', 'additive')], 'en'),
    'The trained models read the sentence (1 of 4 scoring functions)',
  );
  assert.equal(title(fourModels('en-fr'), 'en'), 'The trained models read the sentence (4 of 4 scoring functions)');
  assert.match(title([model('en-fr', 'additive')], 'zh'), /4 种评分函数中的 1 种/);
});

describe('the encoder and the comparison, as the models are', () => {
  const [, , , , , twoLayers, byEncoder, byGuide] = VARIANTS.seq2seq;

  test("the encoder stage follows the model's encoder and layers", () => {
    const forward = described('seq2seq', { model: oneWay, encoder: 'forward' }, 'encoder');
    assert.equal(forward.title, 'The encoder unrolled: one hidden state per token');
    assert.match(forward.paragraphs.join(), /s₀ = hₙ/);
    assert.equal(forward.formula, 'h_j = \\operatorname{GRU}(E_{x_j},\\ h_{j-1}),\\ h_0 = 0,\\quad s_0 = h_n');
    assert.match(forward.code, /^# encoder\.gru = nn\.GRU\(E, H\)$/m);

    const both = described('seq2seq', { model: bothWays }, 'encoder');
    assert.match(both.title, /both ways/);
    assert.match(both.paragraphs[0], /bidirectional/);
    assert.match(both.formula, /h_j = \[\\overrightarrow\{h\}_j; \\overleftarrow\{h\}_j\]/);
    assert.match(both.formula, /s_0 = \\tanh\(W_s \\overleftarrow\{h\}_1\)/);
    assert.match(both.code, /bidirectional=True/);
    assert.match(both.code, /^s_0 = torch\.tanh\(encoder\.bridge\(h_n\[1::2\]\)\)/m);
    assert.match(described('seq2seq', { model: bothWays }, 'encoder', 'zh').title, /双向/);

    // two layers: the top one's states are scored, and the text says so
    const two = described('seq2seq', twoLayers, 'encoder');
    assert.equal(two.paragraphs.length, 3);
    assert.match(two.paragraphs[2], /two layers/);
    assert.match(two.formula, /h_j = h\^\{\(2\)\}_j/);
    assert.match(two.code, /num_layers=2, bidirectional=True/);
  });

  test('the comparison says what it compares, in its title, formula and code', () => {
    assert.equal(described('seq2seq', byEncoder, 'compare').title, 'One-way and bidirectional encoders side by side');
    assert.match(described('seq2seq', byEncoder, 'compare').formula, /\\text\{forward\}.*\\text\{bidirectional\}/);
    assert.match(described('seq2seq', byEncoder, 'compare').code, /# forward, bidirectional$/m);
    assert.equal(described('seq2seq', byGuide, 'compare').title, 'Free and guided training side by side');
    assert.match(described('seq2seq', byGuide, 'compare').formula, /\\lambda/);
    assert.equal(described('seq2seq', byGuide, 'compare', 'zh').title, '自由训练与引导训练并排');
    const scoring = VARIANTS.scoring;
    assert.match(described('scoring', scoring[5], 'encoder-states').title, /two encoders/);
    assert.equal(
      described('scoring', scoring[6], 'compare-scores').title,
      'The scores side by side (2 models, one scoring function)',
    );
    assert.match(described('scoring', scoring[6], 'compare-weights').title, /free and the guided/);
    // one scoring function: one formula for both models
    assert.equal(
      described('scoring', scoring[5], 'compare-scores').formula,
      '\\begin{aligned}\\text{forward, bidirectional} &: e_{t,j} = v_a^\\top \\tanh(W_a s_{t-1} + U_a h_j)\\end{aligned}',
    );
    assert.match(described('scoring', scoring[6], 'decoder-states').code, /^s_prev\['guide=1'\] = decode/m);
    // comparing scoring functions, a bidirectional model among them gets a word; two layers too
    assert.equal(described('scoring', scoring[0], 'encoder-states').paragraphs.length, 3);
    assert.match(described('scoring', scoring[7], 'encoder-states').paragraphs.at(-1), /two layers/);
  });
});

describe('the transformer walkthrough', () => {
  test("the tutorial model's names for the chosen layer and head, and the model view opens a head", () => {
    const given = VARIANTS.transformer[1];
    assert.match(
      described('transformer', given, 'encoder-qkv').code,
      /model\.transformer\.encoder\.layers\[1\]\.self_attn/,
    );
    assert.match(described('transformer', given, 'encoder-qkv').code, /h, d_k = 1, 4/);
    assert.match(described('transformer', given, 'cross').code, /decoder\.layers\[1\]\.multihead_attn/);
    assert.match(described('transformer', given, 'head-view-decoder').code, /decoder\.layers\[1\]\.self_attn/);
    assert.equal(
      described('transformer', given, 'encoder-qkv').title,
      'Encoder layer 2, head 2: queries, keys and values',
    );
    const { open } = SPECS.transformer.stages['model-view'];
    assert.deepEqual(open('cross-2-1'), { inputs: { layer: '2', head: '1' }, stage: 'cross' });
    assert.deepEqual(open('encoder-1-2'), { inputs: { layer: '1', head: '2' }, stage: 'encoder-qkv' });
  });
});

test('sentiment: the weights and accuracy stages say what the shipped models’ numbers show, in en and zh', async () => {
  for (const [language, learnedWord, lang] of [
    ['en', 'far more', 'en'],
    ['zh', '但并不多很多', 'zh'],
  ]) {
    const shipped = (attention) => attn.loadShippedModel({ kind: 'classifier', task: 'reviews', language, attention });
    const [model, uniform] = await Promise.all([shipped('learned'), shipped('uniform')]);
    const sentence = attn.walkthroughInputs('sentiment').find((field) => field.name === 'sentence').default;
    const inputs = {
      model,
      uniform,
      language,
      ...(language === 'zh' ? { sentence: '服务员 非常 棒'.split(' ') } : { sentence }),
    };
    const trace = attn.walkthrough('sentiment', inputs);
    const stage = (id) => trace.stages.find((s) => s.id === id);
    const weights = describeStage(trace, stage('weights'), inputs, t[lang]).paragraphs.join(' ');
    const [learned, even] = stage('weights').panels.find((p) => p.name === 'rationale_share').data;
    // the words follow the measured shares (the issue: en 0.42 against 0.16, zh 0.39 against 0.28)
    assert.ok(weights.includes(learnedWord), `${language}: ${learned} against ${even}: ${weights}`);
    assert.ok(learned >= 1.5 * even === (language === 'en'));
    assert.ok(weights.includes(`${Math.round(learned * 100)}`));
    const accuracy = describeStage(trace, stage('accuracy'), inputs, t[lang]).paragraphs.join(' ');
    const [ownAccuracy, uniformAccuracy] = [0, 1].map(
      (k) =>
        stage('accuracy').panels.find((p) => p.name === 'accuracy').data[
          k * stage('accuracy').panels.find((p) => p.name === 'accuracy').cols
        ],
    );
    const asGood = uniformAccuracy >= ownAccuracy - 1e-3;
    assert.match(accuracy, asGood ? /: as good\.|：一样好。/ : /: worse\.|：更差。/);
    assert.doesNotMatch(accuracy, /If that is as good|如果一样好/);
    model.dispose();
    uniform.dispose();
  }
});
