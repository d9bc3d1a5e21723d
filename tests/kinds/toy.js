// The toy kind's entry for JavaScript (tests/kinds/toy_session.hpp): a kind of the test build
// only, added by docs/architecture.md's recipe alone. The tests' package has it as
// web/engine/toy.js, and kinds.js imports it there (scripts/test-kinds.js makes that package).
import { deepFreeze, describe, fail } from './checks.js';

/** The toy kind's part: a model reads a sentence (its words' attention and the label it predicts). */
export function toyParts({ call }) {
  return {
    api: {},
    methods: (info, live) => ({
      labels: deepFreeze(info.labels),
      vocab: deepFreeze(info.vocab),
      read: (sentence) =>
        typeof sentence === 'string'
          ? call('toyRead', live(), sentence)
          : fail(`sentence must be a string, got ${describe(sentence)}`, 'sentence'),
    }),
  };
}

/** The toy kind's entry in the kinds' table (kinds.js). */
export const toyKind = {
  create: 'createToy',
  facts: 'toyFacts',
  walkthroughs: ['toy'],
  // the attention over the probe's sentence: one row, labelled with the predicted label
  probe(model, { sentence }) {
    const { label, weights, tokens } = model.read(sentence);
    return { rows: 1, cols: weights.length, data: weights, rowLabels: [label], colLabels: tokens };
  },
  goal: 'accuracy',
  shipped: [],
  parts: toyParts,
};
