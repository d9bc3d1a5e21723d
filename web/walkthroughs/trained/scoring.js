// Trained models side by side on one decoding step (seed 004): by default one per scoring
// function, or one scoring function's models with each encoder, or trained freely and guided (the
// form's comparison). The trace is attn.walkthrough('scoring', { models, … }), every model fed the
// same target so that at step t all of them are about to write the same word. Titles and texts:
// the locale's scoring.stages.<kind>, in parts as the comparison and the models' encoders have
// them, with {t}, {word}, {target}, {task}, {models}, {all}.
import {
  adjustToTask,
  COMPARISON_FIELD,
  comparedOf,
  encoderCode,
  encoderFormula,
  MODEL_FIELDS,
  SCORE_CODE,
  SCORE_FORMULAS,
  SENTENCE_FIELD,
  sourceText,
  TASK_FIELD,
  taskDefaults,
  TRANSLATION_MODELS,
} from '../translation.js';

// The models on screen: [name of its panels, its label ({ scoring, encoder, layers, guide })], in
// the trace's order.
const modelsOf = (trace) => trace.models.map((model, k) => [trace.stages[0].panels[k].name, model]);

// The words fed to every model before step t: <sos> and the target's first t - 1 words.
const prefixOf = (trace, t) => ['<sos>', ...trace.labels.target.slice(0, t - 1)];

// Lines `\text{names} &: formula` of an aligned block, the models with one formula on one line.
function aligned(trace, formulaOf) {
  const lines = new Map();
  for (const [name, model] of modelsOf(trace)) {
    const formula = formulaOf(model);
    lines.set(formula, [...(lines.get(formula) ?? []), name]);
  }
  return `\\begin{aligned}${[...lines]
    .map(([formula, names]) => `\\text{${names.join(', ')}} &: ${formula}`)
    .join('\\\\ ')}\\end{aligned}`;
}

export default {
  name: 'scoring',
  fields: [
    TASK_FIELD,
    COMPARISON_FIELD,
    {
      name: 'scoring',
      label: 'field.scoring',
      options: ({ field }) => field.choices.map((name) => [name, `labels.model.scoring.${name}`]),
    },
    ...MODEL_FIELDS,
    SENTENCE_FIELD,
    { name: 'step', label: 'field.step' },
  ],
  // the models of the comparison, side by side (the model panel trains the missing); while none
  // is, the first one, as the store has it
  models: {
    ...TRANSLATION_MODELS,
    compares: true,
    context(inputs, models, attn) {
      const { trained, compared } = TRANSLATION_MODELS.trainedOf(inputs, models, attn);
      return { models: trained.length ? trained : [models.model(TRANSLATION_MODELS.kind, compared[0])] };
    },
  },
  defaults: taskDefaults,
  adjust: adjustToTask,
  params: ({ trace, inputs }) => ({
    // how many of the scoring functions have a trained model on screen (the titles say it)
    models: trace.models.length,
    all: Object.keys(SCORE_FORMULAS).length,
    task: inputs.task,
    t: inputs.step,
    word: trace.labels.target[inputs.step - 1],
    target: trace.labels.target.filter((token) => token !== '<eos>').join(' '),
  }),
  stages: {
    'encoder-states': {
      // the comparison's, and a word on encoders that read both ways or stack layers
      texts: ({ trace, inputs }) => {
        const { comparison, bidirectional, stacked } = comparedOf(trace, inputs);
        return [
          comparison,
          ...(bidirectional && comparison !== 'encoder' ? ['bidirectional'] : []),
          ...(stacked ? ['stacked'] : []),
        ];
      },
      formula: ({ trace }) => aligned(trace, encoderFormula),
      code: ({ trace }) =>
        [
          `ids = torch.tensor([source_vocab.index(w) for w in "${sourceText(trace)}".split()])`,
          ...modelsOf(trace).flatMap(([name, model]) => [
            `# models['${name}']`,
            `encoder = models['${name}'].encoder`,
            'embedded = encoder.embedding(ids)',
            encoderCode(model),
            `annotations['${name}'], s_0['${name}'] = annotations, s_0`,
          ]),
        ].join('\n'),
    },
    'decoder-states': {
      // the state each model scores with: Bahdanau's the one before the step (at the first, the
      // decoder's start), Luong's the step's
      formula: ({ trace, inputs }) => {
        const t = inputs.step;
        return aligned(trace, (model) =>
          model.scoring !== 'additive'
            ? `s_{${t}} = \\operatorname{GRU}(E_{y_{${t - 1}}},\\ s_{${t - 1}})`
            : t > 1
              ? `s_{${t - 1}} = \\operatorname{GRU}([E_{y_{${t - 2}}}; c_{${t - 1}}],\\ s_{${t - 2}})`
              : model.encoder === 'bidirectional'
                ? 's_0 = \\tanh(W_s \\overleftarrow{h}_1)'
                : 's_0 = h_n',
        );
      },
      code: ({ trace, inputs }) =>
        [
          `# every model reads the same words before step ${inputs.step} (teacher forcing), y_0 = <sos>`,
          `prefix = ${pythonList(prefixOf(trace, inputs.step))}`,
          '# decode(model, annotations, s_0, words): the decoder steps of the seq2seq walkthrough',
          ...modelsOf(trace).map(([name, model]) =>
            model.scoring === 'additive'
              ? `s_prev['${name}'] = decode(models['${name}'], annotations['${name}'], s_0['${name}'], prefix[:-1])`
              : `s_t['${name}'] = decode(models['${name}'], annotations['${name}'], s_0['${name}'], prefix)`,
          ),
        ].join('\n'),
    },
    'compare-scores': {
      // the scoring functions compared, or one scoring function in models that differ otherwise
      texts: ({ inputs }) => [inputs.comparison === 'scoring' ? 'scoring' : 'same'],
      formula: ({ trace }) => aligned(trace, (model) => `e_{t,j} = ${SCORE_FORMULAS[model.scoring]}`),
      code: ({ trace }) =>
        [
          "# attention, s_t (s_prev) and annotations: each model's own",
          ...modelsOf(trace).map(([name, model]) => `scores['${name}'] = ${SCORE_CODE[model.scoring]}`),
        ].join('\n'),
    },
    'compare-weights': {
      texts: ({ inputs }) => [inputs.comparison],
      formula: () => '\\alpha_{t,j} = \\operatorname{softmax}_j(e_{t,j})',
      code: () => 'weights = {name: torch.softmax(e.flatten(), 0) for name, e in scores.items()}',
    },
  },
};

const pythonList = (items) => `[${items.map((item) => `'${item.replaceAll("'", "\\'")}'`).join(', ')}]`;
