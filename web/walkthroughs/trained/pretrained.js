// A pretrained checkpoint (Hugging Face's files: the page's own small GPT-2, or the reader's),
// stepped through: the trace is the engine's (the pretrained walkthrough: the tokens, their
// embeddings, one head's every step, every head of the model and of a layer, the first token's
// share of attention, rollout, the next tokens). Layers and heads count from 0, as transformers'
// outputs.attentions[layer][0, head] does. The code is what a reader runs with transformers
// (eager attention, so that the weights are returned). Titles and texts: the locale's
// pretrained.stages.<kind>, with {layer}, {head}, {kvHead}, {family}, {predicted}.
import { visibleText } from '../../locales/format.js';

// What transformers calls the parts of a family's base model (model.base_model).
const MODULES = {
  gpt2: { embed: 'wte', positions: 'wpe', layer: (l) => `h[${l}]` },
  llama: { embed: 'embed_tokens', layer: (l) => `layers[${l}]` },
  qwen2: { embed: 'embed_tokens', layer: (l) => `layers[${l}]` },
  bert: {
    embed: 'embeddings.word_embeddings',
    positions: 'embeddings.position_embeddings',
    layer: (l) => `encoder.layer[${l}]`,
  },
  distilbert: {
    embed: 'embeddings.word_embeddings',
    positions: 'embeddings.position_embeddings',
    layer: (l) => `transformer.layer[${l}]`,
  },
};

const familyOf = (trace) => trace.labels.family[0];
const modulesOf = (trace) => MODULES[familyOf(trace)];
// the engine's words for the model: positions learned or rotary, a causal mask or padding only
const rotary = (trace) => trace.labels.positions[0] === 'rotary';
const causal = (trace) => trace.labels.mask[0] === 'causal';

// The lines that give one head's q, k and v of layer `layer`, head `head` (d: the head's width).
function headProjections(trace, { layer, head }, d) {
  const family = familyOf(trace);
  const base = `base.${modulesOf(trace).layer(layer)}`;
  const slice = (name, index) => `${name}[0, :, ${index} * ${d}:(${index} + 1) * ${d}]`;
  if (family === 'gpt2')
    return [
      `x = ${base}.ln_1(out.hidden_states[${layer}])`,
      `q, k, v = ${base}.attn.c_attn(x).split(model.config.n_embd, dim=2)`,
      `q, k, v = ${slice('q', head)}, ${slice('k', head)}, ${slice('v', head)}`,
    ];
  if (family === 'llama' || family === 'qwen2')
    return [
      `x = ${base}.input_layernorm(out.hidden_states[${layer}])`,
      `attn = ${base}.self_attn`,
      `g = ${head} // (model.config.num_attention_heads // model.config.num_key_value_heads)  # its key/value head`,
      `q, k, v = ${slice('attn.q_proj(x)', head)}, ${slice('attn.k_proj(x)', 'g')}, ${slice('attn.v_proj(x)', 'g')}`,
    ];
  const [attention, names] =
    family === 'bert'
      ? [`${base}.attention.self`, ['query', 'key', 'value']]
      : [`${base}.attention`, ['q_lin', 'k_lin', 'v_lin']];
  return [
    `x, attn = out.hidden_states[${layer}], ${attention}`,
    `q, k, v = ${names.map((name) => slice(`attn.${name}(x)`, head)).join(', ')}`,
  ];
}

const LOAD = [
  'import math, torch',
  'from transformers import AutoModelForCausalLM, AutoTokenizer',
  'tokenizer = AutoTokenizer.from_pretrained(folder)',
  'model = AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager")  # eager: it returns the weights',
  'base = model.base_model',
];
const RUN = 'out = model(ids, output_attentions=True, output_hidden_states=True)';

// Temperature 0 (the default, so that a link shows the same tokens): the likeliest token each step.
const greedy = (inputs) => Number(inputs.temperature) === 0;

