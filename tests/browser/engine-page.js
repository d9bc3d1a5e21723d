// Loads the engine the way a static page does (plain ES module import, .wasm found next to the
// loader) and publishes the seed numbers for the test to read.
import { loadAttention, trainModel } from '../../dist/engine/index.js';
import { LARGE_TEXT_TASK } from '../text-pairs.js';

// The default engine against one thread on an attention big enough to be split across threads;
// or, where threads cannot run, the message that asking for two gives.
async function compareThreads(attn) {
  if (attn.threads === 1) {
    const threadsError = await loadAttention({ threads: 2 }).then(
      () => 'loaded',
      (error) => error.message,
    );
    return { threadsError };
  }
  const single = await loadAttention({ threads: 1 });
  const random = single.randomState(7);
  const [q, k, v] = [0, 1, 2].map(() => {
    const { data } = random.randn(300, 64);
    return { rows: 300, cols: 64, data: Float32Array.from(data) };
  });
  const expected = single.attention(q, k, v, { causal: true }).output.data;
  const got = attn.attention(q, k, v, { causal: true }).output.data;
  return { threadedSame: got.length === expected.length && got.every((x, i) => x === expected[i]) };
}

// trainModel (its worker) of `kind` on the reader's text (`task`: the options of the task its
// `create` function makes), against the same steps here on one thread: the threads it trained on,
// and whether the bytes are the same; or why it could not run.
async function compareTraining(kind, model, create, task, probe) {
  const run = trainModel({ kind, model, task, probe, steps: 10, chunk: 5 });
  const trained = await run.finished.catch((error) => ({ error: error.message }));
  if (trained.error) return { trainingError: trained.error };
  const single = await loadAttention({ threads: 1, models: true });
  const made = single[create](task);
  const expected = single.createModel({ kind, ...model, task: made });
  // a minibatch is at most the training split, as the run's
  const batch = Math.min(single.modelFacts(kind).defaults.batch, made.stats.train);
  expected.train({ steps: 5, batch });
  expected.train({ steps: 5, batch });
  const bytes = expected.save();
  expected.dispose();
  made.dispose();
  const same = bytes.length === trained.bytes.length && bytes.every((x, i) => x === trained.bytes[i]);
  return { trainedThreads: trained.threads, trainedSame: same };
}

// A reader's labelled sentences for a classifier: a word of each label's own among shared ones.
const SENTENCES = Array.from(
  { length: 60 },
  (_, i) => `w${i % 5} ${['cat', 'car', 'rice'][i % 3]} !\t${'abc'[i % 3]}`,
).join('\n');

const output = document.getElementById('result');
try {
  const attn = await loadAttention();
  const annotations = [
    [3, 12, 45],
    [59, 2, 5],
    [1, 43, 5],
    [4, 3, 45.3],
  ];
  const scores = attn.dotScores([5, 1, 20], annotations);
  const context = attn.contextVector(attn.applyWeights(attn.softmax(scores), annotations));
  const random = attn.randomState(42);
  const words = [
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
  ];
  const self = attn.selfAttention(words, random.randint(3, 3, 3), random.randint(3, 3, 3), random.randint(3, 3, 3));
  let error = '';
  try {
    attn.dotScores([1, 2], annotations);
  } catch (e) {
    error = e.message;
  }
  output.textContent = JSON.stringify({
    threads: attn.threads,
    ...(await compareThreads(attn)),
    ...(await compareTraining('seq2seq', { embedding: 16, hidden: 32 }, 'createTranslationTask', LARGE_TEXT_TASK, {
      sentence: 's1 s2',
    })),
    classifierTraining: await compareTraining(
      'classifier',
      { embedding: 8, hidden: 8 },
      'createClassificationTask',
      { text: SENTENCES, minCount: 1 },
      { sentence: 'w1 cat !' },
    ),
    scores: Array.from(scores),
    context: Array.from(context),
    tiny: attn.decimalFromLog(attn.logSoftmax(scores)[2]),
    word1: Array.from(self.output.data.slice(0, 3)),
    stages: attn.walkthrough('basics').stages.length,
    error,
    afterError: attn.dotScore([5, 1, 20], [3, 12, 45]),
  });
} catch (error) {
  output.textContent = JSON.stringify({ failed: String(error) });
}
