// What the two walkthroughs of trained translation models (seq2seq, scoring) share: their models,
// the task field, each task's sample sentence, and the scoring functions as the trained models
// compute them, as formulas and as the reference model's PyTorch.

// The models the walkthroughs show: the engine's seq2seq models, one per task and scoring function
// (its identity, MODEL_KINDS), with what the model panel trains them with and shows as they learn.
export const TRANSLATION_MODELS = {
  kind: 'seq2seq',
  // every scoring function's model of the task, in the engine's order
  compared: ({ task }, attn) => attn.seq2seqFacts().scorings.map((scoring) => ({ task, scoring })),
  // those of them the store has trained (shipped, or trained here), and how many there are
  trainedOf(inputs, models, attn) {
    const compared = TRANSLATION_MODELS.compared(inputs, attn);
    return { trained: models.trained(TRANSLATION_MODELS.kind, compared), compared };
  },
  // a model's name on screen: "Luong dot, English → French"
  label: ({ task, scoring }, t) => `${t(`scoreNames.${scoring}`)}, ${t(`taskNames.${task}`)}`,
  training: {
    // the panel's choices: each one's options of the run ('model': createSeq2seq's, 'train': train()'s)
    fields: [
      { name: 'seed', label: 'field.seed', into: 'model', number: { min: 0, value: 0 }, options: (v) => ({ seed: v }) },
      {
        name: 'learningRate',
        label: 'model.learningRate',
        into: 'train',
        choices: ['0.002', '0.005', '0.01', '0.02'],
        value: '0.005',
        options: (v) => ({ learningRate: Number(v) }),
      },
      {
        // the engine's default follows the scoring function: both ways for Bahdanau's additive
        name: 'encoder',
        label: 'model.encoder',
        into: 'model',
        choices: ['default', 'forward', 'bidirectional'],
        value: 'default',
        choiceLabel: (choice) => `model.encoderNames.${choice}`,
        options: (v) => (v === 'default' ? {} : { encoder: v }),
      },
      {
        name: 'layers',
        label: 'model.layers',
        into: 'model',
        choices: ['1', '2'],
        value: '1',
        options: (v) => ({ layers: Number(v) }),
      },
      {
        // guided alignment's weight λ: 0 learns freely
        name: 'guide',
        label: 'model.guide',
        into: 'train',
        choices: ['0', '0.5', '1'],
        value: '0',
        options: (v) => ({ guide: Number(v) }),
      },
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
    probe: ({ sentence }) => ({ sentence: sentence.join(' ') }),
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
  'en-fr': ['the', 'red', 'car', 'is', 'small'],
  'en-zh': ['I', 'eat', 'rice', 'at', 'home', 'today'],
  dates: ['23', 'November', '2026'],
};

export const TASK_FIELD = {
  name: 'task',
  label: 'field.task',
  options: ({ field }) => field.choices.map((name) => [name, `taskNames.${name}`]),
};

export const SENTENCE_FIELD = { name: 'sentence', label: 'field.sentence', hint: 'field.sentenceHint' };

// The Chinese edition opens on the English → Chinese task, and another task starts from a
// sentence of its own.
export const taskDefaults = (lang) => (lang === 'zh' ? { task: 'en-zh', sentence: SAMPLE_SENTENCES['en-zh'] } : {});
export const adjustToTask = (inputs, changed) =>
  changed === 'task' ? { ...inputs, sentence: SAMPLE_SENTENCES[inputs.task] } : inputs;

/** The source tokens of a trace, as the encoder reads them (<eos> last). */
export const sourceText = (trace) => trace.labels.source.join(' ');
