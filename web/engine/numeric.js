// The numeric API: scoring, softmax, attention, multi-head attention and matmul, in float32 or
// float64 (the first argument's type decides), and one precision emulated (the numerics lab).
import {
  checkNumber,
  describe,
  fail,
  integer,
  isFloat32,
  optionalBoolean,
  optionalScale,
  options,
  toMask,
  toMaskMatrix,
  toMatrix,
  toVector,
} from './checks.js';

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

/** The numeric functions of the engine over `module`; `call` runs an export and throws its error. */
export function numericApi(module, call) {
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
  // Float32 in, Float32 out: the first argument decides the precision of the whole call.
  const precise = (first) => (isFloat32(first) ? [Float32Array, '_f32'] : [Float64Array, '_f64']);
  // The precisions the numerics lab emulates (options.precision), as the engine publishes them.
  const precisions = Object.freeze(call('numericsPrecisions'));
  const precisionName = (value) =>
    precisions.includes(value)
      ? value
      : fail(`options.precision must be one of ${precisions.join(', ')}, got ${describe(value)}`, 'options.precision');

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

  return {
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
}
