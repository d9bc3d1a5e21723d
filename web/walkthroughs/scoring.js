// The four scoring functions side by side on one decoding step (seed 004), each in a model of the
// task trained with it: the trace is attn.walkthrough('scoring', { models, … }), every model fed
// the same target so that at step t all of them are about to write the same word. Titles and
// texts: the locale's scoring.stages.<kind>, with {t}, {word}, {target}, {task}.
import {
  adjustToTask,
  SCORE_CODE,
  SCORE_FORMULAS,
  SENTENCE_FIELD,
  sourceText,
  TASK_FIELD,
  taskDefaults,
  TRANSLATION_MODELS,
} from './translation.js';

// The models on screen (a panel each, named after its scoring function), in the trace's order.
const scoringsOf = (stage) => stage.panels.map((panel) => panel.name).filter((name) => name in SCORE_FORMULAS);

// The words fed to every model before step t: <sos> and the target's first t - 1 words.
const prefixOf = (trace, t) => ['<sos>', ...trace.labels.target.slice(0, t - 1)];

export default {
  name: 'scoring',
  fields: [TASK_FIELD, SENTENCE_FIELD, { name: 'step', label: 'field.step' }],
  // a trained model of the task per scoring function, side by side (the model panel trains the
  // missing); while none is, the first one, as the store has it
  models: {
    ...TRANSLATION_MODELS,
    compares: true,
    context(inputs, models, attn) {
      const { trained, compared } = TRANSLATION_MODELS.trainedOf(inputs, models, attn);
      return { models: trained.length ? trained : [models.model(TRANSLATION_MODELS.kind, compared[0])] };
    },
  },
  attributes: ['task', 'sentence', 'step'],
  defaults: taskDefaults,
  adjust: adjustToTask,
  params: ({ trace, inputs }) => ({
    // how many of the scoring functions have a trained model on screen (the titles say it)
    models: scoringsOf(trace.stages[0]).length,
    all: Object.keys(SCORE_FORMULAS).length,
    task: inputs.task,
    t: inputs.step,
    word: trace.labels.target[inputs.step - 1],
    target: trace.labels.target.filter((token) => token !== '<eos>').join(' '),
  }),
  stages: {
    'encoder-states': {
      formula: () => 'h_j = \\operatorname{GRU}(E_{x_j},\\ h_{j-1}),\\quad h_0 = 0',
      code: ({ trace, stage }) =>
        [
          `ids = torch.tensor([source_vocab.index(w) for w in "${sourceText(trace)}".split()])`,
          `for scoring in ${pythonList(scoringsOf(stage))}:`,
          '    encoder = models[scoring].encoder',
          '    annotations[scoring], h_n[scoring] = encoder.gru(encoder.embedding(ids))',
        ].join('\n'),
    },
    'decoder-states': {
      // the state each model scores with: Bahdanau's the one before the step, Luong's the step's
      formula: ({ inputs, stage }) => {
        const t = inputs.step;
        const luong = scoringsOf(stage).filter((name) => name !== 'additive');
        const lines = [];
        if (luong.length < scoringsOf(stage).length)
          lines.push(
            `\\text{additive} &: ${t === 1 ? 's_0 = h_n' : `s_{${t - 1}} = \\operatorname{GRU}([E_{y_{${t - 2}}}; c_{${t - 1}}],\\ s_{${t - 2}})`}`,
          );
        if (luong.length)
          lines.push(`\\text{${luong.join(', ')}} &: s_{${t}} = \\operatorname{GRU}(E_{y_{${t - 1}}},\\ s_{${t - 1}})`);
        return `\\begin{aligned}${lines.join('\\\\ ')}\\end{aligned}`;
      },
      code: ({ trace, inputs, stage }) => {
        const luong = scoringsOf(stage).filter((name) => name !== 'additive');
        return [
          `# every model reads the same words before step ${inputs.step} (teacher forcing), y_0 = <sos>`,
          `prefix = ${pythonList(prefixOf(trace, inputs.step))}`,
          '# decode(model, annotations, words): the decoder steps of the seq2seq walkthrough, from s_0 = h_n',
          ...(luong.length < scoringsOf(stage).length
            ? ["s_prev = decode(models['additive'], annotations['additive'], prefix[:-1])"]
            : []),
          ...luong.map((name) => `s_t['${name}'] = decode(models['${name}'], annotations['${name}'], prefix)`),
        ].join('\n');
      },
    },
    'compare-scores': {
      formula: ({ stage }) =>
        `\\begin{aligned}${scoringsOf(stage)
          .map((name) => `\\text{${name}} &: e_{t,j} = ${SCORE_FORMULAS[name]}`)
          .join('\\\\ ')}\\end{aligned}`,
      code: ({ stage }) =>
        [
          "# attention, s_t (s_prev) and annotations: each model's own",
          ...scoringsOf(stage).map((name) => `scores['${name}'] = ${SCORE_CODE[name]}`),
        ].join('\n'),
    },
    'compare-weights': {
      formula: () => '\\alpha_{t,j} = \\operatorname{softmax}_j(e_{t,j})',
      code: () => 'weights = {scoring: torch.softmax(e.flatten(), 0) for scoring, e in scores.items()}',
    },
  },
};

const pythonList = (items) => `[${items.map((item) => `'${item.replaceAll("'", "\\'")}'`).join(', ')}]`;
