// Sentiment with attention pooling, and the checks that ask whether its weights explain anything
// (issue 31; seed 004's "Text sentiment analysis"; Jain & Wallace 2019, Wiegreffe & Pinter 2019).
// The trace is the classifier's own (the stages tokens, encoder, scores, weights, prediction,
// accuracy, permutation, attribution); the code is the reference model's PyTorch, as
// tests/fixtures/make_classifier_fixtures.py writes it. Titles and texts: the locale's
// sentiment.stages.<kind>, the encoder's and the weights' in parts as the model and the sentence
// have them, with {sentence}, {label}, {p}, {word}, …
import { labelText, percent, pythonG } from '../../locales/format.js';
import { panelOf } from '../trace.js';
import { learningRateChoice, SEED_CHOICE, taskField } from '../training-choices.js';

const KIND = 'classifier';

// A sentence each language opens on: a contrast whose first clause is negated, so that the
// weights have something to decide.
const SAMPLE_SENTENCES = {
  en: 'the food was not good but the staff was lovely',
  zh: '菜 不 好 但是 服务员 非常 棒',
};

// The model the form picks (learned attention, the default) and the baseline beside it (uniform
// attention).
const identities = ({ task, language, encoder }) => [
  { task, language, encoder },
  { task, language, encoder, attention: 'uniform' },
];

// The reader's own labelled sentences, as the model panel's data (model-data.js) reads them (as
// translation.js's PAIRS_DATA): the column the reader picks is the label's; the samples are the
// grammar's reviews, every split, a language each.
const SENTENCES_DATA = {
  texts: 'data.sentences',
  facts: (attn) => attn.classifierFacts().text,
  column: { name: 'labelColumn', count: 4 },
  samples: (attn) =>
    attn.classificationTasks().map(({ id, language }) => ({
      id: `${id}-${language}`,
      label: (t) =>
        t('data.sentences.sample', {
          task: t(`sentiment.tasks.${id}`),
          language: t(`sentiment.languages.${language}`),
        }),
      // the engine's text of them, read as words (a Chinese review is its characters) up to the
      // longest sentence it reads
      read: () => attn.classificationTaskSample(id, language),
    })),
  lines: (stats) => stats.sentences,
  stats: ({ stats, labels }, t) => ({
    sentences: stats.sentences,
    labels: labels.length,
    labelList: labels.join(t('listSeparator')),
    vocabulary: stats.vocabulary,
  }),
  preview: (task, [text, label]) => [task.tokenize(text), [label]],
  placeholder: 'the soup was lovely\tpositive\nthe staff was rude\tnegative',
};

const hasPanel = (stage, name) => stage.panels.some((panel) => panel.name === name);
// How the learned attention's share on the rationale compares with uniform attention's (the rows
// of rationale_share): far more from 1.5 times it, more above it, else no more.
function shareComparison(stage) {
  const [learned, uniform] = panelOf(stage, 'rationale_share').data;
  return learned >= 1.5 * uniform ? 'farMore' : learned > uniform ? 'more' : 'notMore';
}
// Whether uniform attention is right as often as the learned one (within one test sentence in a
// thousand): the accuracy panel's first column, a row per model.
function uniformAsGood(stage) {
  const accuracy = panelOf(stage, 'accuracy');
  return accuracy.data[accuracy.cols] >= accuracy.data[0] - 1e-3;
}
const panelIn = (trace, stageId, name) =>
  trace.stages.find((stage) => stage.id === stageId)?.panels.find((panel) => panel.name === name);

// Jain & Wallace (2019), table 2 and figure 4, on SST: their BiLSTM with additive attention, and
// the same with an embeddings-only encoder: the figures the attribution stage sets ours beside.
const PUBLISHED = {
  bilstm: { loo: '0.29 ± 0.19', gradients: '0.35 ± 0.21' },
  none: { loo: '0.62', gradients: '0.61' },
};

const signed = (value) => (Number.isNaN(value) ? '—' : pythonG(value, 2));

