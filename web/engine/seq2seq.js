// The seq2seq models: translation tasks, and models made (or loaded, models.js) and trained, each
// over a handle to the engine's model store that dispose() frees.
import { checkNumber, deepFreeze, describe, fail, integer, optionalText, options, toVector } from './checks.js';

/**
 * The seq2seq functions over `module` and `call` (runs an export, throws its error), as models.js
 * composes a kind: { api, model(info) → [model, live handle] }; wrap(info) makes a model of the
 * engine's info (models.js).
 */
export function seq2seqApi(module, call, wrap) {
  // What the models take, their limits and defaults, as the engine publishes them.
  const facts = deepFreeze({ ...call('seq2seqFacts'), maxSeed: module.maxSeed });
  // Guided alignment's weight λ: a finite number >= 0, 0 (learning freely) when not given.
  const guideWeight = (value) =>
    value === undefined
      ? facts.defaults.guide
      : typeof value === 'number' && Number.isFinite(value) && value >= 0
        ? value
        : fail(`options.guide must be a finite number >= 0, got ${describe(value)}`, 'options.guide');
  let tasks = null;

  // A seq2seq model over the engine's handle; dispose() frees it, and later calls throw.
  function seq2seqModel(info) {
    let handle = info.handle;
    const T = info.precision === 'float32' ? Float32Array : Float64Array;
    const live = () => handle ?? fail('this seq2seq model was disposed', 'model');
    const sentence = (value, name) =>
      typeof value === 'string' ? value : fail(`${name} must be a string, got ${describe(value)}`, name);
    const vocab = deepFreeze({ source: info.source, target: info.target, unit: info.unit });
    // train() with a guide may raise config.guide: the engine says what it became
    let config = Object.freeze({
      task: info.task,
      scoring: info.scoring,
      encoder: info.encoder,
      layers: info.layers,
      guide: info.guide,
      embedding: info.embedding,
      hidden: info.hidden,
      seed: info.seed,
      validation: info.validation,
      precision: info.precision,
    });
    const model = Object.freeze({
      kind: 'seq2seq',
      vocab,
      get config() {
        return config;
      },
      tokenize(text, side = 'source') {
        if (side !== 'source' && side !== 'target')
          fail(`side must be source or target, got ${describe(side)}`, 'side');
        return call('seq2seqTokenize', live(), sentence(text, 'sentence'), side);
      },
      parameters() {
        return call('seq2seqParameters', live());
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
        call('seq2seqSetParameters', h, entries);
      },
      gradients(pairs, opts) {
        const h = live();
        if (!Array.isArray(pairs)) fail(`pairs must be an array of [source, target], got ${describe(pairs)}`, 'pairs');
        pairs.forEach((pair, i) => {
          if (!Array.isArray(pair) || pair.length !== 2 || pair.some((s) => typeof s !== 'string'))
            fail(`pairs[${i}] must be [source, target] sentences, got ${describe(pair)}`, 'pairs');
        });
        const o = options(opts, 'options', ['guide']);
        return call('seq2seqGradients', h, pairs, guideWeight(o.guide));
      },
      train(opts) {
        const h = live();
        const o = options(opts, 'options', ['steps', 'batch', 'learningRate', 'guide']);
        const steps = integer(o.steps, 'options.steps', 1, facts.maxSteps);
        // what is not given takes the engine's default (facts.defaults)
        const batch = o.batch === undefined ? undefined : integer(o.batch, 'options.batch', 1, 2 ** 31);
        const rate = o.learningRate === undefined ? undefined : checkNumber(o.learningRate, 'options.learningRate');
        try {
          return call('seq2seqTrain', h, steps, batch, rate, guideWeight(o.guide));
        } finally {
          const guide = call('seq2seqGuide', h);
          if (guide !== config.guide) config = Object.freeze({ ...config, guide });
        }
      },
      evaluate(opts) {
        const h = live();
        const o = options(opts, 'options', ['split']);
        return call('seq2seqEvaluate', h, optionalText(o.split, 'options.split') ?? 'test');
      },
      translate(text, opts) {
        const h = live();
        const o = options(opts, 'options', ['beam']);
        const beam = o.beam === undefined ? 1 : integer(o.beam, 'options.beam', 1, facts.maxBeam);
        return call('seq2seqTranslate', h, sentence(text, 'sentence'), beam);
      },
      save(opts) {
        const h = live();
        const o = options(opts, 'options', ['dtype']);
        const dtype = o.dtype ?? info.precision;
        if (dtype !== info.precision && dtype !== 'float16')
          fail(`options.dtype must be ${info.precision} or float16, got ${describe(dtype)}`, 'options.dtype');
        return call('seq2seqSave', h, dtype === 'float16');
      },
      dispose() {
        if (handle === null) return;
        call('seq2seqDispose', handle);
        handle = null;
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
      const o = options(opts, 'options', [
        'task',
        'scoring',
        'encoder',
        'layers',
        'embedding',
        'hidden',
        'seed',
        'validation',
        'precision',
      ]);
      if (o.task === undefined) fail(`options.task is required: one of ${facts.tasks.join(', ')}`, 'options.task');
      // what is not given takes the engine's default (facts.defaults); the engine checks the values
      const size = (value, name) => (value === undefined ? value : integer(value, name, 1, 2 ** 31));
      const info = call('seq2seqCreate', {
        task: optionalText(o.task, 'options.task'),
        scoring: optionalText(o.scoring, 'options.scoring'),
        encoder: optionalText(o.encoder, 'options.encoder'),
        layers: size(o.layers, 'options.layers'),
        embedding: size(o.embedding, 'options.embedding'),
        hidden: size(o.hidden, 'options.hidden'),
        seed: o.seed === undefined ? undefined : integer(o.seed, 'options.seed', 0, facts.maxSeed),
        validation:
          o.validation === undefined ? undefined : integer(o.validation, 'options.validation', 0, facts.maxValidation),
        precision: optionalText(o.precision, 'options.precision'),
      });
      return wrap(info);
    },
  };
  return { api, model: seq2seqModel };
}
