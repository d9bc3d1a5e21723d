// The Transformer models' own part (models.js makes, loads and trains models of every kind), on the
// translation tasks of the seq2seq models (seq2seqTasks): vocabularies, the head guided alignment
// supervises, and translation methods.
import { deepFreeze } from './checks.js';
import { translationMethods } from './models.js';

/** The Transformer kind's part over `call` and its `facts`, as seq2seq.js has it. */
export function transformerParts({ call, facts }) {
  return {
    api: {},
    methods: (info, live) => ({
      vocab: deepFreeze({ source: info.source, target: info.target, unit: info.unit }),
      guidedHead: deepFreeze(info.guidedHead),
      ...translationMethods(call, 'transformer', live, facts),
    }),
  };
}
