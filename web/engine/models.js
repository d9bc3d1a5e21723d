// Trained models of any kind: the kinds the engine makes, the files the package ships, a saved
// model loaded by what its file holds, and the handles to the engine's model store behind them.
import { checkNumber, deepFreeze, describe, fail, integer, optionalText, options, toVector } from './checks.js';

/**
 * The kinds of model the engine trains. For each: `create`, the engine's function that makes one
 * (a training run's `model` options are its options); `identity`, what tells its models apart (a
 * page keeps one model per identity, and a file is named by it): the create function's options,
 * and of those `trained`, train()'s (a model's config says them too); `facts`, the engine's
 * function that publishes its defaults; `defaults(facts, identity)`, the identity's fields that may
 * go unsaid, with the value they then take; and `probe(model, probe)`, what every evaluation of a
 * training run shows of the model as it learns (a matrix with rowLabels and colLabels); `train`,
 * the options of its train() a run may set.
 */
export const MODEL_KINDS = deepFreeze({
  seq2seq: {
    create: 'createSeq2seq',
    identity: ['task', 'scoring', 'encoder', 'layers', 'guide'],
    trained: ['guide'],
    train: ['learningRate', 'batch', 'guide'],
    facts: 'seq2seqFacts',
    // the scoring function picks the encoder: both ways for Bahdanau's additive
    defaults: ({ defaults }, { scoring }) => ({
      encoder: defaults.encoder[scoring],
      layers: defaults.layers,
      guide: defaults.guide,
    }),
    // the attention over the probe's sentence as the model translates it: its output tokens by
    // source words
    probe(model, { sentence }) {
      const { source, steps, alignment } = model.translate(sentence);
      return { ...alignment, rowLabels: steps.map((step) => step.token), colLabels: source };
    },
  },
  transformer: {
    create: 'createTransformer',
    identity: ['task'],
    trained: [],
    train: ['learningRate', 'batch', 'guide'],
    facts: 'transformerFacts',
    defaults: () => ({}),
    // the cross-attention head that guided alignment supervises (model.guidedHead) over the probe's
    // sentence as the model translates it: its output tokens by source words
    probe(model, { sentence }) {
      const { source, steps, decoder } = model.translate(sentence);
      const rows = decoder[model.guidedHead.layer].crossAttention[model.guidedHead.head];
      return { ...joinRows(rows), rowLabels: steps.map((step) => step.token), colLabels: source };
    },
  },
  captioner: {
    create: 'createCaptioner',
    identity: ['task', 'language'],
    trained: [],
    train: ['learningRate', 'batch', 'regularization'],
    facts: 'captionerFacts',
    defaults: ({ defaults }) => ({ language: defaults.language }),
    // the attention over the probe's scene as the model captions it: its output tokens by the
    // grid's regions, each labelled "row,column"; and the image, its channels' rows one after the
    // other (a page draws the attention over it)
    probe(model, { scene }) {
      const { steps, image } = model.caption(scene);
      const { rows, cols } = steps[0].weights;
      return {
        ...joinRows(steps.map((step) => step.weights.data)),
        rowLabels: steps.map((step) => step.token),
        colLabels: Array.from({ length: rows * cols }, (_, i) => `${Math.floor(i / cols)},${i % cols}`),
        image: { rows: image.channels * image.height, cols: image.width, data: image.data },
      };
    },
  },
});

// Rows (typed arrays of one length) as one { rows, cols, data } matrix of their type.
function joinRows(rows) {
  const cols = rows[0].length;
  const data = new rows[0].constructor(rows.length * cols);
  rows.forEach((row, i) => data.set(row, i * cols));
  return { rows: rows.length, cols, data };
}

/** The trained models the package ships in models/ (web/models/shipped.js says how they are made),
 * by the fields of their identity that are not the defaults, each with the steps it trained for
 * (which shipped.js trains it for, and a page says). */
