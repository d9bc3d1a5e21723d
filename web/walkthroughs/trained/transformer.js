// A trained Transformer (PyTorch's "Language Translation with nn.Transformer" tutorial model),
// stepped through: the trace is the model's own (model.walkthrough's stages: tokens, positions,
// one encoder layer's attention head by head, the decoder's masked self-attention and
// cross-attention, one "step" per decoded token, the head view and model view, the comparison with
// the GRU model). The code is the tutorial model's PyTorch. Titles and texts: the locale's
// transformer.stages.<kind>, with {layer}, {head}, {t}, {word}, {task}, {bestLayer}, {bestHead}.
// The head views and the model view are drawings (their `view`: components/head-view.js,
// model-view.js), not a heatmap per panel.
import { taskName } from '../../locales/format.js';
import { panelOf } from '../trace.js';
import {
  adjustToTask,
  PAIRS_DATA,
  SENTENCE_FIELD,
  sourceText,
  TASK_FIELD,
  taskDefaults,
  TRANSLATION_MODELS,
} from '../translation.js';

// The GRU model the comparison sets beside the Transformer: the task's Bahdanau model, the one
// that ships (en-fr, en-zh).
const GRU = (task) => ({ task, scoring: 'additive' });

// The PyTorch of the chosen layer's attention (`module` under model.transformer) and head.
const headCode = (inputs, module, dk) => [
  `attn = model.transformer.${module}`,
  'W_Q, W_K, W_V = attn.in_proj_weight.chunk(3)  # in_proj_weight: [W_Q; W_K; W_V]',
  'b_Q, b_K, b_V = attn.in_proj_bias.chunk(3)',
  `h, d_k = ${inputs.head - 1}, ${dk}  # head ${inputs.head}: its d_k columns`,
  'cols = slice(h * d_k, (h + 1) * d_k)',
];
// The PyTorch module of each attention in layer `layer` (from 1), under model.transformer.
const MODULES = {
  encoder: (layer) => `encoder.layers[${layer - 1}].self_attn`,
  decoder: (layer) => `decoder.layers[${layer - 1}].self_attn`,
  cross: (layer) => `decoder.layers[${layer - 1}].multihead_attn`,
};

// The head view of one attention: every head of the chosen layer.
const headView = (attention) => ({
  view: 'heads',
  formula: ({ inputs }) => `A^{(${inputs.layer},h)}_{i,j},\\quad h = 1 \\dots H`,
  code: ({ inputs }) =>
    [
      `attn = model.transformer.${MODULES[attention](inputs.layer)}`,
      '_, weights = attn(query, key, value, need_weights=True, average_attn_weights=False)',
      '# weights[0, h, i, j]: a line from query i to key j, as opaque as the weight',
    ].join('\n'),
});

// The detailed stage of each attention the model view shows.
const OPENED = { encoder: 'encoder-qkv', decoder: 'decoder-self', cross: 'cross' };

const dkOf = (stage) => panelOf(stage, 'Q').cols;

// The transformer's training run: the seq2seq models' (translation.js), at the Transformer's own
// learning rate (createTransformer's default, 0.002); the GRU's sizes are not its own.
const [SEED, LEARNING_RATE] = TRANSLATION_MODELS.training.fields;