// Generation as the engine computes it, a token at a time over transformers' key/value cache; a
// draw as the engine's: numpy's random state of the seed, the first token of the top k (all for 0)
// whose cumulative probability at the temperature passes np.random.rand().
function generationCode(trace, { maxTokens, temperature, topK, seed, layer, head }) {
  const likeliest = greedy({ temperature });
  const choose = likeliest
    ? ['    next_id = logits.argmax()  # greedy: the likeliest']
    : [
        `    pool = logits.argsort(descending=True, stable=True)${topK > 0 ? `[:${topK}]` : ''}`,
        `    p = (logits[pool] / ${temperature}).softmax(-1)`,
        '    next_id = pool[np.searchsorted(p.cumsum(0).numpy(), random.rand(), side="right")]',
      ];
  return [
    ...(likeliest ? [] : ['import numpy as np', `random = np.random.RandomState(${seed})`]),
    'past, read, rows, chosen = None, ids, [], []',
    `for step in range(${maxTokens}):`,
    '    if ids.shape[1] + len(chosen) >= model.config.max_position_embeddings:',
    '        break',
    '    out = model(read, past_key_values=past, use_cache=True, output_attentions=True)',
    "    past = out.past_key_values  # every layer's keys and values so far: one row more a token",
    `    rows.append(out.attentions[${layer}][0, ${head}, -1])  # the new query's row over them`,
    '    logits = out.logits[0, -1].double()',
    ...choose,
    '    chosen.append(next_id.item())',
    '    if next_id.item() == model.config.eos_token_id:',
    '        break',
    '    read = next_id.view(1, 1)  # only the new token: the others are in the cache',
    ...(familyOf(trace) === 'gpt2'
      ? [`g = ${head}`]
      : [
          `g = ${head} // (model.config.num_attention_heads // model.config.num_key_value_heads)  # its key/value head`,
        ]),
    `key_cache, value_cache = past[${layer}][0][0, g], past[${layer}][1][0, g]`,
    'tokenizer.decode(chosen)',
  ].join('\n');
}

