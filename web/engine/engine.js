// The JavaScript face of the engine: validates and converts arguments, calls the WebAssembly
// module, and hands back plain values the caller owns. Nothing here needs .delete().
// index.js (browsers, bundlers) and index.node.js (Node) only differ in how they load the .wasm.

import { modelFile, SHIPPED_MODELS } from './models.js';
import { isZip, unzipNpz } from './tensors.js';

const MAX_SEED = 2 ** 32 - 1;
const MAX_BEAM = 16; // the engine's max_beam_width

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** The argument a name is about: 'keys[1]' -> 'keys', 'options.mask[0]' -> 'mask', 'Q.rows' -> 'Q'. */
function argumentOf(name) {
  return name.replace(/^(options|inputs|params)\./, '').split(/[.[]/)[0];
}

/** Bad input: a TypeError whose `argument` names the argument, as the engine's own errors do. */
function fail(message, name) {
  throw Object.assign(new TypeError(message), { argument: argumentOf(name) });
}

function isFloat32(value) {
  return value instanceof Float32Array || (value != null && value.data instanceof Float32Array);
}

function checkNumber(value, where) {
  if (typeof value !== 'number') fail(`${where} must be a number, got ${describe(value)}`, where);
  return value;
}

function integer(value, name, min, max) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${name} must be an integer from ${min} to ${max}, got ${describe(value)}`, name);
  }
  return value;
}

function toVector(value, name, Type) {
  if (value instanceof Type) return value;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Type.from(value);
  if (!Array.isArray(value))
    fail(`${name} must be a vector (an array of numbers or a typed array), got ${describe(value)}`, name);
  const out = new Type(value.length);
  value.forEach((entry, i) => (out[i] = checkNumber(entry, `${name}[${i}]`)));
  return out;
}

export function toMatrix(value, name, Type) {
  if (Array.isArray(value)) {
    const cols = value.length > 0 && Array.isArray(value[0]) ? value[0].length : 0;
    const data = new Type(value.length * cols);
    value.forEach((row, i) => {
      if (!Array.isArray(row) && !ArrayBuffer.isView(row))
        fail(`${name}[${i}] must be a row (an array of numbers), got ${describe(row)}`, name);
      if (row.length !== cols)
        fail(`${name} is ragged: row ${i} has ${row.length} entries but row 0 has ${cols}`, name);
      for (let j = 0; j < cols; j++) data[i * cols + j] = checkNumber(row[j], `${name}[${i}][${j}]`);
    });
    return { rows: value.length, cols, data };
  }
  if (value && typeof value === 'object' && 'data' in value) {
    const rows = integer(value.rows, `${name}.rows`, 0, 2 ** 31);
    const cols = integer(value.cols, `${name}.cols`, 0, 2 ** 31);
    const data = toVector(value.data, `${name}.data`, Type);
    if (data.length !== rows * cols)
      fail(`${name}.data has ${data.length} values but rows x cols is ${rows}x${cols} = ${rows * cols}`, name);
    return { rows, cols, data };
  }
  return fail(`${name} must be a matrix (an array of rows, or { rows, cols, data }), got ${describe(value)}`, name);
}

function toMask(value, name, length) {
  const mask = toVector(value, name, Array).map((keep, i) => {
    if (typeof keep !== 'boolean' && keep !== 0 && keep !== 1)
      fail(`${name}[${i}] must be true/false or 1/0, got ${describe(keep)}`, name);
    return keep ? 1 : 0;
  });
  if (length !== undefined && mask.length !== length)
    fail(`${name} has ${mask.length} entries but there are ${length} keys`, name);
  return Uint8Array.from(mask);
}

// A key-padding vector (one entry per key) or a queries x keys matrix.
function toMaskMatrix(value, name) {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value) && Array.isArray(value[0])) {
    const m = toMatrix(
      value.map((row) => Array.from(toMask(row, name))),
      name,
      Uint8Array,
    );
    return m;
  }
  const data = toMask(value, name);
  return { rows: 1, cols: data.length, data };
}

function options(value, name, allowed) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(`${name} must be an object, got ${describe(value)}`, name);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      fail(`${name}.${key} is not an option; expected one of ${allowed.join(', ')}`, `${name}.${key}`);
  }
  return value;
}

/** The precisions the softmax and attention functions emulate (options.precision). */
const PRECISIONS = Object.freeze(['float16', 'bfloat16', 'float32', 'float64', 'float128']);

function precisionName(value) {
  if (!PRECISIONS.includes(value))
    fail(`options.precision must be one of ${PRECISIONS.join(', ')}, got ${describe(value)}`, 'options.precision');
  return value;
}

function optionalScale(value) {
  return value === undefined ? undefined : checkNumber(value, 'options.scale');
}

function optionalBoolean(value, name) {
  if (value !== undefined && typeof value !== 'boolean')
    fail(`${name} must be true or false, got ${describe(value)}`, name);
  return value === true;
}

// The hot path's inputs and outputs live in one block of the WebAssembly heap that grows when a
// call needs more and is reused by the next, so repeated calls allocate nothing there.
function scratchOf(module) {
  let pointer = 0;
  let capacity = 0;
  return (bytes) => {
    if (bytes > capacity) {
      if (pointer) module._free(pointer);
      capacity = Math.max(bytes, Math.ceil(capacity * 1.5));
      pointer = module._malloc(capacity);
      if (!pointer) {
        capacity = 0;
        throw new RangeError(`out of WebAssembly memory: ${bytes} bytes for attention inputs and outputs`);
      }
    }
    return pointer;
  };
}

/** Builds the public API over an instantiated Emscripten module. */
function createEngine(module, threads, platform) {
  const scratch = scratchOf(module);
  // The threaded module's memory can grow on another thread, which leaves the module's own views
  // (HEAPF32, …) on the old buffer; its memory object always has the current one.
  const memory = () => module.wasmMemory?.buffer ?? module.HEAPU8.buffer;

  // Lays out a hot-path call in the scratch block: copies the inputs (typed arrays of T) in, leaves
  // room for outputs of the given element counts, then copies the bytes after. Returns each one's
  // address, in that order.
  function stage(T, inputs, outputCounts, bytesAfter) {
    const sizes = [...inputs.map((input) => input.length), ...outputCounts].map((n) => n * T.BYTES_PER_ELEMENT);
    const base = scratch(sizes.reduce((a, b) => a + b, 0) + (bytesAfter?.length ?? 0));
    const addresses = [];
    let next = base;
    for (const size of sizes) (addresses.push(next), (next += size));
    addresses.push(next);
    inputs.forEach((input, i) => new T(memory()).set(input, addresses[i] / T.BYTES_PER_ELEMENT));
    if (bytesAfter) new Uint8Array(memory()).set(bytesAfter, next);
    return addresses;
  }

  // A copy the caller owns of a rows x cols result at `address`.
  function readMatrix(T, address, rows, cols) {
    const start = address / T.BYTES_PER_ELEMENT;
    return { rows, cols, data: new T(memory()).slice(start, start + rows * cols) };
  }
  const call = (name, ...args) => {
    const result = module[name](...args);
    if (result instanceof Error) throw result;
    return result;
  };
  // Float32 in, Float32 out: the first argument decides the precision of the whole call.
  const precise = (first) => (isFloat32(first) ? [Float32Array, '_f32'] : [Float64Array, '_f64']);

  // The inputs of every walkthrough, with their limits and defaults, as the engine publishes them.
  const inputFields = new Map(WALKTHROUGHS.map((name) => [name, deepFreeze(call('walkthroughInputs', name))]));
  const walkthroughFields = (name) =>
    inputFields.get(name) ??
    fail(`walkthrough name must be one of ${WALKTHROUGHS.join(', ')}, got ${describe(name)}`, 'walkthrough');

  let tasks = null;
  const models = new WeakMap(); // a seq2seq model -> its live handle (a function that throws once disposed)

  const engine = {
    threads,
    dotScore(query, key) {
      const [T, p] = precise(query);
      return call('dotScore' + p, toVector(query, 'query', T), toVector(key, 'key', T));
    },
    dotScores(query, keys) {
      const [T, p] = precise(query);
      return call('dotScores' + p, toVector(query, 'query', T), toMatrix(keys, 'keys', T));
    },
    generalScores(query, keys, Wa) {
      const [T, p] = precise(query);
      return call('generalScores' + p, toVector(query, 'query', T), toMatrix(keys, 'keys', T), toMatrix(Wa, 'Wa', T));
    },
    concatScores(query, keys, Wa, va) {
      const [T, p] = precise(query);
      return call(
        'concatScores' + p,
        toVector(query, 'query', T),
        toMatrix(keys, 'keys', T),
        toMatrix(Wa, 'Wa', T),
        toVector(va, 'va', T),
      );
    },
    additiveScores(query, keys, Wa, Ua, va) {
      const [T, p] = precise(query);
      return call(
        'additiveScores' + p,
        toVector(query, 'query', T),
        toMatrix(keys, 'keys', T),
        toMatrix(Wa, 'Wa', T),
        toMatrix(Ua, 'Ua', T),
        toVector(va, 'va', T),
      );
    },
    softmax(x, opts) {
      return softmaxLike('softmax', x, opts);
    },
    logSoftmax(x, opts) {
      return softmaxLike('logSoftmax', x, opts);
    },
    applyWeights(weights, annotations) {
      const [T, p] = precise(weights);
      return call('applyWeights' + p, toVector(weights, 'weights', T), toMatrix(annotations, 'annotations', T));
    },
    contextVector(weighted) {
      const [T, p] = precise(weighted);
      return call('contextVector' + p, toMatrix(weighted, 'weighted', T));
    },
    attentionalHiddenState(context, state, Wc) {
      const [T, p] = precise(context);
      return call(
        'attentionalHiddenState' + p,
        toVector(context, 'context', T),
        toVector(state, 'state', T),
        toMatrix(Wc, 'Wc', T),
      );
    },
    attention(Q, K, V, opts) {
      const o = options(opts, 'options', ['scale', 'causal', 'mask', 'weights', 'heads', 'precision']);
      if (o.precision !== undefined) {
        // one precision emulated, row by row: no heads, and the weights always come back
        for (const key of ['heads', 'weights'])
          if (o[key] !== undefined) fail(`options.${key} cannot be combined with options.precision`, `options.${key}`);
        const { scale, causal, mask } = attentionOptions(o);
        return call(
          'attentionPrecision',
          toMatrix(Q, 'Q', Float64Array),
          toMatrix(K, 'K', Float64Array),
          toMatrix(V, 'V', Float64Array),
          precisionName(o.precision),
          scale ?? NaN,
          causal,
          mask,
        );
      }
      const [T, p] = precise(Q);
      const [q, k, v] = [toMatrix(Q, 'Q', T), toMatrix(K, 'K', T), toMatrix(V, 'V', T)];
      const { scale, causal, mask } = attentionOptions(o);
      // weights: false takes the fused path, which never forms the N x N weights
      const weights = o.weights === undefined || optionalBoolean(o.weights, 'options.weights');
      const heads = o.heads === undefined ? 1 : integer(o.heads, 'options.heads', 1, 2 ** 31);
      const weightCount = weights ? heads * q.rows * k.rows : 0;
      if (weightCount > 2 ** 28) {
        throw new RangeError(
          `options.weights: ${heads} x ${q.rows}x${k.rows} attention weights would not fit in WebAssembly memory; pass weights: false for the fused path`,
        );
      }
      const [qAt, kAt, vAt, outAt, weightsAt, maskAt] = stage(
        T,
        [q.data, k.data, v.data],
        [q.rows * v.cols, weightCount],
        mask?.data,
      );
      const error = module['attentionInto' + p](
        qAt,
        q.rows,
        q.cols,
        kAt,
        k.rows,
        k.cols,
        vAt,
        v.rows,
        v.cols,
        heads,
        scale ?? NaN,
        causal,
        maskAt,
        mask ? mask.rows : 0,
        mask ? mask.cols : 0,
        weights,
        outAt,
        weights ? weightsAt : 0,
      );
      if (error) throw error;
      const output = readMatrix(T, outAt, q.rows, v.cols);
      if (!weights) return { output, weights: null };
      const perHead = Array.from({ length: heads }, (_, j) =>
        readMatrix(T, weightsAt + j * q.rows * k.rows * T.BYTES_PER_ELEMENT, q.rows, k.rows),
      );
      return { output, weights: o.heads === undefined ? perHead[0] : perHead };
    },
    matmul(A, B) {
      const [T, p] = precise(A);
      const [a, b] = [toMatrix(A, 'A', T), toMatrix(B, 'B', T)];
      const [aAt, bAt, outAt] = stage(T, [a.data, b.data], [a.rows * b.cols]);
      const error = module['matmulInto' + p](aAt, a.rows, a.cols, bAt, b.rows, b.cols, outAt);
      if (error) throw error;
      return readMatrix(T, outAt, a.rows, b.cols);
    },
    selfAttention(X, Wq, Wk, Wv, opts) {
      const [T, p] = precise(X);
      const o = options(opts, 'options', ['scale', 'causal', 'mask']);
      return call(
        'selfAttention' + p,
        toMatrix(X, 'X', T),
        toMatrix(Wq, 'Wq', T),
        toMatrix(Wk, 'Wk', T),
        toMatrix(Wv, 'Wv', T),
        attentionOptions(o),
      );
    },
    multiHeadAttention(X, params) {
      const [T, p] = precise(X);
      const o = options(params, 'params', ['heads', 'Wq', 'Wk', 'Wv', 'Wo', 'bq', 'bk', 'bv', 'bo', 'causal', 'mask']);
      const converted = {
        heads: integer(o.heads, 'params.heads', 1, 2 ** 31),
        causal: optionalBoolean(o.causal, 'params.causal'),
        mask: toMaskMatrix(o.mask, 'params.mask'),
      };
      for (const w of ['Wq', 'Wk', 'Wv', 'Wo']) converted[w] = toMatrix(o[w], `params.${w}`, T);
      for (const b of ['bq', 'bk', 'bv', 'bo']) if (o[b] != null) converted[b] = toVector(o[b], `params.${b}`, T);
      return call('multiHeadAttention' + p, toMatrix(X, 'X', T), converted);
    },
    randomState(seed) {
      let state = call('randomSeed', integer(seed, 'seed', 0, MAX_SEED));
      const draw = (kind, high, rows, cols) => {
        const result = call(
          'randomDraw',
          state,
          kind,
          high,
          integer(rows, 'rows', 1, 2 ** 26),
          integer(cols, 'cols', 1, 2 ** 26),
        );
        state = result.state;
        return result.values;
      };
      return {
        randint: (high, rows, cols) => draw('randint', integer(high, 'high', 1, 2 ** 53), rows, cols),
        rand: (rows, cols) => draw('rand', 0, rows, cols),
        randn: (rows, cols) => draw('randn', 0, rows, cols),
      };
    },
    walkthrough(name, inputs) {
      const fields = walkthroughFields(name);
      // the walkthroughs of trained models take them besides their fields
      const modelInputs = { seq2seq: ['model', 'compare'], scoring: ['models'] }[name] ?? [];
      const given = options(inputs, 'inputs', [...fields.map((field) => field.name), ...modelInputs]);
      const converted = {};
      for (const field of fields) {
        const value = given[field.name];
        if (value !== undefined && value !== null) converted[field.name] = convertInput(field, value);
      }
      if (!modelInputs.length) return call('walkthrough', name, converted);
      const orDefault = (key) => converted[key] ?? fields.find((field) => field.name === key).default;
      const sentence = orDefault('sentence').join(' ');
      // The handles of models of this engine; a task or scoring given must be the models'.
      const handlesOf = (list, key) => {
        if (!Array.isArray(list))
          fail(`inputs.${key} must be an array of seq2seq models, got ${describe(list)}`, `inputs.${key}`);
        return list.map(
          (model, i) =>
            models.get(model)?.() ??
            fail(`inputs.${key}[${i}] must be a seq2seq model of this engine, got ${describe(model)}`, `inputs.${key}`),
        );
      };
      const matches = (model, keys) => {
        for (const key of keys)
          if (converted[key] !== undefined && converted[key] !== model.config[key])
            fail(`inputs.${key} (${converted[key]}) is not the model's (${model.config[key]})`, `inputs.${key}`);
      };
      if (name === 'scoring') {
        const handles = handlesOf(given.models, 'models');
        if (!handles.length) fail('inputs.models must hold at least one seq2seq model', 'inputs.models');
        matches(given.models[0], ['task']);
        return call('scoringWalkthrough', handles, sentence, orDefault('step'));
      }
      const handle = models.get(given.model);
      if (handle === undefined)
        fail(
          `inputs.model must be a seq2seq model of this engine (createSeq2seq, loadSeq2seq), got ${describe(given.model)}`,
          'inputs.model',
        );
      matches(given.model, ['task', 'scoring']);
      return call(
        'seq2seqWalkthrough',
        handle(),
        sentence,
        orDefault('beam'),
        handlesOf(given.compare ?? [], 'compare'),
      );
    },
    // not async: bad options throw at once, like every other call's
    loadShippedSeq2seq(opts) {
      const o = options(opts, 'options', ['task', 'scoring']);
      const scoring = o.scoring ?? 'additive';
      const shipped = SHIPPED_MODELS.find((model) => model.task === o.task && model.scoring === scoring);
      if (!shipped)
        fail(
          `no trained model ships for ${describe(o.task)} with ${describe(scoring)} scoring; shipped: ${SHIPPED_MODELS.map(modelFile).join(', ')}`,
          'options.task',
        );
      return platform.readModel(modelFile(shipped)).then((bytes) => engine.loadSeq2seq(bytes));
    },
    walkthroughInputs(name) {
      return walkthroughFields(name);
    },
    seq2seqTasks() {
      // made once (some 60 ms each in WebAssembly), then shared read-only
      tasks ??= deepFreeze(call('seq2seqTasks'));
      return tasks;
    },
    createSeq2seq(opts) {
      const o = options(opts, 'options', ['task', 'scoring', 'embedding', 'hidden', 'seed', 'precision']);
      if (o.task === undefined) fail('options.task is required: one of en-fr, en-zh, dates', 'options.task');
      // what is not given takes the engine's default (scoring additive, embedding 32, hidden 64, seed 0, float32)
      const text = (value, name) =>
        value === undefined || typeof value === 'string'
          ? value
          : fail(`${name} must be a string, got ${describe(value)}`, name);
      const size = (value, name) => (value === undefined ? value : integer(value, name, 1, 2 ** 31));
      const precision = text(o.precision, 'options.precision');
      if (precision !== undefined && precision !== 'float32' && precision !== 'float64')
        fail(`options.precision must be float32 or float64, got ${describe(precision)}`, 'options.precision');
      const info = call('seq2seqCreate', {
        task: text(o.task, 'options.task'),
        scoring: text(o.scoring, 'options.scoring'),
        embedding: size(o.embedding, 'options.embedding'),
        hidden: size(o.hidden, 'options.hidden'),
        seed: o.seed === undefined ? undefined : integer(o.seed, 'options.seed', 0, MAX_SEED),
        precision,
      });
      return seq2seqModel(info);
    },
    loadSeq2seq(bytes) {
      if (!(bytes instanceof Uint8Array)) fail(`bytes must be a Uint8Array, got ${describe(bytes)}`, 'bytes');
      return seq2seqModel(call('seq2seqLoad', bytes));
    },
    readTensors(bytes) {
      if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
      if (!(bytes instanceof Uint8Array))
        fail(`bytes must be a Uint8Array or an ArrayBuffer, got ${describe(bytes)}`, 'bytes');
      // a .npy's one array is arr_0, as np.savez names an array given without a name
      const zip = isZip(bytes);
      const out = {};
      for (const [name, member] of zip ? unzipNpz(bytes) : [['arr_0', bytes]]) {
        const read = module.readTensors(member, name);
        if (read instanceof Error) {
          if (zip) read.message = `member ${name}.npy: ${read.message}`;
          throw read;
        }
        for (const { name: key, ...tensor } of read) out[key] = tensor;
      }
      return out;
    },
    memory() {
      return call('memoryStats');
    },
    decimalFromLog(logMagnitude, negative = false, digits = 8) {
      return call(
        'decimalFromLog',
        checkNumber(logMagnitude, 'logMagnitude'),
        optionalBoolean(negative, 'negative'),
        integer(digits, 'digits', 1, 17),
      );
    },
  };

  // A seq2seq model over the engine's handle; dispose() frees it, and later calls throw.
  function seq2seqModel(info) {
    let handle = info.handle;
    const T = info.precision === 'float32' ? Float32Array : Float64Array;
    const live = () => handle ?? fail('this seq2seq model was disposed', 'model');
    const sentence = (value, name) =>
      typeof value === 'string' ? value : fail(`${name} must be a string, got ${describe(value)}`, name);
    const vocab = deepFreeze({ source: info.source, target: info.target, unit: info.unit });
    const config = Object.freeze({
      task: info.task,
      scoring: info.scoring,
      embedding: info.embedding,
      hidden: info.hidden,
      seed: info.seed,
      precision: info.precision,
    });
    const model = Object.freeze({
      vocab,
      config,
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
      gradients(pairs) {
        const h = live();
        if (!Array.isArray(pairs)) fail(`pairs must be an array of [source, target], got ${describe(pairs)}`, 'pairs');
        pairs.forEach((pair, i) => {
          if (!Array.isArray(pair) || pair.length !== 2 || pair.some((s) => typeof s !== 'string'))
            fail(`pairs[${i}] must be [source, target] sentences, got ${describe(pair)}`, 'pairs');
        });
        return call('seq2seqGradients', h, pairs);
      },
      train(opts) {
        const h = live();
        const o = options(opts, 'options', ['steps', 'batch', 'learningRate']);
        const steps = integer(o.steps, 'options.steps', 1, 1_000_000);
        // what is not given takes the engine's default (batch 32, learningRate 0.005)
        const batch = o.batch === undefined ? undefined : integer(o.batch, 'options.batch', 1, 2 ** 31);
        const rate = o.learningRate === undefined ? undefined : checkNumber(o.learningRate, 'options.learningRate');
        return call('seq2seqTrain', h, steps, batch, rate);
      },
      evaluate(opts) {
        const h = live();
        const o = options(opts, 'options', ['split']);
        const split = o.split ?? 'test';
        if (split !== 'train' && split !== 'test')
          fail(`options.split must be train or test, got ${describe(split)}`, 'options.split');
        return call('seq2seqEvaluate', h, split);
      },
      translate(text, opts) {
        const h = live();
        const o = options(opts, 'options', ['beam']);
        const beam = o.beam === undefined ? 1 : integer(o.beam, 'options.beam', 1, MAX_BEAM);
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
    models.set(model, live);
    return model;
  }

  function softmaxLike(name, x, opts) {
    const o = options(opts, 'options', ['scale', 'mask', 'precision']);
    if (o.precision !== undefined) {
      const values = toVector(x, 'x', Float64Array);
      const mask = o.mask == null ? null : toMask(o.mask, 'options.mask');
      const scale = optionalScale(o.scale);
      return call('softmaxPrecision', values, precisionName(o.precision), name === 'logSoftmax', scale ?? NaN, mask);
    }
    const [T, p] = precise(x);
    const values = toVector(x, 'x', T);
    const mask = o.mask == null ? null : toMask(o.mask, 'options.mask');
    return call(name + p, values, optionalScale(o.scale), mask);
  }

  function attentionOptions(o) {
    return {
      scale: optionalScale(o.scale),
      causal: optionalBoolean(o.causal, 'options.causal'),
      mask: toMaskMatrix(o.mask, 'options.mask'),
    };
  }

  return Object.freeze(engine);
}

const INPUT_CONVERTERS = {
  vector: (field, value, name) => toVector(value, name, Float64Array),
  matrix: (field, value, name) => toMatrix(value, name, Float64Array),
  integer: (field, value, name) => integer(value, name, field.min, field.max),
  // the engine checks the choice itself, with a message that lists the choices
  choice: (field, value, name) =>
    typeof value === 'string'
      ? value
      : fail(`${name} must be one of ${field.choices.join(', ')}, got ${describe(value)}`, name),
  tokens: (field, value, name) =>
    Array.isArray(value) && value.every((token) => typeof token === 'string')
      ? value
      : fail(`${name} must be an array of strings, got ${describe(value)}`, name),
};

/** A walkthrough input as the engine takes it, checked against the field the engine published. */
function convertInput(field, value) {
  return INPUT_CONVERTERS[field.kind](field, value, `inputs.${field.name}`);
}

function deepFreeze(value) {
  if (value && typeof value === 'object') Object.values(Object.freeze(value)).forEach(deepFreeze);
  return value;
}

/** The walkthrough names, in the page's order. */
export const WALKTHROUGHS = Object.freeze(['basics', 'self-attention', 'scoring', 'seq2seq', 'numerics']);

// Threads used when options.threads is not given: the platform's cores, at most this many.
const AUTO_THREADS_MAX = 8;

function threadCount(options, platform) {
  if (options.threads === undefined)
    return options.wasmBinary || !platform.canThread() ? 1 : Math.min(platform.cores(), AUTO_THREADS_MAX);
  const threads = integer(options.threads, 'options.threads', 1, 64);
  if (threads > 1 && options.wasmBinary)
    fail(
      'options.wasmBinary holds the single-threaded module (attention-engine.wasm): pass threads: 1 with it',
      'options.wasmBinary',
    );
  if (threads > 1 && !platform.canThread())
    throw Object.assign(
      new Error(
        `options.threads: ${threads} needs a cross-origin-isolated page (served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp), where WebAssembly threads can share memory`,
      ),
      { argument: 'threads' },
    );
  return threads;
}

/**
 * Makes loadAttention over a platform: single(files) instantiates the default module,
 * threaded(threads, files) the threaded one; canThread() says whether the threaded one can run
 * here and cores() how many cores there are; readModel(file) reads a shipped model's bytes. Calls that pass no wasmBinary or locateFile share
 * one instance per thread count; a failed load is not cached, so a later call can retry.
 */
export function makeLoader(platform) {
  const shared = new Map();
  // Threads the caller did not ask for are worth trying, not failing for: when the threaded
  // module cannot start (a policy that blocks workers, say), the single-threaded one loads.
  const instantiate = async (threads, files, asked) => {
    if (threads > 1) {
      try {
        const module = await platform.threaded(threads, files);
        const running = module.setThreads(threads);
        if (running instanceof Error) throw running;
        return createEngine(module, running, platform);
      } catch (error) {
        if (asked) throw error;
        console.warn(`attention-stepper: computing on one thread, as threads could not start: ${error.message}`);
      }
    }
    return createEngine(await platform.single(files), 1, platform);
  };
  // async, so that bad options reject the promise rather than throw
  return async function loadAttention(options) {
    const given = options ?? {};
    const { wasmBinary, locateFile } = given;
    const threads = threadCount(given, platform);
    const asked = given.threads !== undefined;
    if (wasmBinary || locateFile) return instantiate(threads, { wasmBinary, locateFile }, asked);
    if (!shared.has(threads))
      shared.set(
        threads,
        instantiate(threads, {}, asked).catch((error) => {
          shared.delete(threads);
          throw error;
        }),
      );
    const engine = await shared.get(threads);
    // a shared instance that fell back to one thread does not answer a request for more
    return asked && engine.threads !== threads ? instantiate(threads, {}, true) : engine;
  };
}
