// The seed notebooks' numbers, defined once for every JavaScript test layer: the Node tests and
// the browser tests (which compute in the page and check here, on the Node side). The outputs are
// numpy's, from tests/fixtures/reference.json (made by tests/fixtures/make_fixtures.py);
// tests/js/seeds.test.js checks that they are the numbers the notebooks print.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const reference = JSON.parse(readFileSync(new URL('./fixtures/reference.json', import.meta.url), 'utf8'));

const column = (rows, j) => rows.map((row) => row[j]);

function deepFreeze(value) {
  if (value && typeof value === 'object') Object.values(Object.freeze(value)).forEach(deepFreeze);
  return value;
}

export const SEEDS = deepFreeze({
  // ---- inputs, as the notebooks type them
  /** Attention Basics: the decoder hidden state s. */
  decoderState: [5, 1, 20],
  /** Attention Basics: the four annotations h1..h4, one per row. */
  annotations: [
    [3, 12, 45],
    [59, 2, 5],
    [1, 43, 5],
    [4, 3, 45.3],
  ],
  /** Self-attention: the word embeddings word_1..word_4. */
  words: [
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
  ],

  // ---- outputs (numpy's)
  /** s · h1: 927. */
  score: reference.basics_scores[0],
  /** s · h1..h4: [927, 397, 148, 929]. */
  scores: reference.basics_scores,
  /** softmax(scores) as doubles: the third underflows to 0. */
  weights: reference.basics_log_weights.map((log) => (log < -745 ? 0 : Math.exp(log))),
  /** softmax(scores) in numpy's float128, as text: ['1.1920292e-01', '7.9471515e-232', …]. */
  weightsText: reference.basics_weights_text,
  /** The third weight as numpy's float128 prints it: '5.7661442e-340', beyond any double. */
  tiny: reference.basics_weights_text[2],
  /** The applied attention (3 x 4, one annotation per column) as float128 text. */
  appliedText: reference.basics_applied_text,
  /** Its third column, h3's, all beyond a double: ['5.7661442e-340', '2.479442e-338', '2.8830721e-339']. */
  appliedTiny: column(reference.basics_applied_text, 2),
  /** The context vector: [3.88079708, 4.0728263, 45.26423912]. */
  context: reference.basics_context,
  /** np.random.seed(42), then randint(3, size=(3, 3)) three times: [[2,0,2],[2,0,0],[2,1,2]], … */
  W_Q: reference.self_attention.W_Q,
  W_K: reference.self_attention.W_K,
  W_V: reference.self_attention.W_V,
  /** The self-attention output for word_1: [0.98522025, 1.74174051, 0.75652026]. */
  word1: reference.self_attention.output[0],
});

// How each seed number is checked. Numbers may come as the numbers the engine returns or as the
// text a page shows (data-value, CSV): exact numbers are then compared as String(number), which is
// how the page writes them. Matrices are compared as their row-major values.
const flat = (value) => (Array.isArray(value?.[0]) ? value.flat() : value);

function exact(actual, expected, where) {
  if (typeof actual === 'string') return assert.equal(actual, String(expected), where);
  assert.equal(actual, expected, where);
}

function exactList(actual, expected, where) {
  const values = Array.from(flat(actual));
  const wanted = flat(expected);
  assert.equal(values.length, wanted.length, `${where}: ${values.length} values, not ${wanted.length}`);
  values.forEach((value, i) => exact(value, wanted[i], `${where}[${i}]: ${value} != ${wanted[i]}`));
}

// The engine and numpy agree to the last bits or so: 1e-12, relative plus absolute.
function nearList(actual, expected, where) {
  const values = Array.from(actual, Number);
  assert.equal(values.length, expected.length, `${where}: ${values.length} values, not ${expected.length}`);
  values.forEach((value, i) => {
    const bound = 1e-12 * (1 + Math.abs(expected[i]));
    assert.ok(Math.abs(value - expected[i]) <= bound, `${where}[${i}]: ${value} != ${expected[i]}`);
  });
}

const CHECKS = {
  score: (actual, where) => exact(actual, SEEDS.score, where),
  scores: (actual, where) => exactList(actual, SEEDS.scores, where),
  tiny: (actual, where) => assert.equal(actual, SEEDS.tiny, where),
  appliedTiny: (actual, where) => assert.deepEqual(Array.from(actual), SEEDS.appliedTiny, where),
  // The third weight: 0 as a double, or its float128 text where the page or example shows that.
  weights: (actual, where) => {
    const values = Array.from(actual);
    assert.equal(values.length, 4, where);
    if (typeof values[2] === 'string') assert.equal(values[2], SEEDS.tiny, `${where}[2]`);
    else assert.equal(values[2], 0, `${where}[2]`);
    nearList(
      [0, 1, 3].map((i) => values[i]),
      [0, 1, 3].map((i) => SEEDS.weights[i]),
      `${where}[0, 1, 3]`,
    );
  },
  context: (actual, where) => nearList(actual, SEEDS.context, where),
  W_Q: (actual, where) => exactList(actual, SEEDS.W_Q, where),
  W_K: (actual, where) => exactList(actual, SEEDS.W_K, where),
  W_V: (actual, where) => exactList(actual, SEEDS.W_V, where),
  word1: (actual, where) => nearList(actual, SEEDS.word1, where),
};

/**
 * Checks the seed numbers `actual` holds, by their names in SEEDS: assertSeedNumbers({ scores,
 * context, tiny }). Integers, texts and the W matrices exactly; the context vector, word 1's output
 * and the weights as doubles to 1e-12. `where` names what is checked in failure messages.
 */
export function assertSeedNumbers(actual, where = 'seed numbers') {
  const names = Object.keys(actual);
  assert.ok(names.length > 0, `${where}: nothing to check`);
  for (const name of names) {
    assert.ok(name in CHECKS, `${where}: no seed number is called ${name}`);
    CHECKS[name](actual[name], `${where}: ${name}`);
  }
}