export default {
  name: 'pretrained',
  // layers and heads are transformers' indices, on screen too
  countFrom: 0,
  fields: [
    { name: 'layer', label: 'field.layer' },
    { name: 'head', label: 'field.head' },
    { name: 'sentence', label: 'field.text' },
    { name: 'maxTokens', label: 'field.maxTokens' },
    { name: 'temperature', label: 'field.temperature' },
    { name: 'topK', label: 'field.topK' },
    { name: 'seed', label: 'field.sampleSeed' },
  ],
  // the checkpoint on screen (the small GPT-2 the page ships), and the ids its tokenizer makes of
  // the text; none while it loads
  models: {
    kind: 'pretrained',
    compares: false,
    // the page's small GPT-2, or the reader's checkpoint (origin 'trained'): its name, or its family
    // (a name or family left unsaid is the kind's default: none, gpt2)
    label: (identity, t, origin) =>
      identity.name || (origin === 'trained' ? (identity.family ?? 'gpt2') : t('pretrained.model')),
    // the shipped checkpoint was trained by a script, not by this engine; the reader's is theirs
    status: (origin, t, model) => {
      if (origin === 'shipped') return t('pretrained.shipped');
      if (origin !== 'trained' || !model) return null;
      const { layers, heads, hidden, vocabulary } = model.config;
      return t('pretrained.own', { family: model.family, layers, heads, hidden, vocabulary });
    },
    // the reader's checkpoint: its files (or a folder's URL) read by these engine functions
    checkpoint: { load: 'loadPretrained', estimate: 'pretrainedEstimate', fetch: 'fetchCheckpoint' },
    context(inputs, models) {
      const model = models.model('pretrained', inputs);
      return model && { model, ids: model.tokenize(inputs.sentence).ids };
    },
  },
  params: ({ trace, inputs, t }) => ({
    layer: inputs.layer,
    head: inputs.head,
    kvHead: trace.labels.kvHead[0],
    family: familyOf(trace),
    predicted: visibleText(trace.labels.predicted?.[0] ?? ''),
    generated: visibleText(trace.labels.generated?.join('') ?? ''),
    count: trace.labels.generated?.length ?? 0,
    temperature: inputs.temperature,
    // the draw's choices: the top k, or every token
    pool: inputs.topK > 0 ? t('pretrained.poolTop', { topK: inputs.topK }) : t('pretrained.poolAll'),
    seed: inputs.seed,
  }),
  stages: {
    tokens: {
      formula: () => '\\text{text} \\mapsto (t_0, t_1, \\dots, t_{n-1}),\\quad t_i \\in \\{0, \\dots, V - 1\\}',
      code: ({ inputs }) =>
        [
          ...LOAD,
          `ids = tokenizer(${JSON.stringify(inputs.sentence)}, return_tensors="pt").input_ids`,
          'tokenizer.convert_ids_to_tokens(ids[0])  # the pieces, special tokens included',
        ].join('\n'),
    },
    embeddings: {
      texts: ({ trace }) => [trace.labels.positions[0]],
      formula: ({ trace }) =>
        rotary(trace)
          ? 'h^{(0)}_i = E_{t_i}\\quad\\text{(positions enter later, as rotations of } q \\text{ and } k\\text{)}'
          : 'h^{(0)}_i = E_{t_i} + P_i',
      code: ({ trace }) => {
        const { embed, positions } = modulesOf(trace);
        const sum = 'inputs_embeds + position_embeds';
        return [
          `inputs_embeds = base.${embed}(ids)`,
          ...(positions
            ? [
                `position_embeds = base.${positions}(torch.arange(ids.shape[1]))`,
                familyOf(trace) === 'gpt2'
                  ? `hidden_states = ${sum}  # out.hidden_states[0] below`
                  : `hidden_states = base.embeddings.LayerNorm(${sum}${familyOf(trace) === 'bert' ? ' + base.embeddings.token_type_embeddings(torch.zeros_like(ids))' : ''})`,
              ]
            : []),
        ].join('\n');
      },
    },
    qkv: {
      texts: ({ trace }) => [rotary(trace) ? 'rotary' : 'plain'],
      formula: ({ trace }) =>
        `q_i = x_i W_Q^{(h)},\\ k_i = x_i W_K^{(h)},\\ v_i = x_i W_V^{(h)}${
          rotary(trace) ? ',\\quad \\tilde q_i = R_i\\, q_i,\\ \\tilde k_i = R_i\\, k_i' : ''
        }`,
      code: ({ trace, inputs, stage }) =>
        [
          RUN,
          ...headProjections(trace, inputs, stage.panels[0].cols),
          ...(rotary(trace)
            ? [
                'from transformers.models.llama.modeling_llama import apply_rotary_pos_emb',
                'cos, sin = base.rotary_emb(v, torch.arange(ids.shape[1])[None])',
                'q_rotated, k_rotated = apply_rotary_pos_emb(q, k, cos[0], sin[0], unsqueeze_dim=0)',
              ]
            : []),
        ].join('\n'),
    },
    scores: {
      formula: () => 'S = Q K^\\top,\\qquad S / \\sqrt{d_h}',
      code: ({ trace }) =>
        [
          `scores = ${rotary(trace) ? 'q_rotated @ k_rotated.T' : 'q @ k.T'}`,
          'scaled = scores / math.sqrt(q.shape[-1])',
        ].join('\n'),
    },
    mask: {
      texts: ({ trace }) => [trace.labels.mask[0]],
      formula: ({ trace }) =>
        causal(trace)
          ? 'M_{ij} = \\begin{cases} 0 & j \\le i \\\\ -\\infty & j > i \\end{cases}'
          : 'M_{ij} = 0 \\text{ (no padding in one text)}',
      code: ({ trace }) =>
        [
          causal(trace)
            ? 'mask = torch.full(scaled.shape, -math.inf).triu(1)  # no token sees those after it'
            : 'mask = torch.zeros(scaled.shape)  # a padded batch masks its padding with -inf',
          'masked = scaled + mask',
        ].join('\n'),
    },
    softmax: {
      formula: () => 'A = \\operatorname{softmax}\\!\\big(S / \\sqrt{d_h} + M\\big)',
      code: ({ inputs }) =>
        [
          'weights = masked.softmax(dim=-1)',
          `torch.testing.assert_close(weights, out.attentions[${inputs.layer}][0, ${inputs.head}])`,
        ].join('\n'),
    },
    output: {
      formula: () => 'O^{(h)} = A\\, V',
      code: () => "output = weights @ v  # the head's share of the layer's output, before o_proj / c_proj",
    },
    'model-view': {
      view: 'layers',
      // a head of the grid ("attention-3-1") opens in the first stage of one head
      open: (name) => {
        const [, layer, head] = name.split('-');
        return { inputs: { layer, head }, stage: 'qkv' };
      },
      formula: () => 'A^{(l,h)},\\quad l = 0 \\dots L - 1,\\ h = 0 \\dots H - 1',
      code: () => [RUN, 'grid = torch.stack(out.attentions)[:, 0]  # [layers, heads, tokens, tokens]'].join('\n'),
    },
    'head-view': {
      view: 'heads',
      formula: ({ inputs }) => `A^{(${inputs.layer},h)}_{i,j},\\quad h = 0 \\dots H - 1`,
      code: ({ inputs }) =>
        [
          RUN,
          `heads = out.attentions[${inputs.layer}][0]  # a line from query i to key j, as strong as the weight`,
        ].join('\n'),
    },
    sinks: {
      formula: () =>
        '\\bar a^{(l,h)} = \\frac{1}{n-1} \\sum_{i=1}^{n-1} A_{i,0},\\qquad \\bar a^{(l,h)}_{\\lVert v \\rVert} = \\frac{1}{n-1} \\sum_{i=1}^{n-1} \\frac{A_{i,0}\\, \\lVert v_0 \\rVert}{\\sum_j A_{i,j}\\, \\lVert v_j \\rVert}',
      code: () =>
        [
          RUN,
          'first_token = torch.stack(out.attentions)[:, 0, :, 1:, 0].mean(-1)  # [layers, heads]',
          "# with the values: v of each layer and head (as in the head stages), norms over the head's width",
          'share = weights[1:, 0] * v.norm(dim=-1)[0] / (weights[1:] @ v.norm(dim=-1))',
          'first_token_values[l, h] = share.mean()',
        ].join('\n'),
    },
    rollout: {
      formula: () =>
        '\\tilde A^{(l)} = \\tfrac12 \\Big(I + \\tfrac1H \\sum_h A^{(l,h)}\\Big),\\qquad R = \\tilde A^{(L-1)} \\cdots \\tilde A^{(1)} \\tilde A^{(0)}',
      code: () =>
        [
          RUN,
          'rollout = torch.eye(ids.shape[1])',
          'for a in out.attentions:  # from the first layer up',
          '    rollout = (0.5 * a[0].mean(0) + 0.5 * torch.eye(ids.shape[1])) @ rollout',
        ].join('\n'),
    },
    prediction: {
      formula: () =>
        'p(t_n \\mid t_0 \\dots t_{n-1}) = \\operatorname{softmax}\\big(\\operatorname{LN}(h^{(L)}_{n-1})\\, W_{\\text{lm}}^\\top\\big)',
      code: () =>
        [
          'probabilities = model(ids).logits[0, -1].softmax(-1)',
          'top = probabilities.topk(10)',
          'tokenizer.convert_ids_to_tokens(top.indices)',
        ].join('\n'),
    },
    generation: {
      // how each token is chosen, the cache, and why it stopped (tokens, end or positions)
      texts: ({ trace, inputs }) => [greedy(inputs) ? 'greedy' : 'sampled', 'cache', trace.labels.generationEnd[0]],
      formula: ({ inputs }) =>
        `${
          greedy(inputs)
            ? 't_{m} = \\arg\\max_t\\, p(t \\mid t_0 \\dots t_{m-1})'
            : `t_{m} \\sim \\operatorname{softmax}(z${inputs.topK > 0 ? `_{\\operatorname{top} ${inputs.topK}}` : ''} / ${inputs.temperature})`
        },\\qquad K \\leftarrow \\begin{bmatrix} K \\\\ k_{m-1} \\end{bmatrix},\\ V \\leftarrow \\begin{bmatrix} V \\\\ v_{m-1} \\end{bmatrix}`,
      code: ({ trace, inputs }) => generationCode(trace, inputs),
    },
  },
};
