// The seq2seq models' own part (models.js makes, loads and trains models of every kind): the
// translation tasks, and a seq2seq model's vocabularies and translation methods.
import { sharedOnce } from './checks.js';
import { translationMethods } from './models.js';
import { translationReader } from './translation-tasks.js';

/** The seq2seq kind's part over `call` (runs an export, throws its error) and its `facts`. */
export function seq2seqParts({ call, facts }) {
  return {
    // made once (some 60 ms each in WebAssembly)
    api: { seq2seqTasks: sharedOnce(call, 'seq2seqTasks') },
    methods: (info, live) => translationMethods(call, 'seq2seq', info, live, facts),
  };
}

/** The seq2seq kind's entry in the kinds' table (kinds.js). */
export const seq2seqKind = {
  create: 'createSeq2seq',
  facts: 'seq2seqFacts',
  walkthroughs: ['scoring', 'seq2seq'],
  // the attention over the probe's sentence as the model translates it: its output tokens by
  // source words
  probe(model, { sentence }) {
    const { source, steps, alignment } = model.translate(sentence);
    return { ...alignment, rowLabels: steps.map((step) => step.token), colLabels: source };
  },
  shipped: [
    { task: 'en-fr', scoring: 'additive', steps: 600 },
    { task: 'en-zh', scoring: 'additive', steps: 600 },
  ],
  reader: translationReader,
  parts: seq2seqParts,
};
