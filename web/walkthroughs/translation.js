// What the two walkthroughs of trained translation models (seq2seq, scoring) share: their models
// and the fields that pick them, the comparison, the task field, each task's sample sentence, the
// scoring functions and encoders as the trained models compute them, as formulas and as the
// reference model's PyTorch.
import { labelText, taskName } from '../locales/format.js';
import { learningRateChoice, SEED_CHOICE, taskField } from './training-choices.js';

// Guided alignment's weight the comparison of training sets against learning freely.
const GUIDED = 1;

// The reader's own sentence pairs, as the model panel's data (model-data.js) reads them: the
// locale's words for them, the engine's facts of tasks from text, the column the reader picks (the
// source's), the grammars' tasks as samples, the statistics' numbers, a pair as its tokens.
export const PAIRS_DATA = {
  texts: 'data.pairs',
  facts: (attn) => attn.translationTaskFacts(),
  column: { name: 'sourceColumn', count: 2 },
  samples: (attn) =>
    attn.translationTaskFacts().samples.map((id) => ({
      id,
      label: (t) => taskName(id, t),
      read: () => attn.translationTaskSample(id),
    })),
  lines: (stats) => stats.pairs,
  stats: ({ stats }) => ({ pairs: stats.pairs, source: stats.sourceVocabulary, target: stats.targetVocabulary }),
  preview: (task, [source, target]) => [task.tokenize(source, 'source'), task.tokenize(target, 'target')],
  placeholder: 'Go.\tVa !\nRun!\tCours !',
};

// The models the walkthroughs show: the engine's seq2seq models, one per identity (task, scoring
// function, encoder, layers, guided alignment's weight: MODEL_KINDS; the form's fields pick it),
// with what the model panel trains them with and shows as they learn.
export const TRANSLATION_MODELS = {
  kind: 'seq2seq',
  // the models the comparison sets side by side: the one the form picks, with each value of the
  // field compared (each scoring function keeps its own default encoder unless the form says one)
  compared(inputs, attn) {
    const { task, scoring, encoder, layers, guide, comparison } = inputs;
    const facts = attn.seq2seqFacts();
    const values = { scoring: facts.scorings, encoder: facts.encoders, guide: [facts.defaults.guide, GUIDED] };
    return values[comparison].map((value) => ({ task, scoring, encoder, layers, guide, [comparison]: value }));
  },
  // those of them the store has trained (shipped, or trained here), and how many there are
  trainedOf(inputs, models, attn) {
    const compared = TRANSLATION_MODELS.compared(inputs, attn);
    return { trained: models.trained(TRANSLATION_MODELS.kind, compared), compared };
  },
  // a model's name on screen, of the identity's fields it is given: "Luong dot, English → French",
  // "Bahdanau additive, one-way, English → French"
  label: (identity, t) => t('model.name', { model: labelText(identity, t), task: taskName(identity.task, t) }),
  // they learn the reader's own pairs too (the model panel's data, model-data.js)
  data: PAIRS_DATA,
  training: {
    // the panel's choices: each one's options of the run ('model': createSeq2seq's, 'train': train()'s)
    fields: [
      SEED_CHOICE,
      learningRateChoice(['0.002', '0.005', '0.01', '0.02'], '0.005'),
      {
        // "embedding/hidden": createSeq2seq's default (the shipped models') in the middle
        name: 'size',
        label: 'model.size',
        into: 'model',
        choices: ['16/32', '32/64', '64/128'],
        value: '32/64',
        options: (v) => Object.fromEntries(v.split('/').map((size, i) => [['embedding', 'hidden'][i], Number(size)])),
      },
    ],
    // each evaluation shows the alignment of the sentence on screen
    probe: ({ sentence }) => ({ sentence }),
    // the words the model reads, as chips that append themselves to the sentence
    vocabulary: {
      field: 'sentence',
      words: ({ vocab }) => vocab.source.filter((word) => !word.startsWith('<')),
      // words join with spaces; the characters of dates join as they are ("▁" is a space)
      append: ({ vocab }, typed, word) =>
        vocab.unit === 'character'
          ? typed + (word === '▁' ? ' ' : word)
          : [typed.trimEnd(), word].filter(Boolean).join(' '),
      show: (word) => (word === '▁' ? '␣' : word),
    },
  },
};

// e_{t,j} for each scoring function. Bahdanau's scores with the state before the step, s_{t-1};
// Luong's with the step's own, s_t.
export const SCORE_FORMULAS = {
  additive: 'v_a^\\top \\tanh(W_a s_{t-1} + U_a h_j)',
  dot: 's_t^\\top h_j',
  general: 's_t^\\top W_a h_j',
  concat: 'v_a^\\top \\tanh(W_a [s_t; h_j])',
};

