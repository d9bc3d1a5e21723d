// What the tasks from the reader's own text share (translation-tasks.js: sentence pairs; the
// labelled sentences, in their kind's own file): the text's bytes, the options every such task
// takes checked for type (their ranges are the engine's to check), what every task object holds,
// and the store by which createModel({ task }) knows a task object's id.
import { deepFreeze, describe, fail, integer } from './checks.js';

export const UNITS = ['word', 'character'];

/** The option names every task from text takes, besides its own. */
export const READING_OPTIONS = [
  'text',
  'name',
  'file',
  'unit',
  'lowercase',
  'minCount',
  'maxVocabulary',
  'maxLength',
  'validation',
  'test',
  'seed',
];

/** A text's bytes: a string (as UTF-8), or a file's bytes as they came (the engine checks they are UTF-8). */
export function textBytes(text, argument) {
  if (typeof text === 'string') return new TextEncoder().encode(text);
  if (text instanceof Uint8Array) return text;
  if (text instanceof ArrayBuffer) return new Uint8Array(text);
  return fail(`options.text must be a string, a Uint8Array or an ArrayBuffer, got ${describe(text)}`, argument);
}

/** `object` without its undefined entries (what is not given takes the engine's default). */
export const givenOnly = (object) =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));

/**
 * The options every task from text takes, checked for type: { name, file, lowercase, minCount,
 * maxVocabulary, maxLength, validation, test, seed } (undefined where not given); `lines` names
 * what a held-out count counts ('pairs', 'sentences'). number(key) checks a whole number more.
 */
export function readingOptions(o, lines) {
  const number = (key, min = 0) =>
    o[key] === undefined ? undefined : integer(o[key], `options.${key}`, min, Number.MAX_SAFE_INTEGER);
  const share = (key) =>
    o[key] === undefined || (typeof o[key] === 'number' && Number.isFinite(o[key]))
      ? o[key]
      : fail(`options.${key} must be a share below 0.5 or a number of ${lines}, got ${describe(o[key])}`, key);
  for (const key of ['name', 'file'])
    if (o[key] !== undefined && typeof o[key] !== 'string')
      fail(`options.${key} must be a string, got ${describe(o[key])}`, key);
  if (o.lowercase !== undefined && typeof o.lowercase !== 'boolean')
    fail(`options.lowercase must be true or false, got ${describe(o.lowercase)}`, 'lowercase');
  return {
    number,
    given: {
      name: o.name,
      file: o.file,
      lowercase: o.lowercase,
      minCount: number('minCount'),
      maxVocabulary: number('maxVocabulary'),
      maxLength: number('maxLength'),
      validation: share('validation'),
      test: share('test'),
      seed: number('seed'),
    },
  };
}

/** The tasks made here, by their objects: keep(task, live) and idOf(value), the id of a live task or undefined. */
export function taskStore() {
  const ids = new WeakMap(); // a task object -> its live id (a function that throws once disposed)
  return {
    keep: (task, live) => ids.set(task, live),
    idOf: (value) => ids.get(value)?.(),
  };
}

/** A task's bytes (a task's save()), checked for type. */
function taskBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  return fail(
    `bytes must be a task's bytes (its save()), a Uint8Array or an ArrayBuffer, got ${describe(bytes)}`,
    'bytes',
  );
}

/**
 * What every task object over the engine's `info` has: live() (its id, or an error once disposed),
 * split(name): a held-out or training split's rows as given, fetched once by the export
 * `exports.split`, save(), its bytes by the export `exports.save`, and dispose(), by the export
 * `exports.forget`.
 */
function taskBase(call, info, exports) {
  const { id } = info;
  let disposed = false;
  const live = () => (disposed ? fail(`the task ${id} was disposed`, 'task') : id);
  const held = {};
  return {
    live,
    split: (name) => (held[name] ??= deepFreeze(info.stats[name] ? call(exports.split, live(), name) : [])),
    common: {
      id,
      name: info.name,
      hash: info.hash,
      stats: deepFreeze(info.stats),
      /** The task as bytes, every split and vocabulary as read: the load function of its kind makes it again without reading its text. */
      save: () => call(exports.save, live()),
      /** Lets the engine forget the text; models made of the task keep what they need. */
      dispose() {
        if (!disposed) call(exports.forget, id);
        disposed = true;
      },
    },
  };
}

/**
 * The task objects of one kind of task from text over `call`: { make(info), load(bytes) }. Each is
 * what every task has (taskBase's, by the exports { save, split, forget }) and the kind's own,
 * own(info, { live, split }) (its getters stay getters), frozen and kept in `store`; load(bytes)
 * makes one of a task's bytes (its save()) by the export `exports.load`.
 */
export function taskObjects(call, store, exports, own) {
  const make = (info) => {
    const { live, split, common } = taskBase(call, info, exports);
    const task = Object.freeze(
      Object.defineProperties({ ...common }, Object.getOwnPropertyDescriptors(own(info, { live, split }))),
    );
    store?.keep(task, live);
    return task;
  };
  return { make, load: (bytes) => make(call(exports.load, taskBytes(bytes))) };
}

/** A sentence to tokenize, checked for type. */
export const textOf = (text) =>
  typeof text === 'string' ? text : fail(`text must be a string, got ${describe(text)}`, 'text');
