// Argument checks and conversions shared by the engine's domains (numeric.js, random.js,
// models.js and the kinds' parts, walkthroughs.js): bad input throws a TypeError whose `argument` names the argument,
// as the engine's own errors do.

export function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** The argument a name is about: 'keys[1]' -> 'keys', 'options.mask[0]' -> 'mask', 'Q.rows' -> 'Q'. */
export function argumentOf(name) {
  return name.replace(/^(options|inputs|params)\./, '').split(/[.[]/)[0];
}

/** The error an aborted load rejects with (as fetch's does). */
export const abortError = () => new DOMException('the load was aborted', 'AbortError');

/** Bad input: a TypeError whose `argument` names the argument, as the engine's own errors do. */
export function fail(message, name) {
  throw Object.assign(new TypeError(message), { argument: argumentOf(name) });
}

export function isFloat32(value) {
  return value instanceof Float32Array || (value != null && value.data instanceof Float32Array);
}

export function checkNumber(value, where) {
  if (typeof value !== 'number') fail(`${where} must be a number, got ${describe(value)}`, where);
  return value;
}

export function integer(value, name, min, max) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${name} must be an integer from ${min} to ${max}, got ${describe(value)}`, name);
  }
  return value;
}

export function toVector(value, name, Type) {
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

export function toMask(value, name, length) {
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
export function toMaskMatrix(value, name) {
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

export function options(value, name, allowed) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(`${name} must be an object, got ${describe(value)}`, name);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      fail(`${name}.${key} is not an option; expected one of ${allowed.join(', ')}`, `${name}.${key}`);
  }
  return value;
}

export function optionalScale(value) {
  return value === undefined ? undefined : checkNumber(value, 'options.scale');
}

export function optionalBoolean(value, name) {
  if (value !== undefined && typeof value !== 'boolean')
    fail(`${name} must be true or false, got ${describe(value)}`, name);
  return value === true;
}

export function deepFreeze(value) {
  if (value && typeof value === 'object') Object.values(Object.freeze(value)).forEach(deepFreeze);
  return value;
}

/** `call(name)`'s answer, asked for once and then shared read-only (a kind's grammars' tasks). */
export function sharedOnce(call, name) {
  let value;
  return () => (value ??= deepFreeze(call(name)));
}

/** A string, or undefined when not given. */
export function optionalText(value, name) {
  return value === undefined || typeof value === 'string'
    ? value
    : fail(`${name} must be a string, got ${describe(value)}`, name);
}
