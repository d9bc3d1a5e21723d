// Trained models of any kind: the kinds the engine makes, the files the package ships, a saved
// model loaded by what its file holds, and the handles to the engine's model store behind them.
import { deepFreeze, describe, fail, options } from './checks.js';

/**
 * The kinds of model the engine trains. For each: `create`, the engine's function that makes one
 * (a training run's `model` options are its options); `identity`, what tells its models apart (a
 * page keeps one model per identity, and a file is named by it): the create function's options,
 * and of those `trained`, train()'s (a model's config says them too); `facts`, the engine's
 * function that publishes its defaults; `defaults(facts, identity)`, the identity's fields that may
 * go unsaid, with the value they then take; and `probe(model, probe)`, what every evaluation of a
 * training run shows of the model as it learns (a matrix with rowLabels and colLabels).
 */
export const MODEL_KINDS = deepFreeze({
  seq2seq: {
    create: 'createSeq2seq',
    identity: ['task', 'scoring', 'encoder', 'layers', 'guide'],
    trained: ['guide'],
    facts: 'seq2seqFacts',
    // the scoring function picks the encoder: both ways for Bahdanau's additive
    defaults: ({ defaults }, { scoring }) => ({
      encoder: defaults.encoder[scoring],
      layers: defaults.layers,
      guide: defaults.guide,
    }),
    // the attention over the probe's sentence as the model translates it: target words (<eos>
    // included) by source words
    probe(model, { sentence }) {
      const { source, target, alignment } = model.translate(sentence);
      return { ...alignment, rowLabels: [...target, '<eos>'], colLabels: source };
    },
  },
});

/** The trained models the package ships in models/ (web/models/shipped.js says how they are made),
 * by the fields of their identity that are not the defaults. */
export const SHIPPED_MODELS = deepFreeze([
  { kind: 'seq2seq', task: 'en-fr', scoring: 'additive' },
  { kind: 'seq2seq', task: 'en-zh', scoring: 'additive' },
]);

/**
 * The whole identity of `object` (a model's config, a page's inputs, a shipped model's entry) for
 * a kind whose facts are `facts`: each field as given, its default where it is absent or
 * 'default', a number where the default is one (a menu's '0.5' is 0.5).
 */
export function modelIdentity(kind, object, facts) {
  const { identity, defaults } = MODEL_KINDS[kind];
  const fallback = defaults(facts, object);
  return Object.fromEntries(
    identity.map((name) => {
      const value = object[name];
      if (value === undefined || value === 'default') return [name, fallback[name]];
      return [name, typeof fallback[name] === 'number' ? Number(value) : value];
    }),
  );
}

/**
 * A model's file: the fields of its kind's identity that `entry` gives, joined by "-", a number
 * after its field's name: en-fr-additive.safetensors (a shipped model's entry),
 * en-fr-additive-forward-layers2-guide1.safetensors.
 */
export const modelFile = (entry) =>
  `${MODEL_KINDS[entry.kind].identity
    .filter((name) => entry[name] !== undefined)
    .map((name) => (typeof entry[name] === 'number' ? `${name}${entry[name]}` : entry[name]))
    .join('-')}.safetensors`;

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
      const { identity, facts } = kindOf(o.kind, 'options.kind');
      const shipped = SHIPPED_MODELS.find((entry) => {
        const whole = entry.kind === o.kind && modelIdentity(o.kind, entry, api[facts]());
        return whole && identity.every((key) => o[key] === undefined || o[key] === whole[key]);
      });
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
