// The frozen kind's entry for JavaScript (tests/kinds/frozen_session.hpp): a kind of the test
// build only that loads and runs, and neither is made from options, trains nor saves (its facts'
// abilities say so). The tests' package has it as web/engine/frozen.js (tests/kinds/package.js).
import { describe, fail } from './checks.js';

/** The frozen kind's entry in the kinds' table (kinds.js): no create function. */
export const frozenKind = {
  facts: 'frozenFacts',
  walkthroughs: ['frozen'],
  probe(model, { sentence }) {
    const { weights, tokens } = model.read(sentence);
    return { rows: 1, cols: weights.length, data: weights, rowLabels: ['α'], colLabels: tokens };
  },
  shipped: [],
  parts: ({ call }) => ({
    api: {},
    methods: (info, live) => ({
      vocab: info.vocab,
      read: (sentence) =>
        typeof sentence === 'string'
          ? call('frozenRead', live(), sentence)
          : fail(`sentence must be a string, got ${describe(sentence)}`, 'sentence'),
    }),
  }),
};