export const SHIPPED_MODELS = deepFreeze([
  { kind: 'seq2seq', task: 'en-fr', scoring: 'additive', steps: 600 },
  { kind: 'seq2seq', task: 'en-zh', scoring: 'additive', steps: 600 },
  { kind: 'captioner', task: 'shapes', language: 'en', steps: 1500 },
  { kind: 'transformer', task: 'en-fr', steps: 600 },
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

// ---- what the kinds' model objects share -------------------------------------------------------

/**
 * A model object's base over the engine's `info`: live() (its handle, or an Error blaming `model`
 * once disposed) and what every kind does alike (the kind, parameters, setParameters, save,
 * dispose), for the kind to spread into its object.
 */
export function modelBase(call, info) {
  let handle = info.handle;
  const T = info.precision === 'float32' ? Float32Array : Float64Array;
  const live = () => handle ?? fail(`this ${info.kind} model was disposed`, 'model');
  const methods = {
    kind: info.kind,
    parameters() {
      return call('modelParameters', live());
    },
    setParameters(named) {
      const h = live();
      if (named === null || typeof named !== 'object' || Array.isArray(named))
        fail(`parameters must be an object of { shape, data } by name, got ${describe(named)}`, 'parameters');
      const entries = Object.entries(named).map(([name, tensor]) => {
        if (tensor === null || typeof tensor !== 'object' || !Array.isArray(tensor.shape))
          fail(`parameters["${name}"] must be { shape, data }, got ${describe(tensor)}`, 'parameters');
        const shape = tensor.shape.map((d) => integer(d, `parameters["${name}"].shape`, 0, 2 ** 31));
        return [name, shape, toVector(tensor.data, `parameters["${name}"].data`, T)];
      });
      call('modelSetParameters', h, entries);
    },
    save(opts) {
      const h = live();
      const o = options(opts, 'options', ['dtype']);
      const dtype = o.dtype ?? info.precision;
      if (dtype !== info.precision && dtype !== 'float16')
        fail(`options.dtype must be ${info.precision} or float16, got ${describe(dtype)}`, 'options.dtype');
      return call('modelSave', h, dtype === 'float16');
    },
    dispose() {
      if (handle === null) return;
      call('modelDispose', handle);
      handle = null;
    },
  };
  return { live, methods };
}

/** The keys of the engine's info that make a model's config, in that order. */
export const configOf = (info, keys) => Object.freeze(Object.fromEntries(keys.map((key) => [key, info[key]])));

/** A size option: a positive integer (the engine checks its range), or undefined for the default. */
export const sizeOption = (value, name) => (value === undefined ? value : integer(value, name, 1, 2 ** 31));

/** A seed option: 0 … maxSeed, or undefined for the default. */
export const seedOption = (value, facts) =>
  value === undefined ? value : integer(value, 'options.seed', 0, facts.maxSeed);

/** A loss term's weight (guide, regularization): a finite number >= 0, the default when not given. */
export const weightOption = (value, name, fallback) =>
  value === undefined
    ? fallback
    : typeof value === 'number' && Number.isFinite(value) && value >= 0
      ? value
      : fail(`${name} must be a finite number >= 0, got ${describe(value)}`, name);

/**
 * train() and evaluate() as every kind has them: `prefix`Train(handle, steps, batch, learningRate,
 * weight) with the kind's loss weight (`weight`: guide or regularization), `prefix`Evaluate(handle,
 * split).
 */
export function trainingMethods(call, prefix, live, facts, weight) {
  return {
    train(opts) {
      const h = live();
      const o = options(opts, 'options', ['steps', 'batch', 'learningRate', weight]);
      const steps = integer(o.steps, 'options.steps', 1, facts.maxSteps);
      // what is not given takes the engine's default (facts.defaults)
      const batch = o.batch === undefined ? undefined : integer(o.batch, 'options.batch', 1, 2 ** 31);
      const rate = o.learningRate === undefined ? undefined : checkNumber(o.learningRate, 'options.learningRate');
      return call(
        `${prefix}Train`,
        h,
        steps,
        batch,
        rate,
        weightOption(o[weight], `options.${weight}`, facts.defaults[weight]),
      );
    },
    evaluate(opts) {
      const h = live();
      const o = options(opts, 'options', ['split']);
      return call(`${prefix}Evaluate`, h, optionalText(o.split, 'options.split') ?? 'test');
    },
  };
}

/** A beam option: 1 (greedy) … facts.maxBeam. */
export const beamOf = (opts, facts) => {
  const o = options(opts, 'options', ['beam']);
  return o.beam === undefined ? 1 : integer(o.beam, 'options.beam', 1, facts.maxBeam);
};

const sentenceOf = (value, name) =>
  typeof value === 'string' ? value : fail(`${name} must be a string, got ${describe(value)}`, name);

/**
 * What the translation models (seq2seq, Transformer) share over their tasks: tokenize,
 * gradients(pairs, { guide }) and the sentence translate() takes, through `prefix`Tokenize,
 * `prefix`Gradients and `prefix`Translate(handle, sentence, beam).
 */
export function translationMethods(call, prefix, live, facts) {
  return {
    tokenize(text, side = 'source') {
      if (side !== 'source' && side !== 'target') fail(`side must be source or target, got ${describe(side)}`, 'side');
      return call(`${prefix}Tokenize`, live(), sentenceOf(text, 'sentence'), side);
    },
    gradients(pairs, opts) {
      const h = live();
      if (!Array.isArray(pairs)) fail(`pairs must be an array of [source, target], got ${describe(pairs)}`, 'pairs');
      pairs.forEach((pair, i) => {
        if (!Array.isArray(pair) || pair.length !== 2 || pair.some((s) => typeof s !== 'string'))
          fail(`pairs[${i}] must be [source, target] sentences, got ${describe(pair)}`, 'pairs');
      });
      const o = options(opts, 'options', ['guide']);
      return call(`${prefix}Gradients`, h, pairs, weightOption(o.guide, 'options.guide', facts.defaults.guide));
    },
    translate(text, opts) {
      const h = live();
      return call(`${prefix}Translate`, h, sentenceOf(text, 'sentence'), beamOf(opts, facts));
    },
  };
}

/** A create function's required options.task, one of facts.tasks (the engine checks which). */
export const taskOption = (value, facts) =>
  value === undefined
    ? fail(`options.task is required: one of ${facts.tasks.join(', ')}`, 'options.task')
    : optionalText(value, 'options.task');
