// Translation tasks from the reader's own text (what the translation kinds, seq2seq and the
// Transformer, learn besides the grammars' tasks): the engine reads, splits and keeps them; a task
// object here holds its id, which createModel({ task }) takes as it takes a grammar's id.
import { deepFreeze, describe, fail, integer, options } from './checks.js';

const OPTIONS = [
  'text',
  'pairs',
  'name',
  'sourceColumn',
  'alignmentColumn',
  'unit',
  'lowercase',
  'minCount',
  'maxVocabulary',
  'maxLength',
  'validation',
  'test',
  'seed',
];
const UNITS = ['word', 'character'];

// The text's bytes: a string (as UTF-8), bytes as they came (the engine checks they are UTF-8), or
// [source, target, alignment?] pairs as the lines of a text.
function bytesOf(o) {
  if ((o.text === undefined) === (o.pairs === undefined))
    fail('give either options.text (a string or the bytes of a file) or options.pairs', 'pairs');
  const { text, pairs } = o;
  if (typeof text === 'string') return new TextEncoder().encode(text);
  if (text instanceof Uint8Array) return text;
  if (text instanceof ArrayBuffer) return new Uint8Array(text);
  if (text !== undefined)
    fail(`options.text must be a string, a Uint8Array or an ArrayBuffer, got ${describe(text)}`, 'pairs');
  if (!Array.isArray(pairs))
    fail(`options.pairs must be an array of [source, target], got ${describe(pairs)}`, 'pairs');
  const lines = pairs.map((pair, i) => {
    if (
      !Array.isArray(pair) ||
      pair.length < 2 ||
      pair.length > 3 ||
      pair.some((cell) => typeof cell !== 'string' || /[\t\n\r]/.test(cell))
    )
      fail(
        `options.pairs[${i}] must be [source, target] or [source, target, alignment], strings without tabs or line breaks, got ${describe(pair)}`,
        'pairs',
      );
    return pair.join('\t');
  });
  return new TextEncoder().encode(lines.join('\n'));
}

// The options the engine takes, each checked for type (its ranges are the engine's to check).
function engineOptions(o) {
  const number = (key, min = 0) =>
    o[key] === undefined ? undefined : integer(o[key], `options.${key}`, min, Number.MAX_SAFE_INTEGER);
  const share = (key) =>
    o[key] === undefined || (typeof o[key] === 'number' && Number.isFinite(o[key]))
      ? o[key]
      : fail(`options.${key} must be a share below 0.5 or a number of pairs, got ${describe(o[key])}`, key);
  let { unit } = o;
  if (typeof unit === 'string' || unit === undefined) unit = { source: unit, target: unit };
  if (unit === null || typeof unit !== 'object' || Array.isArray(unit))
    fail(`options.unit must be word, character or { source, target }, got ${describe(unit)}`, 'unit');
  for (const side of Object.keys(unit))
    if (!['source', 'target'].includes(side) || (unit[side] !== undefined && !UNITS.includes(unit[side])))
      fail(`options.unit must be word, character or { source, target } of them, got ${describe(o.unit)}`, 'unit');
  if (o.name !== undefined && typeof o.name !== 'string')
    fail(`options.name must be a string, got ${describe(o.name)}`, 'name');
  if (o.lowercase !== undefined && typeof o.lowercase !== 'boolean')
    fail(`options.lowercase must be true or false, got ${describe(o.lowercase)}`, 'lowercase');
  const given = {
    name: o.name,
    sourceColumn: number('sourceColumn'),
    // null: no alignment column, undefined: the third when it holds links
    alignmentColumn: o.alignmentColumn === null ? null : number('alignmentColumn'),
    sourceUnit: unit.source,
    targetUnit: unit.target,
    lowercase: o.lowercase,
    minCount: number('minCount'),
    maxVocabulary: number('maxVocabulary'),
    maxLength: number('maxLength'),
    validation: share('validation'),
    test: share('test'),
    seed: number('seed'),
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
}

const pairsOf = (lines) => (lines === '' ? [] : lines.split('\n').map((line) => line.split('\t')));

/**
 * The translation tasks' functions over `call`: createTranslationTask and translationTaskFacts,
 * and idOf(value): the id of a task object made here, or undefined for anything else.
 */
export function translationTasksApi(call) {
  const ids = new WeakMap(); // a task object -> its id
  const api = {
    /**
     * A grammar's task (its id) as the text of its pairs with their gold links, and the options
     * that read it all: { name, text, unit, maxLength }, which createTranslationTask takes.
     */
    translationTaskSample(task) {
      if (typeof task !== 'string') fail(`task must be a task id, got ${describe(task)}`, 'task');
      return { name: task, ...call('translationTaskSample', task) };
    },
    /** What tasks from text take when not told, and their limits. */
    translationTaskFacts: () => deepFreeze(call('translationTaskFacts')),
    /** A translation task of the reader's pairs, kept by the engine until dispose(). */
    createTranslationTask(opts) {
      if (opts === undefined) fail('options must be an object with text or pairs', 'pairs');
      const o = options(opts, 'options', OPTIONS);
      const info = call('translationTaskCreate', bytesOf(o), engineOptions(o));
      const { id } = info;
      let disposed = false;
      const live = () => (disposed ? fail(`the task ${id} was disposed`, 'task') : id);
      const held = {};
      const split = (name) =>
        (held[name] ??= deepFreeze(info.stats[name] ? pairsOf(call('translationTaskPairs', live(), name)) : []));
      const task = Object.freeze({
        id,
        name: info.name,
        hash: info.hash,
        settings: deepFreeze({
          unit: info.unit,
          lowercase: info.lowercase,
          maxLength: info.maxLength,
          goldLinks: info.goldLinks,
        }),
        stats: deepFreeze(info.stats),
        vocabulary: deepFreeze({
          source: info.sourceVocabulary.split('\n'),
          target: info.targetVocabulary.split('\n'),
        }),
        /** The pairs held out for validation, [source, target] as given. */
        get validation() {
          return split('validation');
        },
        /** The pairs held out for testing, [source, target] as given. */
        get test() {
          return split('test');
        },
        /** The tokens a model of the task reads `text` as on `side` (before <unk>). */
        tokenize(text, side = 'source') {
          if (typeof text !== 'string') fail(`text must be a string, got ${describe(text)}`, 'text');
          if (side !== 'source' && side !== 'target')
            fail(`side must be source or target, got ${describe(side)}`, 'side');
          return call('translationTaskTokenize', live(), text, side);
        },
        /** Lets the engine forget the pairs; models made of the task keep what they need. */
        dispose() {
          if (!disposed) call('translationTaskForget', id);
          disposed = true;
        },
      });
      ids.set(task, live);
      return task;
    },
  };
  return { api, idOf: (value) => ids.get(value)?.() };
}
