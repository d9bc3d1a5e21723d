// Trained models of any kind: the kinds the engine makes, the files the package ships, a saved
// model loaded by what its file holds, and the handles to the engine's model store behind them.
import { deepFreeze, describe, fail, options } from './checks.js';

/**
 * The kinds of model the engine trains. For each: `create`, the engine's function that makes one
 * (a training run's `model` options are its options); `identity`, the options that tell its
 * models apart (a page keeps one model per identity, and a shipped file is named by it); and
 * `probe(model, probe)`, what every evaluation of a training run shows of the model as it learns
 * (a matrix with rowLabels and colLabels).
 */
export const MODEL_KINDS = deepFreeze({
  seq2seq: {
    create: 'createSeq2seq',
    identity: ['task', 'scoring'],
    // the attention over the probe's sentence as the model translates it: target words (<eos>
    // included) by source words
    probe(model, { sentence }) {
      const { source, target, alignment } = model.translate(sentence);
      return { ...alignment, rowLabels: [...target, '<eos>'], colLabels: source };
    },
  },
});

/** The trained models the package ships in models/ (web/models/shipped.js says how they are made). */
export const SHIPPED_MODELS = deepFreeze([
  { kind: 'seq2seq', task: 'en-fr', scoring: 'additive' },
  { kind: 'seq2seq', task: 'en-zh', scoring: 'additive' },
]);

/** A shipped model's file: its identity joined by "-" (en-fr-additive.safetensors). */
export const modelFile = (entry) =>
  `${MODEL_KINDS[entry.kind].identity.map((key) => entry[key]).join('-')}.safetensors`;

export const kindOf = (name, where) =>
  MODEL_KINDS[name] ??
  fail(`${where} must be one of ${Object.keys(MODEL_KINDS).join(', ')}, got ${describe(name)}`, where);

/**
 * The models' functions over `call` (runs an export, throws its error) and `platform` (reads a
 * shipped model's bytes): every kind's own (makeKinds(wrap) → { kind: { api, model } }, where
 * model(info) turns the engine's model info into [the model object, its live handle], and wrap
 * does that for any kind), then loadModel and loadShippedModel, whatever the kind. handleOf(model):
 * a model's live handle, or undefined for anything that is not a model of this engine.
 */
export function modelsApi(call, platform, makeKinds) {
  const handles = new WeakMap(); // a model -> its live handle (a function that throws once disposed)
  const wrap = (info) => {
    const [model, live] = kinds[info.kind].model(info);
    handles.set(model, live);
    return model;
  };
  const kinds = makeKinds(wrap);
  const api = {
    ...Object.assign({}, ...Object.values(kinds).map((kind) => kind.api)),
    /** A saved model of any kind (save()'s bytes, or a PyTorch state_dict the engine recognises). */
    loadModel(bytes) {
      if (!(bytes instanceof Uint8Array)) fail(`bytes must be a Uint8Array, got ${describe(bytes)}`, 'bytes');
      return wrap(call('modelLoad', bytes));
    },
    /** A model the package ships, by kind and identity (a field not given matches any). */
    loadShippedModel(query) {
      const identities = Object.values(MODEL_KINDS).flatMap((kind) => kind.identity);
      const o = options(query, 'options', ['kind', ...new Set(identities)]);
      const { identity } = kindOf(o.kind, 'options.kind');
      const shipped = SHIPPED_MODELS.find(
        (entry) => entry.kind === o.kind && identity.every((key) => o[key] === undefined || o[key] === entry[key]),
      );
      if (!shipped)
        fail(
          `no trained model ships for ${identity.map((key) => `${key} ${describe(o[key])}`).join(' and ')}; shipped: ${SHIPPED_MODELS.map(modelFile).join(', ')}`,
          `options.${identity[0]}`,
        );
      return platform.readModel(modelFile(shipped)).then((bytes) => api.loadModel(bytes));
    },
  };
  return { api, handleOf: (model) => handles.get(model)?.() };
}
