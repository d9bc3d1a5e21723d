// Trained models of any kind: the kinds the engine makes, the files the package ships, a saved
// model loaded by what its file holds, and the handles to the engine's model store behind them.
import { checkNumber, deepFreeze, describe, fail, integer, optionalText, options, toVector } from './checks.js';

/** The names of a kind's fields that `role` ('identity', 'trained') marks, from its facts. */
export const fieldsThat = (facts, role) => facts.fields.filter((field) => field[role]).map((field) => field.name);

/** The options of a kind's train() a training run may set. */
export const trainOptions = (facts) => ['learningRate', 'batch', facts.lossWeight];

/** Rows (typed arrays of one length) as one { rows, cols, data } matrix of their type. */
export function joinRows(rows) {
  const cols = rows[0].length;
  const data = new rows[0].constructor(rows.length * cols);
  rows.forEach((row, i) => data.set(row, i * cols));
  return { rows: rows.length, cols, data };
}

/**
 * The values the identity fields of a kind whose facts are `facts` take where `object` leaves them
 * unsaid (a required field, or one a model's name always says (`named`), is never left unsaid):
 * each field's default, or for a field whose default follows another's (`defaultBy`), the default
 * for that field's value.
 */
export function identityDefaults(facts, object) {
  return Object.fromEntries(
    facts.fields
      .filter((field) => field.identity && !field.required && !field.named)
      .map(({ name, defaultBy }) => {
        const fallback = facts.defaults[name];
        return [name, defaultBy ? fallback[object[defaultBy] ?? facts.defaults[defaultBy]] : fallback];
      }),
  );
}

/**
 * The whole identity of `object` (a model's config, a page's inputs, a shipped model's entry) for
 * a kind whose facts are `facts`: each field as given, its default where it is absent or
 * 'default', a number where the default is one (a menu's '0.5' is 0.5).
 */
export function modelIdentity(kind, object, facts) {
  const fallback = identityDefaults(facts, object);
  return Object.fromEntries(
    fieldsThat(facts, 'identity').map((name) => {
      const value = object[name];
      if (value === undefined || value === 'default') return [name, fallback[name]];
      return [name, typeof fallback[name] === 'number' ? Number(value) : value];
    }),
  );
}

/**
 * A model's file: the identity fields `entry` gives (as modelIdentity orders them; a shipped
 * model's entry also says its kind and steps), joined by "-", a number after its field's name:
 * en-fr-additive.safetensors (a shipped model's entry),
 * en-fr-additive-forward-layers2-guide1.safetensors.
 */
export const modelFile = (entry) =>
  `${Object.entries(entry)
    .filter(([name, value]) => name !== 'kind' && name !== 'steps' && value !== undefined)
    .map(([name, value]) => (typeof value === 'number' ? `${name}${value}` : value))
    .join('-')}.safetensors`;

/**
 * The models' functions over `module`, `call` (runs an export, throws its error) and `platform`
 * (reads a shipped model's bytes): for every kind the engine makes, createModel's and modelFacts'
 * (and their aliases by kind, the `create` and `facts` of its entry in `kinds`), the kind's own
 * functions and model methods (its entry's `parts`: ({ call, facts, tasks }) → { api, methods(info,
 * live) }); then loadModel and loadShippedModel (of the `shipped` models), whatever the kind.
 * handleOf(model): a model's live handle, or undefined for anything that is not a model of this
 * engine. kinds.js holds `kinds` and `shipped`; `tasks` (text-tasks.js's taskStore) keeps the
 * task objects of the reader's text that the kinds' parts make, and tasks.idOf(value) is the id of
 * one, or undefined.
 */
