// The Transformer models, on the translation tasks of the seq2seq models (seq2seqTasks): made (or
// loaded, models.js) and trained, each over a handle to the engine's model store that dispose()
// frees.
import { deepFreeze, optionalText, options } from './checks.js';
import {
  configOf,
  modelBase,
  seedOption,
  sizeOption,
  taskOption,
  trainingMethods,
  translationMethods,
} from './models.js';

const CONFIG = ['task', 'model', 'heads', 'encoderLayers', 'decoderLayers', 'feedforward', 'seed', 'precision'];

/** The Transformer's functions over `module` and `call`, as models.js composes a kind (seq2seq.js). */
export function transformerApi(module, call, wrap) {
  const facts = deepFreeze({ ...call('transformerFacts'), maxSeed: module.maxSeed });

  function transformerModel(info) {
    const { live, methods } = modelBase(call, info);
    const model = Object.freeze({
      ...methods,
      vocab: deepFreeze({ source: info.source, target: info.target, unit: info.unit }),
      config: configOf(info, CONFIG),
      guidedHead: deepFreeze(info.guidedHead),
      ...translationMethods(call, 'transformer', live, facts),
      ...trainingMethods(call, 'transformer', live, facts, 'guide'),
    });
    return [model, live];
  }

  const api = {
    transformerFacts: () => facts,
    createTransformer(opts) {
      const o = options(opts, 'options', CONFIG);
      // what is not given takes the engine's default (facts.defaults); the engine checks the values
      return wrap(
        call('transformerCreate', {
          task: taskOption(o.task, facts),
          model: sizeOption(o.model, 'options.model'),
          heads: sizeOption(o.heads, 'options.heads'),
          encoderLayers: sizeOption(o.encoderLayers, 'options.encoderLayers'),
          decoderLayers: sizeOption(o.decoderLayers, 'options.decoderLayers'),
          feedforward: sizeOption(o.feedforward, 'options.feedforward'),
          seed: seedOption(o.seed, facts),
          precision: optionalText(o.precision, 'options.precision'),
        }),
      );
    },
  };
  return { api, model: transformerModel };
}
