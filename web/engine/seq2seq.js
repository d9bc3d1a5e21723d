// The seq2seq models: translation tasks, and models made (or loaded, models.js) and trained, each
// over a handle to the engine's model store that dispose() frees.
import { deepFreeze, integer, optionalText, options } from './checks.js';
import {
  configOf,
  modelBase,
  seedOption,
  sizeOption,
  taskOption,
  trainingMethods,
  translationMethods,
} from './models.js';

const CONFIG = ['task', 'scoring', 'encoder', 'layers', 'embedding', 'hidden', 'seed', 'validation', 'precision'];

/**
 * The seq2seq functions over `module` and `call` (runs an export, throws its error), as models.js
 * composes a kind: { api, model(info) → [model, live handle] }; wrap(info) makes a model of the
 * engine's info (models.js).
 */
export function seq2seqApi(module, call, wrap) {
  // What the models take, their limits and defaults, as the engine publishes them.
  const facts = deepFreeze({ ...call('seq2seqFacts'), maxSeed: module.maxSeed });
  let tasks = null;

  // A seq2seq model over the engine's handle; dispose() frees it, and later calls throw.
  function seq2seqModel(info) {
    const { live, methods } = modelBase(call, info);
    const training = trainingMethods(call, 'seq2seq', live, facts, 'guide');
    // train() with a guide may raise config.guide (the largest λ it has trained with): the engine
    // says what it became
    let config = configOf(info, [...CONFIG, 'guide']);
    const model = Object.freeze({
      ...methods,
      vocab: deepFreeze({ source: info.source, target: info.target, unit: info.unit }),
      get config() {
        return config;
      },
      ...translationMethods(call, 'seq2seq', live, facts),
      ...training,
      train(opts) {
        const h = live();
        try {
          return training.train(opts);
        } finally {
          const guide = call('seq2seqGuide', h);
          if (guide !== config.guide) config = Object.freeze({ ...config, guide });
        }
      },
    });
    return [model, live];
  }

  const api = {
    seq2seqFacts: () => facts,
    seq2seqTasks() {
      // made once (some 60 ms each in WebAssembly), then shared read-only
      tasks ??= deepFreeze(call('seq2seqTasks'));
      return tasks;
    },
    createSeq2seq(opts) {
      const o = options(opts, 'options', CONFIG);
      // what is not given takes the engine's default (facts.defaults); the engine checks the values
      return wrap(
        call('seq2seqCreate', {
          task: taskOption(o.task, facts),
          scoring: optionalText(o.scoring, 'options.scoring'),
          encoder: optionalText(o.encoder, 'options.encoder'),
          layers: sizeOption(o.layers, 'options.layers'),
          embedding: sizeOption(o.embedding, 'options.embedding'),
          hidden: sizeOption(o.hidden, 'options.hidden'),
          seed: seedOption(o.seed, facts),
          validation:
            o.validation === undefined
              ? undefined
              : integer(o.validation, 'options.validation', 0, facts.maxValidation),
          precision: optionalText(o.precision, 'options.precision'),
        }),
      );
    },
  };
  return { api, model: seq2seqModel };
}