export function modelsApi(module, call, platform, { kinds: table, shipped: shippedModels, tasks }) {
  const handles = new WeakMap(); // a model -> its live handle (a function that throws once disposed)
  const factsOf = Object.fromEntries(
    call('modelKinds').map((kind) => [kind, deepFreeze({ ...call('modelFacts', kind), maxSeed: module.maxSeed })]),
  );
  const kinds = Object.fromEntries(
    Object.entries(table).map(([kind, { parts }]) => [
      kind,
      parts({ call, platform, facts: factsOf[kind], tasks, modelOf: (info, own) => wrap(info, own) }),
    ]),
  );
  const factsFor = (kind, where) =>
    factsOf[kind] ?? fail(`${where} must be one of ${Object.keys(factsOf).join(', ')}, got ${describe(kind)}`, where);

  // A model object over the engine's info: what every kind has, then its kind's own methods (given
  // `own`, what the kind's part keeps beside the engine's model, such as its tokenizer).
  const wrap = (info, own = {}) => {
    const facts = factsOf[info.kind];
    const { live, methods } = modelBase(call, info, facts.abilities);
    const keys = [...facts.fields.map((field) => field.name), 'precision'];
    let config = configOf(info, keys);
    const training = runningMethods(call, live, facts);
    // train() may change a trained field (one that records how the model trained): the engine
    // says what it became; a kind without one keeps its config
    const trainAndRefresh = (opts) => {
      const h = live();
      try {
        return training.train(opts);
      } finally {
        config = configOf({ ...call('modelConfig', h), precision: info.precision }, keys);
      }
    };
    const model = Object.freeze({
      ...methods,
      get config() {
        return config;
      },
      ...kinds[info.kind].methods(info, live, own),
      ...training,
      ...(facts.abilities.trains && fieldsThat(facts, 'trained').length ? { train: trainAndRefresh } : {}),
    });
    handles.set(model, live);
    return model;
  };

  // A model of `kind` made from the create options `opts` (a kind that creates: its facts' abilities).
  const createOf = (kind, opts) => {
    const facts = factsOf[kind];
    if (!facts.abilities.creates)
      fail(`options.kind: ${kind} models are not made from options: load one (loadModel)`, 'options.kind');
    const fields = facts.fields.filter((field) => !field.trained);
    const o = options(opts, 'options', [...fields.map((field) => field.name), 'precision']);
    // what is not given takes the engine's default (facts.defaults); the engine checks the values
    // a task may be given as a value (createTranslationTask's, …), which the engine knows by its id
    const valueOf = (name) => (name === 'task' ? (tasks.idOf(o.task) ?? o.task) : o[name]);
    const given = Object.fromEntries(
      fields.map((field) => [field.name, fieldOption(field, valueOf(field.name), facts)]),
    );
    return wrap(call('modelCreate', kind, { ...given, precision: optionalText(o.precision, 'options.precision') }));
  };

  const api = {
    ...Object.assign({}, ...Object.values(kinds).map((kind) => kind.api)),
    ...Object.fromEntries(
      Object.keys(factsOf).flatMap((kind) => [
        ...(table[kind].create ? [[table[kind].create, (opts) => createOf(kind, opts)]] : []),
        [table[kind].facts, () => factsOf[kind]],
      ]),
    ),
    /** What models of `kind` take: their fields, limits and defaults. */
    modelFacts: (kind) => factsFor(kind, 'kind'),
    /** A new, untrained model: { kind, ...that kind's create options }. */
    createModel(opts) {
      if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
        fail(`options must be an object with a kind, got ${describe(opts)}`, 'options');
      const { kind, ...rest } = opts;
      factsFor(kind, 'options.kind');
      return createOf(kind, rest);
    },
    /** A saved model of any kind (save()'s bytes, or a PyTorch state_dict the engine recognises). */
    loadModel(bytes) {
      if (!(bytes instanceof Uint8Array)) fail(`bytes must be a Uint8Array, got ${describe(bytes)}`, 'bytes');
      return wrap(call('modelLoad', bytes));
    },
    /** A model the package ships, by kind and identity (a field not given matches any). */
    loadShippedModel(query) {
      const identities = Object.values(factsOf).flatMap((facts) => fieldsThat(facts, 'identity'));
      const o = options(query, 'options', ['kind', ...new Set(identities)]);
      const facts = factsFor(o.kind, 'options.kind');
      const identity = fieldsThat(facts, 'identity');
      const shipped = shippedModels.find((entry) => {
        const whole = entry.kind === o.kind && modelIdentity(o.kind, entry, facts);
        return whole && identity.every((key) => o[key] === undefined || o[key] === whole[key]);
      });
      if (!shipped)
        fail(
          `no trained model ships for ${identity.map((key) => `${key} ${describe(o[key])}`).join(' and ')}; shipped: ${shippedModels.map(modelFile).join(', ')}`,
          `options.${identity[0]}`,
        );
      // a kind whose models are not one file reads its own (its part's loadShipped)
      if (kinds[o.kind].loadShipped) return kinds[o.kind].loadShipped(shipped);
      return platform.readModel(modelFile(shipped)).then((bytes) => api.loadModel(bytes));
    },
  };
  return { api, handleOf: (model) => handles.get(model)?.() };
}