export default {
  name: 'sentiment',
  fields: [
    taskField((id) => `sentiment.tasks.${id}`),
    {
      name: 'language',
      label: 'sentiment.language',
      options: ({ field }) => field.choices.map((name) => [name, `sentiment.languages.${name}`]),
    },
    {
      name: 'encoder',
      label: 'field.encoder',
      options: ({ field }) => field.choices.map((name) => [name, `labels.model.encoder.${name}`]),
    },
    { name: 'sentence', label: 'sentiment.sentence', hint: 'sentiment.sentenceHint' },
  ],
  // the classifier the form picks, learned attention, and once it is trained the same with
  // uniform attention beside it (the panel trains it with "train the others")
  models: {
    kind: KIND,
    compares: false,
    compared: (inputs) => identities(inputs),
    // they learn the reader's own labelled sentences too
    data: SENTENCES_DATA,
    context(inputs, models) {
      const [learned, uniform] = identities(inputs);
      const model = models.model(KIND, learned);
      // asked for, so that a shipped one loads; set beside once it is trained
      const baseline = models.model(KIND, uniform);
      return { model, ...(models.trained(KIND, [uniform]).length && { uniform: baseline }) };
    },
    // "bidirectional GRU, uniform attention (English)", of the identity's fields that are not the
    // defaults
    label: ({ encoder = 'bigru', attention = 'learned', language = 'en' }, t) =>
      t('sentiment.model', {
        model: labelText({ encoder, attention }, t),
        language: t(`sentiment.languages.${language}`),
      }),
    training: {
      fields: [
        SEED_CHOICE,
        learningRateChoice(['0.005', '0.01', '0.02'], '0.01'),
        {
          // λ of the rationale's term: 1 teaches the attention the words that decide
          name: 'rationale',
          label: 'sentiment.rationale',
          into: 'train',
          choices: ['0', '1'],
          value: '0',
          choiceLabel: (value) => `sentiment.rationales.${value}`,
          options: (v) => ({ rationale: Number(v) }),
        },
      ],
      // each evaluation shows the weights over the sentence on screen as the model classifies it
      probe: ({ sentence }) => ({ sentence }),
      vocabulary: {
        field: 'sentence',
        words: (model) => model.task.vocab.filter((word) => !word.startsWith('<')),
        append: (model, typed, word) => [typed.trimEnd(), word].filter(Boolean).join(' '),
        show: (word) => word,
      },
    },
  },
  defaults: (lang) => (lang === 'zh' ? { language: 'zh', sentence: SAMPLE_SENTENCES.zh } : {}),
  adjust: (inputs, changed) =>
    changed === 'language' && SAMPLE_SENTENCES[inputs.language]
      ? { ...inputs, sentence: SAMPLE_SENTENCES[inputs.language] }
      : inputs,
  params: ({ trace, t }) => {
    const words = trace.labels.tokens;
    const label = trace.labels.predicted[0];
    const probabilities = panelIn(trace, 'prediction', 'probabilities');
    const weights = panelIn(trace, 'weights', 'weights');
    const strongest = weights.data.indexOf(Math.max(...weights.data));
    const rationale = panelIn(trace, 'weights', 'rationale');
    const share = panelIn(trace, 'weights', 'rationale_share');
    const accuracy = panelIn(trace, 'accuracy', 'accuracy');
    const [sentencePermutation, testPermutation] = panelIn(trace, 'permutation', 'permutation').data;
    const tau = panelIn(trace, 'attribution', 'tau').data;
    const uniform = trace.models.length > 1;
    const row = (k) => accuracy.data[k * accuracy.cols];
    const published = trace.models[0].encoder === 'none' ? 'none' : 'bilstm';
    return {
      sentence: words.join(' '),
      label,
      p: percent(probabilities.data[trace.labels.labels.indexOf(label) * probabilities.cols]),
      word: words[strongest],
      weight: pythonG(weights.data[strongest], 2),
      gold: rationale ? rationale.rowLabels[0] : '',
      deciding: rationale
        ? words
            .filter((_, j) => rationale.data[j] === 1)
            .map((word) => t('quoted', { text: word }))
            .join(t('listSeparator'))
        : '',
      learnedShare: share ? percent(share.data[0]) : '',
      uniformShare: share?.rows > 1 ? percent(share.data[1]) : '',
      accuracy: percent(row(0)),
      uniformAccuracy: uniform ? percent(row(1)) : '',
      majority: percent(row(uniform ? 2 : 1)),
      sentencePermutation: pythonG(sentencePermutation, 2),
      testPermutation: pythonG(testPermutation, 2),
      tauLoo: signed(tau[0]),
      tauGradients: signed(tau[1]),
      testTauLoo: `${signed(tau[2])} ± ${signed(tau[4])}`,
      testTauGradients: `${signed(tau[3])} ± ${signed(tau[5])}`,
      published: t(`sentiment.published.${published}`),
      publishedLoo: PUBLISHED[published].loo,
      publishedGradients: PUBLISHED[published].gradients,
    };
  },
  // a sentence's weights are drawn as the sentence (components/stage-view.js)
  drawings: { highlight: 'sentence' },
  stages: {
    tokens: {
      formula: ({ stage }) => {
        const { rows, cols } = panelOf(stage, 'embeddings');
        return `w_j \\mapsto x_j = E_{w_j} \\in \\mathbb{R}^{${cols}},\\ j = 1...${rows}`;
      },
      code: ({ trace }) =>
        [
          `ids = torch.tensor([vocab.index(w) for w in "${trace.labels.tokens.join(' ')}".split()])`,
          'x = model.embedding(ids)  # n x E',
        ].join('\n'),
    },
    encoder: {
      // told as the model's encoder is: a bidirectional GRU, or none
      texts: ({ trace }) => [trace.models[0].encoder],
      formula: ({ trace }) =>
        trace.models[0].encoder === 'none'
          ? 'h_j = x_j'
          : [
              '\\overrightarrow{h}_j = \\overrightarrow{\\operatorname{GRU}}(x_j,\\ \\overrightarrow{h}_{j-1})',
              '\\overleftarrow{h}_j = \\overleftarrow{\\operatorname{GRU}}(x_j,\\ \\overleftarrow{h}_{j+1})',
              'h_j = [\\overrightarrow{h}_j; \\overleftarrow{h}_j]',
            ].join(',\\quad '),
      code: ({ trace }) =>
        trace.models[0].encoder === 'none'
          ? 'h = x  # no encoder: each word is its embedding alone'
          : [
              '# model.encoder = nn.GRU(E, H // 2, bidirectional=True)',
              'h, _ = model.encoder(x.unsqueeze(1))  # [→h_j; ←h_j], n x 1 x H',
              'h = h.squeeze(1)',
            ].join('\n'),
    },
    scores: {
      texts: ({ trace }) => [trace.models[0].attention],
      formula: ({ trace }) => (trace.models[0].attention === 'uniform' ? 'e_j = 0' : 'e_j = v^\\top \\tanh(W h_j + b)'),
      code: ({ trace }) =>
        trace.models[0].attention === 'uniform'
          ? 'e = torch.zeros(len(h))  # uniform attention scores nothing'
          : 'e = model.attention.v(torch.tanh(model.attention.W(h))).squeeze(1)',
    },
    weights: {
      // the grammar's rationale when it reads the sentence as one of its reviews; the reader's
      // sentences have none
      texts: ({ stage }) => [
        'all',
        ...(hasPanel(stage, 'rationale')
          ? ['rationale', ...(panelOf(stage, 'rationale_share').rows > 1 ? [shareComparison(stage)] : [])]
          : [hasPanel(stage, 'rationale_share') ? 'free' : 'unmarked']),
      ],
      formula: () => '\\alpha_j = \\frac{\\exp(e_j)}{\\sum_k \\exp(e_k)}',
      code: () => 'alpha = torch.softmax(e, 0)  # one weight per word, summing to 1',
    },
    prediction: {
      formula: () => 'c = \\textstyle\\sum_j \\alpha_j h_j,\\quad p = \\operatorname{softmax}(W_o c + b_o)',
      code: () =>
        ['c = alpha @ h  # the pooled state', 'p = torch.softmax(model.classifier(c), 0)', 'label = p.argmax()'].join(
          '\n',
        ),
    },
    accuracy: {
      // the kinds of review, where the task has them (a grammar's: a column each)
      texts: ({ trace, stage }) => [
        'all',
        ...(panelOf(stage, 'accuracy').cols > 1 ? ['kinds'] : []),
        trace.models.length > 1 ? (uniformAsGood(stage) ? 'asGood' : 'worse') : 'alone',
      ],
      formula: () =>
        '\\text{accuracy} = \\frac{1}{N}\\textstyle\\sum_i [\\hat{y}_i = y_i],\\quad \\alpha^{\\text{uniform}}_j = \\frac{1}{n}',
      code: () =>
        [
          'predicted = torch.stack([model(s).argmax() for s in test_sentences])',
          'accuracy = (predicted == test_labels).float().mean()',
          'confusion = torch.zeros(L, L).index_put_((test_labels, predicted), torch.tensor(1.), accumulate=True)',
        ].join('\n'),
    },
    permutation: {
      formula: () =>
        '\\Delta = \\operatorname{median}_{\\pi} \\big| p_{\\hat{y}}(\\textstyle\\sum_j \\alpha_{\\pi(j)} h_j) - p_{\\hat{y}}(\\sum_j \\alpha_j h_j) \\big|',
      code: () =>
        [
          'rng = np.random.RandomState(seed)',
          'changes = []',
          'for _ in range(100):',
          '    shuffled = alpha[torch.from_numpy(rng.permutation(len(alpha)))]',
          '    q = torch.softmax(model.classifier(shuffled @ h), 0)',
          '    changes.append(abs(q[label] - p[label]).item())',
          'effect = np.median(changes)',
        ].join('\n'),
    },
    attribution: {
      formula: () =>
        [
          '\\text{loo}_j = p_{\\hat{y}}(w) - p_{\\hat{y}}(w_{\\setminus j})',
          'g_j = \\lVert \\partial p_{\\hat{y}} / \\partial x_j \\rVert_2',
          '\\tau = \\operatorname{Kendall}(\\alpha, \\text{loo}),\\ \\operatorname{Kendall}(\\alpha, g)',
        ].join(',\\quad '),
      code: () =>
        [
          'loo = [p[label] - classify(words[:j] + words[j + 1:])[label] for j in range(n)]',
          'x.requires_grad_(True); p[label].backward()',
          'g = x.grad.norm(dim=1)',
          'tau_loo = scipy.stats.kendalltau(alpha, loo).statistic',
          'tau_g = scipy.stats.kendalltau(alpha, g).statistic',
        ].join('\n'),
    },
  },
};
