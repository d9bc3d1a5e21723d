// A trained translation model, stepped through time (seed 004 made real): the trace is the
// model's own (model.walkthrough's stages: source, encoder, one "step" per decoded token,
// alignment, compare). The code is the reference model's PyTorch, as
// tests/fixtures/make_seq2seq_fixtures.py writes it. Titles and texts: the locale's
// seq2seq.stages.<kind>, with {t}, {word}, {task}; the encoder's and the comparison's in parts, as
// the model's encoder and the comparison have them.
import { categoryName, percent } from '../../locales/format.js';
import { panelOf } from '../trace.js';
import {
  adjustToTask,
  COMPARISON_FIELD,
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

// What the alignment stage's by_category panel says, as a sentence: the kind of word least often
// aligned, and the source word most of its others look at instead.
function weakestKind(stage, t) {
  // a task of the reader's pairs without gold links has no alignment to score
  if (!stage.panels.some((panel) => panel.name === 'by_category')) return t('seq2seq.measured.noGold');
  const { rowLabels, data, cols } = panelOf(stage, 'by_category');
  const row = rowLabels.reduce((best, _, i) => (data[i * cols] < data[best * cols] ? i : best), 0);
  const [aligned, instead] = [data[row * cols], data[row * cols + 1]];
  if (!rowLabels[row].instead) return t('seq2seq.measured.allAligned');
  return t('seq2seq.measured.weakest', {
    kind: categoryName(rowLabels[row].category, t),
    aligned: percent(aligned),
    instead: rowLabels[row].instead,
    insteadShare: percent(instead),
  });
}

// What the source stage says of words the vocabulary lacks: a grammar's task refuses them (the
// field says so); a task of the reader's pairs reads them as <unk>, named here with the nearest
// words it has (the trace's `unknown` and `nearest` labels).
function unknownWords({ labels }, t) {
  if (!labels.unknown) return t('seq2seq.unknown.grammar');
  if (!labels.unknown.length) return t('seq2seq.unknown.none');
  const words = labels.unknown.map((word, i) =>
    labels.nearest[i]
      ? t('seq2seq.unknown.nearest', {
          word,
          nearest: labels.nearest[i]
            .split(' ')
            .map((near) => `“${near}”`)
            .join(', '),
        })
      : t('seq2seq.unknown.alone', { word }),
  );
  return t('seq2seq.unknown.some', { words: words.join('; ') });
}

export default {
  name: 'seq2seq',
  fields: [
    TASK_FIELD,
    {
      name: 'scoring',
      label: 'field.scoring',
      options: ({ field }) => field.choices.map((name) => [name, `labels.model.scoring.${name}`]),
    },
    ...MODEL_FIELDS,
    { name: 'beam', label: 'field.beam' },
    COMPARISON_FIELD,
    SENTENCE_FIELD,
  ],
  // the trained model the trace shows (the one the form picks), and once every model of the
  // comparison is trained, those too, compared
  models: {
    ...TRANSLATION_MODELS,
    compares: false,
    context(inputs, models, attn) {
      const { trained, compared } = TRANSLATION_MODELS.trainedOf(inputs, models, attn);
      return {
        model: models.model(TRANSLATION_MODELS.kind, inputs),
        compare: trained.length === compared.length ? trained : undefined,
      };
    },
  },
  defaults: taskDefaults,
  adjust: adjustToTask,
  params: ({ trace, stage, inputs, t }) => ({
    task: inputs.task,
    t: stage?.step ?? 0,
    word: stage?.step ? trace.labels.target[stage.step - 1] : '',
    translation: trace.labels.target.filter((token) => token !== '<eos>').join(' '),
    weakest: stage?.kind === 'alignment' ? weakestKind(stage, t) : '',
    unknown: unknownWords(trace, t),
  }),
  stages: {
    source: {
      formula: ({ stage }) => {
        const { rows, cols } = panelOf(stage, 'embeddings');
        return `x_j \\mapsto E_{x_j} \\in \\mathbb{R}^{${cols}},\\ j = 1...${rows}`;
      },
      code: ({ trace }) =>
        [
          `ids = [source_vocab.index(w) for w in "${sourceText(trace)}".split()]`,
          'embedded = encoder.embedding(torch.tensor(ids))',
        ].join('\n'),
    },
    encoder: {
      // told as the model's encoder is: one way or both, and stacked layers
      texts: ({ trace: { models } }) => [models[0].encoder, ...(models[0].layers > 1 ? ['stacked'] : [])],
      formula: ({ trace }) => encoderFormula(trace.models[0]),
      code: ({ trace }) => encoderCode(trace.models[0]),
    },
    step: {
      formula: ({ inputs }) =>
        inputs.scoring === 'additive'
          ? `e_{t,j} = ${SCORE_FORMULAS.additive},\\quad \\alpha_t = \\operatorname{softmax}(e_t),\\quad c_t = \\sum_j \\alpha_{t,j} h_j,\\quad ` +
            's_t = \\operatorname{GRU}([E_{y_{t-1}}; c_t],\\ s_{t-1}),\\quad p(y_t) = \\operatorname{softmax}(W_o s_t)'
          : `s_t = \\operatorname{GRU}(E_{y_{t-1}},\\ s_{t-1}),\\quad e_{t,j} = ${SCORE_FORMULAS[inputs.scoring]},\\quad ` +
            '\\alpha_t = \\operatorname{softmax}(e_t),\\quad c_t = \\sum_j \\alpha_{t,j} h_j,\\quad ' +
            '\\tilde{h}_t = \\tanh(W_c [c_t; s_t]),\\quad p(y_t) = \\operatorname{softmax}(W_o \\tilde{h}_t)',
      code: ({ inputs, stage }) =>
        (inputs.scoring === 'additive'
          ? [
              `# step ${stage.step}: s_prev is the state after step ${stage.step - 1}`,
              `scores = ${SCORE_CODE.additive}`,
              'weights = torch.softmax(scores.squeeze(1), 0)',
              'context = weights @ annotations',
              's_t = decoder.gru(torch.cat([decoder.embedding(y_prev), context]), s_prev)',
              'probabilities = torch.softmax(decoder.out(s_t), 0)',
            ]
          : [
              `# step ${stage.step}`,
              's_t = decoder.gru(decoder.embedding(y_prev), s_prev)',
              `scores = ${SCORE_CODE[inputs.scoring]}`,
              'weights = torch.softmax(scores.flatten(), 0)',
              'context = weights @ annotations',
              'h_tilde = torch.tanh(decoder.combine(torch.cat([context, s_t])))',
              'probabilities = torch.softmax(decoder.out(h_tilde), 0)',
            ]
        )
          .concat('y_t = probabilities.argmax()  # the word chosen')
          .join('\n'),
    },
    compare: {
      texts: ({ inputs }) => [inputs.comparison],
      formula: ({ trace, inputs }) => COMPARISON_FORMULAS[inputs.comparison](trace),
      code: ({ trace, stage, inputs }) =>
        [
          `for name, model in models.items():  # ${stage.panels
            .filter((panel) => panel.name !== 'metrics')
            .map((panel) => panel.name)
            .join(', ')}`,
          `    alignments[name] = translate(model, "${sourceText(trace)}").alignment`,
          '    measures[name] = evaluate(model, test_pairs)  # exact match, alignment accuracy, AER',
          ...(inputs.comparison === 'guide'
            ? ['# guided: trained with loss = cross_entropy + λ * guide_loss (λ = 1), free: λ = 0']
            : []),
        ].join('\n'),
    },
    alignment: {
      formula: () => 'A_{t,j} = \\alpha_{t,j}',
      code: () => 'alignment = torch.stack(all_weights)  # one row per target token, one column per source token',
    },
  },
};

// What the compared models differ in, as equations.
const COMPARISON_FORMULAS = {
  scoring: () =>
    `\\begin{aligned}${Object.entries(SCORE_FORMULAS)
      .map(([name, score]) => `\\text{${name}} &: e_{t,j} = ${score}`)
      .join('\\\\ ')}\\end{aligned}`,
  encoder: (trace) =>
    `\\begin{aligned}${['forward', 'bidirectional']
      .map((encoder) => `\\text{${encoder}} &: ${encoderFormula({ encoder, layers: trace.models[0].layers })}`)
      .join('\\\\ ')}\\end{aligned}`,
  // guided alignment (Chen et al. 2016): the attention row pulled towards the gold links q_t
  guide: () =>
    '\\mathcal{L} = -\\frac{1}{m}\\sum_t \\log p(y_t) + \\lambda \\cdot \\frac{1}{|G|}\\sum_{t \\in G} \\Big(-\\sum_j q_{t,j} \\log \\alpha_{t,j}\\Big),\\quad \\lambda \\in \\{0, 1\\}',
};
