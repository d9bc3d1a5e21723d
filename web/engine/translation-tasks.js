// Translation tasks from the reader's own text (what the translation kinds, seq2seq and the
// Transformer, learn besides the grammars' tasks): the engine reads, splits and keeps them; a task
// object here holds its id, which createModel({ task }) takes as it takes a grammar's id.
import { deepFreeze, describe, fail, options } from './checks.js';
import { READING_OPTIONS, UNITS, givenOnly, readingOptions, taskObjects, textBytes, textOf } from './text-tasks.js';

const OPTIONS = [...READING_OPTIONS, 'pairs', 'sourceColumn', 'alignmentColumn'];

// The text's bytes: options.text (textBytes), or [source, target, alignment?] pairs as the lines
// of a text.
function bytesOf(o) {
  if ((o.text === undefined) === (o.pairs === undefined))
    fail('give either options.text (a string or the bytes of a file) or options.pairs', 'pairs');
  const { text, pairs } = o;
  if (text !== undefined) return textBytes(text, 'pairs');
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
  const { number, given } = readingOptions(o, 'pairs');
  let { unit } = o;
  if (typeof unit === 'string' || unit === undefined) unit = { source: unit, target: unit };
  if (unit === null || typeof unit !== 'object' || Array.isArray(unit))
    fail(`options.unit must be word, character or { source, target }, got ${describe(unit)}`, 'unit');
  for (const side of Object.keys(unit))
    if (!['source', 'target'].includes(side) || (unit[side] !== undefined && !UNITS.includes(unit[side])))
      fail(`options.unit must be word, character or { source, target } of them, got ${describe(o.unit)}`, 'unit');
  return givenOnly({
    ...given,
    sourceColumn: number('sourceColumn'),
    // null: no alignment column, undefined: the third when it holds links
    alignmentColumn: o.alignmentColumn === null ? null : number('alignmentColumn'),
    sourceUnit: unit.source,
    targetUnit: unit.target,
  });
}

/**
 * The translation tasks' functions over `call`: createTranslationTask, loadTranslationTask,
 * translationTaskSample and translationTaskFacts;
 * each task object made is kept in `store` (text-tasks.js's taskStore), by which createModel
 * knows its id.
 */
export function translationTasksApi(call, store) {
  const tasks = taskObjects(
    call,
    store,
    {
      load: 'translationTaskLoad',
      save: 'translationTaskSave',
      split: 'translationTaskPairs',
      forget: 'translationTaskForget',
    },
    (info, { live, split }) => ({
      settings: deepFreeze({
        unit: info.unit,
        lowercase: info.lowercase,
        maxLength: info.maxLength,
        goldLinks: info.goldLinks,
      }),
      vocabulary: deepFreeze({
        source: info.sourceVocabulary,
        target: info.targetVocabulary,
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
        textOf(text);
        if (side !== 'source' && side !== 'target')
          fail(`side must be source or target, got ${describe(side)}`, 'side');
        return call('translationTaskTokenize', live(), text, side);
      },
    }),
  );
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
      return tasks.make(call('translationTaskCreate', bytesOf(o), engineOptions(o)));
    },
    /** The task of a task's bytes (its save()), without reading its pairs again. */
    loadTranslationTask: tasks.load,
  };

  return { api };
}

/**
 * A translation kind's reader task (its entry's `reader` in kinds.js): how the reader's pairs
 * become its task, how a task's bytes do (in a training run's worker, at a later visit), and how
 * a held-out pair shows as the model translates it.
 */
export const translationReader = {
  create: 'createTranslationTask',
  load: 'loadTranslationTask',
  sample: (model, [source, reference]) => ({ source, output: model.translate(source).target.join(' '), reference }),
};