export default {
  name: 'transformer',
  fields: [
    TASK_FIELD,
    { name: 'layer', label: 'field.layer' },
    { name: 'head', label: 'field.head' },
    { name: 'beam', label: 'field.beam' },
    SENTENCE_FIELD,
  ],
  // the Transformer the form's task picks, and the task's GRU model to compare once it is trained
  models: {
    kind: 'transformer',
    compares: false,
    compared: ({ task }) => [{ task }],
    label: (identity, t) => t('model.name', { model: t('transformer.model'), task: taskName(identity.task, t) }),
    data: PAIRS_DATA,
    training: { ...TRANSLATION_MODELS.training, fields: [SEED, { ...LEARNING_RATE, value: '0.002' }] },
    context(inputs, models) {
      models.model('seq2seq', GRU(inputs.task)); // its shipped model, where there is one, loads
      const gru = models.trained('seq2seq', [GRU(inputs.task)]);
      return { model: models.model('transformer', inputs), compare: gru.length ? gru : undefined };
    },
  },
  defaults: taskDefaults,
  adjust: adjustToTask,
  params: ({ trace, stage, inputs }) => ({
    task: inputs.task,
    layer: inputs.layer,
    head: inputs.head,
    t: stage?.step ?? 0,
    word: stage?.step ? trace.labels.target[stage.step - 1] : '',
    translation: trace.labels.target.filter((token) => token !== '<eos>').join(' '),
    // the compare stage's head of lowest AER, where the task's gold links give one
    bestLayer: trace.labels.best?.[0],
    bestHead: trace.labels.best?.[1],
  }),
  stages: {
    tokens: {
      formula: ({ stage }) => `x_j \\mapsto \\sqrt{d}\\,E_{x_j} \\in \\mathbb{R}^{${panelOf(stage, 'source').cols}}`,
      code: ({ trace }) =>
        [
          `src = torch.tensor([[source_vocab.index(w) for w in "${sourceText(trace)}".split()]])`,
          'src_emb = model.src_tok_emb(src)  # embedding(src) * math.sqrt(d_model)',
          'tgt_emb = model.tgt_tok_emb(tgt_input)  # <sos>, then each output token but the last',
        ].join('\n'),
    },
    positions: {
      formula: () =>
        'PE_{p,2i} = \\sin\\!\\big(p / 10000^{2i/d}\\big),\\quad PE_{p,2i+1} = \\cos\\!\\big(p / 10000^{2i/d}\\big),\\quad X = \\sqrt{d}\\,E + PE',
      code: () => 'x = model.positional_encoding(src_emb)  # src_emb + pos_embedding[:n]',
    },
    'encoder-qkv': {
      formula: ({ inputs }) =>
        `Q = X W_Q^\\top + b_Q,\\ K = X W_K^\\top + b_K,\\ V = X W_V^\\top + b_V,\\quad Q_{${inputs.head}}, K_{${inputs.head}}, V_{${inputs.head}} \\in \\mathbb{R}^{n \\times d_k}`,
      code: ({ inputs, stage }) =>
        [
          ...headCode(inputs, MODULES.encoder(inputs.layer), dkOf(stage)),
          'Q, K, V = x @ W_Q.T + b_Q, x @ W_K.T + b_K, x @ W_V.T + b_V',
          'Q_h, K_h, V_h = Q[..., cols], K[..., cols], V[..., cols]',
        ].join('\n'),
    },
    'encoder-scores': {
      formula: () => 'S = Q_h K_h^\\top,\\quad \\frac{S}{\\sqrt{d_k}}',
      code: () => ['scores = Q_h @ K_h.transpose(-2, -1)', 'scaled = scores / math.sqrt(d_k)'].join('\n'),
    },
    'encoder-mask': {
      formula: () => '\\tilde{S} = \\frac{Q_h K_h^\\top}{\\sqrt{d_k}} + M,\\quad M = 0\\ \\text{(no padding)}',
      code: () =>
        [
          'src_key_padding_mask = (src == PAD_IDX)  # all False: one sentence pads nothing',
          'masked = scaled.masked_fill(src_key_padding_mask[:, None, :], float("-inf"))',
        ].join('\n'),
    },
    'encoder-softmax': {
      formula: () => 'A = \\operatorname{softmax}(\\tilde{S}),\\quad \\textstyle\\sum_j A_{i,j} = 1',
      code: () => 'weights = torch.softmax(masked, dim=-1)  # each row sums to 1',
    },
    'encoder-head': {
      formula: ({ inputs }) => `\\operatorname{head}_{${inputs.head}} = A V_h`,
      code: () => 'head_output = weights @ V_h',
    },
    'encoder-heads': {
      formula: () =>
        '\\operatorname{MultiHead}(X) = [\\operatorname{head}_1; \\dots; \\operatorname{head}_H]\\, W_O^\\top + b_O',
      code: () =>
        [
          'concat = torch.cat([head_output_of(h) for h in range(attn.num_heads)], dim=-1)',
          'projected = attn.out_proj(concat)  # what attn(x, x, x) returns',
        ].join('\n'),
    },
    'encoder-norm': {
      formula: () => "X' = \\operatorname{LayerNorm}\\big(X + \\operatorname{MultiHead}(X)\\big)",
      code: ({ inputs }) =>
        [
          `layer = model.transformer.encoder.layers[${inputs.layer - 1}]`,
          'residual = x + projected',
          'x1 = layer.norm1(residual)  # post-norm, as nn.Transformer by default',
        ].join('\n'),
    },
    'encoder-feed-forward': {
      formula: () =>
        "\\operatorname{FFN}(X') = \\max(0,\\ X' W_1^\\top + b_1)\\, W_2^\\top + b_2,\\quad X'' = \\operatorname{LayerNorm}\\big(X' + \\operatorname{FFN}(X')\\big)",
      code: () =>
        [
          'hidden = torch.relu(layer.linear1(x1))',
          'output = layer.linear2(hidden)',
          'x2 = layer.norm2(x1 + output)  # the next layer reads it',
        ].join('\n'),
    },
    'decoder-self': {
      formula: () =>
        'M_{t,j} = \\begin{cases} 0 & j \\le t \\\\ -\\infty & j > t \\end{cases},\\quad A = \\operatorname{softmax}\\Big(\\frac{Q_h K_h^\\top}{\\sqrt{d_k}} + M\\Big)',
      code: ({ inputs }) =>
        [
          `attn = model.transformer.${MODULES.decoder(inputs.layer)}`,
          'tgt_mask = nn.Transformer.generate_square_subsequent_mask(m)  # -inf above the diagonal',
          'masked = scaled + tgt_mask',
          'weights = torch.softmax(masked, dim=-1)  # a step sees itself and the steps before',
        ].join('\n'),
    },
    cross: {
      formula: () =>
        'Q = Y W_Q^\\top + b_Q,\\ K = \\mathrm{memory}\\, W_K^\\top + b_K,\\quad A = \\operatorname{softmax}\\Big(\\frac{Q_h K_h^\\top}{\\sqrt{d_k}}\\Big)',
      code: ({ inputs, stage }) =>
        [
          ...headCode(inputs, MODULES.cross(inputs.layer), dkOf(stage)),
          'memory = model.transformer.encoder(x)  # after encoder.norm',
          'Q_h = (y1 @ W_Q.T + b_Q)[..., cols]  # y1: the decoder layer after its self-attention',
          'K_h = (memory @ W_K.T + b_K)[..., cols]',
          'weights = torch.softmax(Q_h @ K_h.transpose(-2, -1) / math.sqrt(d_k), dim=-1)',
        ].join('\n'),
    },
    step: {
      formula: () =>
        'p(y_t \\mid y_{<t}, x) = \\operatorname{softmax}\\big(W_g\\, \\operatorname{LayerNorm}(y^{(L)}_t) + b_g\\big),\\quad y_t = \\arg\\max_w p(w)',
      code: ({ stage }) =>
        [
          `# step ${stage.step}: the decoder reads <sos> and the ${stage.step - 1} token(s) chosen so far`,
          'out = model.transformer.decoder(tgt_emb[:, :t], memory, tgt_mask=tgt_mask[:t, :t])',
          'probabilities = torch.softmax(model.generator(out[:, -1]), dim=-1)',
          'y_t = probabilities.argmax()  # the word chosen',
        ].join('\n'),
    },
    'head-view-encoder': headView('encoder'),
    'head-view-decoder': headView('decoder'),
    'head-view-cross': headView('cross'),
    'model-view': {
      view: 'layers',
      // a head of the grid ("cross-2-1") opens in the detailed stage of its attention
      open: (name) => {
        const [attention, layer, head] = name.split('-');
        return { inputs: { layer, head }, stage: OPENED[attention] };
      },
      formula: () => 'A^{(l,h)},\\quad l = 1 \\dots L,\\ h = 1 \\dots H',
      code: () =>
        [
          'for l, layer in enumerate(model.transformer.encoder.layers):',
          '    grid["encoder", l] = layer.self_attn(x, x, x, average_attn_weights=False)[1]',
          '# the same for decoder.layers[l].self_attn and .multihead_attn (cross)',
        ].join('\n'),
    },
    compare: {
      // the best head and its AER where the task has gold links, else every cross-attention head
      texts: ({ trace }) => [trace.labels.best ? 'gold' : 'heads'],
      formula: ({ trace }) =>
        trace.labels.best
          ? '\\mathrm{AER} = 1 - \\frac{|A \\cap S| + |A \\cap P|}{|A| + |S|},\\quad A = \\{(t, \\arg\\max_j \\alpha_{t,j})\\}'
          : 'A^{(l,h)}_{\\text{cross}},\\quad l = 1 \\dots L,\\ h = 1 \\dots H',
      code: ({ trace }) =>
        (trace.labels.best
          ? [
              'for l, h in heads:  # every cross-attention head, on the test split',
              '    aer[l, h] = alignment_error_rate(argmax_links(cross_attention(l, h)), sure, possible)',
              'best = min(aer, key=aer.get)',
            ]
          : [
              'for l, layer in enumerate(model.transformer.decoder.layers):  # no gold links: every head',
              '    cross[l] = layer.multihead_attn(y, memory, memory, average_attn_weights=False)[1]',
            ]
        )
          .concat('gru_weights = gru_model(src, tgt_input).weights  # teacher forced with the same output')
          .join('\n'),
    },
  },
};
