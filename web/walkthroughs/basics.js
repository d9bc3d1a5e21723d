// Attention Basics (seeds 000, 001 and 003): what each stage shows besides its numbers. Its title
// and text are the locale's basics.stages.<kind>; the formula (LaTeX) and the notebook's code are
// written here from the inputs the trace was computed with.
import { pythonList, pythonNumber } from './python.js';
import { panelOf } from './trace.js';

const width = ({ inputs }) => inputs.decoderState.length;

export default {
  name: 'basics',
  // The form, in order. Kinds, limits and defaults are the engine's (attn.walkthroughInputs).
  fields: [
    { name: 'decoderState', label: 'field.decoderState', hint: 'field.decoderStateHint' },
    { name: 'annotations', label: 'field.annotations', hint: 'field.annotationsHint' },
    { name: 'seed', label: 'field.seedWc' },
  ],
  stages: {
    'decoder-state': {
      formula: (context) => `s \\in \\mathbb{R}^{${width(context)}}`,
      code: ({ inputs }) => `dec_hidden_state = ${pythonList(inputs.decoderState)}`,
    },
    annotation: {
      formula: (context) => `h_1 \\in \\mathbb{R}^{${width(context)}}`,
      code: ({ inputs }) => `annotation = ${pythonList(inputs.annotations[0])} #e.g. Encoder hidden state`,
    },
    'single-score': {
      formula: () => '\\operatorname{score}(s, h_1) = s^\\top h_1',
      code: () => 'single_dot_attention_score(dec_hidden_state, annotation)',
    },
    annotations: {
      formula: ({ inputs }) => `H = [h_1, \\dots, h_{${inputs.annotations.length}}]`,
      code: ({ inputs }) => `annotations = np.transpose([${inputs.annotations.map(pythonList).join(', ')}])`,
    },
    scores: {
      formula: () => 'e_j = s^\\top h_j',
      code: () => 'attention_weights_raw = dot_attention_score(dec_hidden_state, annotations)',
      // seed 001 asks before it reveals: which annotation gets the most attention? Asked on any
      // inputs, so the feedback quotes the scores on screen.
      question: ({ stage }) => {
        const scores = panelOf(stage, 'attention_weights_raw');
        if (scores.cols < 2) return null; // one annotation: nothing to choose from
        const best = scores.data.indexOf(Math.max(...scores.data));
        const answer = scores.colLabels[best];
        const others = scores.colLabels
          .map((label, j) => `${label}: ${pythonNumber(scores.data[j])}`)
          .filter((_, j) => j !== best)
          .join(', ');
        return {
          id: 'most-attention',
          choices: scores.colLabels.map((label) => [label, label]),
          answer,
          params: { answer, score: pythonNumber(scores.data[best]), others },
        };
      },
    },
    softmax: {
      formula: () => '\\alpha_j = \\frac{\\exp(e_j)}{\\sum_k \\exp(e_k)}',
      code: () => 'attention_weights = softmax(attention_weights_raw)',
      reveal: true, // the weights the question asks about
      // the question quotes the notebook's scores, so it is asked on the notebook's inputs only
      question: ({ stage, notebookInputs }) => {
        if (!notebookInputs) return null;
        const weights = panelOf(stage, 'attention_weights').data;
        return {
          id: 'softmax-share',
          choices: [
            ['yes', 'yes'],
            ['no', 'no'],
          ],
          answer: Math.abs(weights[0] - weights.at(-1)) < 0.1 ? 'yes' : 'no',
        };
      },
    },
    applied: {
      formula: () => '\\alpha_j h_j',
      code: () => 'applied_attention = apply_attention_scores(attention_weights, annotations)',
    },
    context: {
      formula: () => 'c = \\sum_j \\alpha_j h_j',
      code: () => 'attention_vector = calculate_attention_vector(applied_attention)',
    },
    'attentional-state': {
      formula: () => '\\tilde{h} = \\tanh\\left(W_c [c; s]\\right)',
      code: (context) => {
        const d = width(context);
        return [
          `np.random.seed(${context.inputs.seed})`,
          `W_c = np.random.randn(${d}, ${2 * d}) * 0.1`,
          'h_tilde = np.tanh(W_c @ np.concatenate([attention_vector, dec_hidden_state]))',
        ].join('\n');
      },
    },
  },
};
