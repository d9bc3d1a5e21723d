// Scoring functions and a whole decoding (seed 004). Titles and texts: the locale's
// scoring.stages.<kind>; the decoding steps share the kind "step", with {t} and {word}.
import { pythonShape } from './python.js';
import { panelOf } from './trace.js';

export const SCORE_FORMULAS = {
  additive: 'v_a^\\top \\tanh(W_a s_t + U_a h_j)',
  dot: 's_t^\\top h_j',
  general: 's_t^\\top W_a h_j',
  concat: 'v_a^\\top \\tanh(W_a [s_t; h_j])',
};

// Sizes as the trace has them (the states may be given rather than drawn): H and S are drawn
// one state per column.
function sizes({ trace, inputs }) {
  const h = panelOf(
    trace.stages.find((stage) => stage.id === 'encoder-states'),
    'H',
  );
  const s = panelOf(
    trace.stages.find((stage) => stage.id === 'decoder-states'),
    'S',
  );
  return { n: h.cols, dh: h.rows, steps: s.cols, ds: s.rows, da: inputs.attentionWidth };
}

function statesCode(context) {
  const { n, dh } = sizes(context);
  const { inputs } = context;
  return [
    `np.random.seed(${inputs.seed})`,
    inputs.encoderStates
      ? 'H = np.array(...)  # given'
      : `H = np.random.randn${pythonShape(inputs.length, inputs.width)}  # one encoder state per row`,
    inputs.decoderStates
      ? 'S = np.array(...)  # given'
      : `S = H + 0.5 * np.random.randn${pythonShape(n, dh)}  # decoder states near the encoder's`,
  ].join('\n');
}

export default {
  name: 'scoring',
  fields: [
    {
      name: 'score',
      label: 'field.score',
      options: ({ field }) => field.choices.map((name) => [name, `scoreNames.${name}`]),
    },
    { name: 'length', label: 'field.length' },
    { name: 'width', label: 'field.width' },
    { name: 'seed', label: 'field.seed' },
    { name: 'sourceTokens', label: 'field.sourceTokens', hint: 'field.tokensHint' },
    { name: 'targetTokens', label: 'field.targetTokens', hint: 'field.tokensHint' },
  ],
  params: ({ trace, stage }) => (stage?.step ? { t: stage.step, word: trace.labels.target[stage.step - 1] } : {}),
  stages: {
    'encoder-states': {
      formula: (context) => {
        const { n, dh } = sizes(context);
        return `h_j \\in \\mathbb{R}^{${dh}},\\ j = 1...${n}`;
      },
      code: statesCode,
    },
    'decoder-states': {
      formula: (context) => {
        const { steps, ds } = sizes(context);
        return `s_t \\in \\mathbb{R}^{${ds}},\\ t = 1...${steps}`;
      },
      code: statesCode,
    },
    parameters: {
      formula: () => 'W_a,\\ U_a,\\ v_a,\\ W_c',
      code: (context) => {
        const { dh, ds, da } = sizes(context);
        return [
          `W_general = np.random.randn${pythonShape(ds, dh)} * 0.5`,
          `W_concat = np.random.randn${pythonShape(da, ds + dh)} * 0.5`,
          `v_concat = np.random.randn${pythonShape(1, da)}[0]`,
          `W_additive = np.random.randn${pythonShape(da, ds)} * 0.5`,
          `U_additive = np.random.randn${pythonShape(da, dh)} * 0.5`,
          `v_additive = np.random.randn${pythonShape(1, da)}[0]`,
          `W_c = np.random.randn${pythonShape(ds, dh + ds)} * 0.5`,
        ].join('\n');
      },
    },
    'compare-scores': {
      // one line per scoring function the states allow (dot needs equal widths), s the first state
      formula: ({ stage }) =>
        `\\begin{aligned}${stage.panels
          .map((panel) => `\\text{${panel.name}} &: ${SCORE_FORMULAS[panel.name].replaceAll('s_t', 's')}`)
          .join('\\\\ ')}\\end{aligned}`,
      code: ({ stage }) => stage.panels.map((panel) => `${panel.name}_scores`).join('\n'),
    },
    'compare-weights': {
      formula: () => '\\alpha_j = \\operatorname{softmax}_j(e_j)',
      code: () => 'weights = softmax(scores)',
    },
    step: {
      formula: ({ inputs }) =>
        `e_{t,j} = ${SCORE_FORMULAS[inputs.score]},\\quad \\alpha_t = \\operatorname{softmax}(e_t),\\quad ` +
        'c_t = \\sum_j \\alpha_{t,j} h_j,\\quad \\tilde{h}_t = \\tanh(W_c [c_t; s_t])',
      code: ({ inputs, stage }) =>
        [
          `s_t = S[${stage.step - 1}]`,
          `e_t = ${inputs.score}_scores(s_t, H)`,
          'alpha_t = softmax(e_t)',
          'c_t = alpha_t @ H',
          'h_tilde_t = np.tanh(W_c @ np.concatenate([c_t, s_t]))',
        ].join('\n'),
    },
    alignment: {
      formula: () => 'A_{t,j} = \\alpha_{t,j}',
      code: () => 'alignment = np.stack([alpha_1, ..., alpha_T])',
    },
  },
};
