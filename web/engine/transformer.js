// The Transformer models' own part (models.js makes, loads and trains models of every kind), on the
// translation tasks of the seq2seq models (seq2seqTasks): vocabularies, the head guided alignment
// supervises, and translation methods.
import { deepFreeze } from './checks.js';
import { joinRows, translationMethods } from './models.js';
import { translationReader } from './translation-tasks.js';

/** The Transformer kind's part over `call` and its `facts`, as seq2seq.js has it. */
export function transformerParts({ call, facts }) {
  return {
    api: {},
    methods: (info, live) => ({
      guidedHead: deepFreeze(info.guidedHead),
      ...translationMethods(call, 'transformer', info, live, facts),
    }),
  };
}

/** The Transformer kind's entry in the kinds' table (kinds.js). */
export const transformerKind = {
  create: 'createTransformer',
  facts: 'transformerFacts',
  walkthroughs: ['transformer'],
  // the cross-attention head that guided alignment supervises (model.guidedHead) over the probe's
  // sentence as the model translates it: its output tokens by source words
  probe(model, { sentence }) {
    const { source, steps, decoder } = model.translate(sentence);
    const rows = decoder[model.guidedHead.layer].crossAttention[model.guidedHead.head];
    return { ...joinRows(rows), rowLabels: steps.map((step) => step.token), colLabels: source };
  },
  shipped: [{ task: 'en-fr', steps: 600 }],
  reader: translationReader,
  parts: transformerParts,
};
