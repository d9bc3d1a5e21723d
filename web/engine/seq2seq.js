// The seq2seq models' own part (models.js makes, loads and trains models of every kind): the
// translation tasks, and a seq2seq model's vocabularies and translation methods.
import { deepFreeze } from './checks.js';
import { translationMethods } from './models.js';

/** The seq2seq kind's part over `call` (runs an export, throws its error) and its `facts`. */
export function seq2seqParts({ call, facts }) {
  let tasks = null;
  return {
    api: {
      seq2seqTasks() {
        // made once (some 60 ms each in WebAssembly), then shared read-only
        tasks ??= deepFreeze(call('seq2seqTasks'));
        return tasks;
      },
    },
    methods: (info, live) => ({
      vocab: deepFreeze({ source: info.source, target: info.target, unit: info.unit }),
      ...translationMethods(call, 'seq2seq', live, facts),
    }),
  };
}
