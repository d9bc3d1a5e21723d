// Sentence pairs made up for tests that need large vocabularies, for the Node and the browser
// tests alike (no Node module in here): `count` lines "s17 s4 …<TAB>t3 t250 …", 3 to 7 words a side
// drawn from `words` words each, so a few hundred words make an output layer and a softmax large
// enough to split across threads.
export function generatedPairs(count, words) {
  let state = 1;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 8;
  const sentence = (side) => Array.from({ length: 3 + (next() % 5) }, () => `${side}${next() % words}`).join(' ');
  return Array.from({ length: count }, () => `${sentence('s')}\t${sentence('t')}\n`).join('');
}

/** A task of 1,500 such pairs over 300 words a side, as createTranslationTask takes it. */
export const LARGE_TEXT_TASK = Object.freeze({ text: generatedPairs(1500, 300), name: 'generated' });
