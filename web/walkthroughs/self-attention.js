// Self-attention from scratch (seed 002). Titles and texts: the locale's
// self-attention.stages.<kind>, with {word} the word followed step by step.
import { pythonList } from './python.js';

const size = ({ inputs }) => inputs.embeddings[0].length;
const followed = ({ inputs }) => inputs.word + 1; // word_1 is index 0
const WEIGHTS = ['W_Q', 'W_K', 'W_V']; // inputs that, given, replace the seeded draws
const range = (count) => Array.from({ length: count }, (_, j) => j + 1);

export default {
  name: 'self-attention',
  fields: [
    { name: 'embeddings', label: 'field.embeddings', hint: 'field.embeddingsHint' },
    { name: 'seed', label: 'field.seed' },
    { name: 'high', label: 'field.high' },
    // one option per word, labelled as the trace labels the words
    { name: 'word', label: 'field.word', options: ({ trace }) => trace.labels.words.map((word, i) => [i, word]) },
  ],
  params: ({ trace, inputs }) => ({ word: trace.labels.words[inputs.word] }),
  // fewer words: the word followed stays one of them
  adjust: (inputs) => ({ ...inputs, word: Math.min(inputs.word, inputs.embeddings.length - 1) }),
  stages: {
    embeddings: {
      formula: (context) => `x_i \\in \\mathbb{R}^{${size(context)}}`,
      code: ({ inputs, trace }) =>
        inputs.embeddings.map((row, i) => `${trace.labels.words[i]} = np.array(${pythonList(row)})`).join('\n'),
    },
    'weight-matrices': {
      formula: (context) => {
        const d = size(context);
        const values = WEIGHTS.some((w) => context.inputs[w])
          ? '\\mathbb{R}'
          : `\\{0, \\dots, ${context.inputs.high - 1}\\}`;
        return `W^Q,\\ W^K,\\ W^V \\in ${values}^{${d} \\times ${d}}`;
      },
      // weights given (from a file) are written out; the others are drawn as the notebook draws them
      code: (context) => {
        const d = size(context);
        const randint = ` = np.random.randint(${context.inputs.high}, size=(${d}, ${d}))`;
        const line = (w) =>
          context.inputs[w] ? `${w} = np.array([${context.inputs[w].map(pythonList).join(', ')}])` : w + randint;
        return [`np.random.seed(${context.inputs.seed})`, ...WEIGHTS.map(line)].join('\n');
      },
    },
    projections: {
      formula: () => 'q_i = x_i W^Q,\\quad k_i = x_i W^K,\\quad v_i = x_i W^V',
      code: (context) => {
        const w = followed(context);
        return `query_${w} = word_${w} @ W_Q\nkey_${w} = word_${w} @ W_K\nvalue_${w} = word_${w} @ W_V`;
      },
    },
    'word-scores': {
      formula: (context) => `e_{${followed(context)}j} = q_{${followed(context)}} \\cdot k_j`,
      code: (context) => {
        const terms = range(context.inputs.embeddings.length).map(
          (j) => `np.dot(query_${followed(context)}, key_${j})`,
        );
        return `scores = np.array([${terms.join(', ')}])`;
      },
    },
    'word-scaled': {
      formula: (context) => `\\frac{e_{${followed(context)}j}}{\\sqrt{d_k}},\\quad d_k = ${size(context)}`,
      code: () => 'scores / key_1.shape[0] ** 0.5',
    },
    'word-weights': {
      formula: (context) => {
        const w = followed(context);
        return `\\alpha_{${w}j} = \\operatorname{softmax}_j\\left(\\frac{e_{${w}j}}{\\sqrt{d_k}}\\right)`;
      },
      code: () => 'weights = softmax(scores / key_1.shape[0] ** 0.5)',
    },
    'word-output': {
      formula: (context) => `z_{${followed(context)}} = \\sum_j \\alpha_{${followed(context)}j} v_j`,
      code: ({ inputs }) =>
        `attention = ${range(inputs.embeddings.length)
          .map((j) => `(weights[${j - 1}] * value_${j})`)
          .join(' + ')}`,
    },
    'all-scores': { formula: () => 'Q K^\\top', code: () => 'scores = Q @ K.T' },
    'all-weights': {
      formula: () => 'A = \\operatorname{softmax}\\left(\\frac{Q K^\\top}{\\sqrt{d_k}}\\right)',
      code: () => 'weights = softmax(scores / K.shape[1] ** 0.5, axis=1)',
    },
    'all-output': { formula: () => 'Z = A V', code: () => 'attention = weights @ V' },
  },
};
