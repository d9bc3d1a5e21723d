// Every number the seed notebooks print, from Node: `node seeds.js` after `npm install attention-stepper`.
import { loadAttention } from 'attention-stepper';

const attn = await loadAttention();

const decoderState = [5, 1, 20];
const annotations = [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
];
const scores = attn.dotScores(decoderState, annotations);
const weights = attn.softmax(scores);
const logWeights = attn.logSoftmax(scores);
const context = attn.contextVector(attn.applyWeights(weights, annotations));

const random = attn.randomState(42);
const [Wq, Wk, Wv] = [random.randint(3, 3, 3), random.randint(3, 3, 3), random.randint(3, 3, 3)];
const words = [
  [1, 0, 0],
  [0, 1, 0],
  [1, 1, 0],
  [0, 0, 1],
];
const { output } = attn.selfAttention(words, Wq, Wk, Wv);

console.log(
  JSON.stringify({
    score: attn.dotScore(decoderState, annotations[0]),
    scores: Array.from(scores),
    weights: Array.from(logWeights, (log, i) => (weights[i] > 0 ? weights[i] : attn.decimalFromLog(log))),
    context: Array.from(context),
    W_Q: Array.from(Wq.data),
    word1: Array.from(output.data.slice(0, 3)),
    threads: attn.threads,
  }),
);