// A create option of `field` (facts.fields'), checked for type; undefined for the default.
function fieldOption(field, value, facts) {
  const name = `options.${field.name}`;
  if (value === undefined)
    return field.required ? fail(`${name} is required: one of ${facts[`${field.name}s`].join(', ')}`, name) : value;
  if (field.type === 'size') return integer(value, name, 1, 2 ** 31);
  if (field.type === 'integer') return integer(value, name, 0, field.max ?? 2 ** 31);
  if (field.type === 'number') return weightOption(value, name);
  return optionalText(value, name);
}

// ---- what the kinds' model objects share -------------------------------------------------------

/**
 * A model object's base over the engine's `info`: live() (its handle, or an Error blaming `model`
 * once disposed) and what every kind does alike (the kind, parameters, setParameters, save where
 * its `abilities` say it saves, dispose), for the kind to spread into its object.
 */
function modelBase(call, info, abilities) {
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
    ...(abilities.saves ? { save } : {}),
    dispose() {
      if (handle === null) return;
      call('modelDispose', handle);
      handle = null;
    },
  };
  function save(opts) {
    const h = live();
    const o = options(opts, 'options', ['dtype']);
    const dtype = o.dtype ?? info.precision;
    if (dtype !== info.precision && dtype !== 'float16')
      fail(`options.dtype must be ${info.precision} or float16, got ${describe(dtype)}`, 'options.dtype');
    return call('modelSave', h, dtype === 'float16');
  }
  return { live, methods };
}

/** The keys of the engine's info that make a model's config, in that order. */
const configOf = (info, keys) => Object.freeze(Object.fromEntries(keys.map((key) => [key, info[key]])));

/** A loss term's weight (guide, regularization) a model is created with: a finite number >= 0. */
const weightOption = (value, name) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? value
    : fail(`${name} must be a finite number >= 0, got ${describe(value)}`, name);

/**
 * A number option of a training call (a loss term's weight, the learning rate), or undefined where
 * not given: the engine owns its range and its default.
 */
export const numberOption = (value, name) => (value === undefined ? undefined : checkNumber(value, name));

/** A count option of a training call (steps, batch): a whole number a 32-bit size holds, or undefined. */
const countOption = (value, name) => (value === undefined ? undefined : integer(value, name, 0, 2 ** 31));

/**
 * evaluate() and prepare() as every kind has them, and train() with the kind's loss weight
 * (facts.lossWeight) where its facts' abilities say it trains.
 */
function runningMethods(call, live, facts) {
  const weight = facts.lossWeight;
  const train = (opts) => {
    const h = live();
    const o = options(opts, 'options', ['steps', 'batch', 'learningRate', weight]);
    // types here; the ranges, and the defaults of what is not given, are the engine's
    if (o.steps === undefined) fail(`options.steps is required: from 1 to ${facts.maxSteps}`, 'options.steps');
    return call(
      'modelTrain',
      h,
      countOption(o.steps, 'options.steps'),
      countOption(o.batch, 'options.batch'),
      numberOption(o.learningRate, 'options.learningRate'),
      numberOption(o[weight], `options.${weight}`),
    );
  };
  return {
    ...(facts.abilities.trains ? { train } : {}),
    evaluate(opts) {
      const h = live();
      const o = options(opts, 'options', ['split']);
      return call('modelEvaluate', h, optionalText(o.split, 'options.split') ?? 'test');
    },
    async prepare() {
      // a part a task (each call tallies one batch of the test split), and what comes before and
      // after it (loading the model, drawing its walkthrough) in tasks of their own
      const nextTask = () => new Promise((resolve) => setTimeout(resolve));
      do await nextTask();
      while (!call('modelPrepare', live()));
      await nextTask();
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
 * What the translation models share over their tasks: their vocabularies (the engine's `info`:
 * source, target, unit), tokenize, gradients(pairs, { guide }) and the sentence translate()
 * takes, through `prefix`Tokenize, `prefix`Gradients and `prefix`Translate(handle, sentence, beam).
 */
export function translationMethods(call, prefix, info, live, facts) {
  return {
    vocab: deepFreeze({ source: info.source, target: info.target, unit: info.unit }),
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
      return call(`${prefix}Gradients`, h, pairs, numberOption(o.guide, 'options.guide'));
    },
    translate(text, opts) {
      const h = live();
      return call(`${prefix}Translate`, h, sentenceOf(text, 'sentence'), beamOf(opts, facts));
    },
  };
}