// The same, as tests/fixtures/make_seq2seq_fixtures.py computes them: the scores of every
// annotation at once.
export const SCORE_CODE = {
  additive: 'attention.va(torch.tanh(attention.Wa(s_prev) + attention.Ua(annotations)))',
  dot: 'annotations @ s_t',
  general: 'attention.Wa(annotations) @ s_t',
  concat: 'attention.va(torch.tanh(attention.Wa(torch.cat([s_t.expand_as(annotations), annotations], 1))))',
};

// The sentence a task opens on (the engine's default is en-fr's): one its grammar makes.
export const SAMPLE_SENTENCES = {
  'en-fr': 'the red car is small',
  'en-zh': 'I eat rice at home today',
  dates: '23 November 2026',
};

// The encoder and layers of the model on screen (the engine's default encoder follows the scoring
// function: both ways for Bahdanau's additive), and guided alignment's weight λ it was trained
// with.
export const MODEL_FIELDS = [
  {
    name: 'encoder',
    label: 'field.encoder',
    options: ({ field }) => field.choices.map((name) => [name, `model.encoderNames.${name}`]),
  },
  { name: 'layers', label: 'field.layers' },
  { name: 'guide', label: 'field.guide' },
];

// What the comparison sets side by side: the scoring functions, the encoders or the training.
export const COMPARISON_FIELD = {
  name: 'comparison',
  label: 'field.comparison',
  options: ({ field }) => field.choices.map((name) => [name, `field.comparisons.${name}`]),
};

/** The field the models on screen differ in, and whether any reads both ways or stacks layers. */
export function comparedOf(trace, inputs) {
  return {
    comparison: inputs.comparison,
    bidirectional: trace.models.some((model) => model.encoder === 'bidirectional'),
    stacked: trace.models.some((model) => model.layers > 1),
  };
}

/** The encoder's equations for `model` ({ encoder, layers }): the annotations h_j and the decoder's start s_0. */
export function encoderFormula({ encoder, layers }) {
  const l = layers > 1 ? '^{(l)}' : '';
  const input = layers > 1 ? `x${l}_j` : 'E_{x_j}';
  const lines =
    encoder === 'bidirectional'
      ? [
          `\\overrightarrow{h}${l}_j = \\overrightarrow{\\operatorname{GRU}}(${input},\\ \\overrightarrow{h}${l}_{j-1})`,
          `\\overleftarrow{h}${l}_j = \\overleftarrow{\\operatorname{GRU}}(${input},\\ \\overleftarrow{h}${l}_{j+1})`,
          `h${l}_j = [\\overrightarrow{h}${l}_j; \\overleftarrow{h}${l}_j]`,
          `s${l}_0 = \\tanh(W_s \\overleftarrow{h}${l}_1)`,
        ]
      : [`h${l}_j = \\operatorname{GRU}(${input},\\ h${l}_{j-1}),\\ h${l}_0 = 0`, `s${l}_0 = h${l}_n`];
  // layer l reads the states of the layer below; the top layer's are scored
  if (layers > 1) lines.push('x^{(1)}_j = E_{x_j},\\ x^{(2)}_j = h^{(1)}_j,\\ h_j = h^{(2)}_j');
  return lines.join(',\\quad ');
}

/** The same as the reference model's PyTorch: the GRU it is, the annotations and s_0. */
export function encoderCode({ encoder, layers }) {
  const both = encoder === 'bidirectional';
  const each = layers > 1 ? ' of each layer' : '';
  return [
    `# encoder.gru = nn.GRU(E, ${both ? 'H // 2' : 'H'}${layers > 1 ? `, num_layers=${layers}` : ''}${both ? ', bidirectional=True' : ''})`,
    `annotations, h_n = encoder.gru(embedded)  # the top layer's ${both ? '[→h_j; ←h_j]' : 'h_j'}, one per source token`,
    ...(both
      ? [
          'forward_states, backward_states = annotations.split(H // 2, dim=-1)',
          `s_0 = torch.tanh(encoder.bridge(h_n[1::2]))  # ←h_1${each}: the backward direction ends at the first token`,
        ]
      : [`s_0 = h_n  # h_n${each}: the decoder starts where the encoder ended`]),
  ].join('\n');
}

export const TASK_FIELD = taskField((id) => `taskNames.${id}`);

export const SENTENCE_FIELD = { name: 'sentence', label: 'field.sentence', hint: 'field.sentenceHint' };

// The Chinese edition opens on the English → Chinese task, and another task starts from a
// sentence of its own.
export const taskDefaults = (lang) => (lang === 'zh' ? { task: 'en-zh', sentence: SAMPLE_SENTENCES['en-zh'] } : {});
export const adjustToTask = (inputs, changed) =>
  changed === 'task' && SAMPLE_SENTENCES[inputs.task] ? { ...inputs, sentence: SAMPLE_SENTENCES[inputs.task] } : inputs;

/** The source tokens of a trace, as the encoder reads them (<eos> last). */
export const sourceText = (trace) => trace.labels.source.join(' ');
