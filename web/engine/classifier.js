// The sentence classifiers' own part (models.js makes, loads and trains models of every kind):
// their tasks (reviews, each with the words that decide it, and the reader's own labelled
// sentences, read as the translation tasks from text are: text-tasks.js), and a classifier's
// labels, tokens, gradients, classifications and the checks of its attention as an explanation.
import { deepFreeze, describe, fail, options, sharedOnce, toMask } from './checks.js';
import { numberOption } from './models.js';
import { READING_OPTIONS, UNITS, givenOnly, readingOptions, taskObjects, textBytes, textOf } from './text-tasks.js';

const sentenceOf = (value) =>
  typeof value === 'string' ? value : fail(`sentence must be a string, got ${describe(value)}`, 'sentence');

// A classification task's options as the engine takes them, each checked for type (its ranges are
// the engine's to check).
function sentencesOptions(o) {
  const { number, given } = readingOptions(o, 'sentences');
  if (o.unit !== undefined && !UNITS.includes(o.unit))
    fail(`options.unit must be word or character, got ${describe(o.unit)}`, 'unit');
  return givenOnly({ ...given, labelColumn: number('labelColumn'), unit: o.unit });
}

/** The classifier kind's part over `call` and the store of the reader's tasks, as seq2seq.js has it. */
export function classifierParts({ call, tasks: store }) {
  const tasks = taskObjects(
    call,
    store,
    {
      load: 'classificationTaskLoad',
      save: 'classificationTaskSave',
      split: 'classificationTaskExamples',
      forget: 'classificationTaskForget',
    },
    (info, { live, split }) => ({
      labels: deepFreeze(info.labels),
      settings: deepFreeze({ unit: info.unit, lowercase: info.lowercase, maxLength: info.maxLength }),
      vocabulary: deepFreeze(info.vocabulary),
      /** The training sentences, [text, label] as given. */
      get examples() {
        return split('train');
      },
      /** The sentences held out for validation, [text, label] as given. */
      get validation() {
        return split('validation');
      },
      /** The sentences held out for testing, [text, label] as given. */
      get test() {
        return split('test');
      },
      /** The tokens a model of the task reads `text` as (before <unk>). */
      tokenize: (text) => call('classificationTaskTokenize', live(), textOf(text)),
    }),
  );
  return {
    api: {
      classificationTasks: sharedOnce(call, 'classificationTasks'),
      /**
       * A grammar's task (its id and language) as the text of its labelled sentences, and the
       * options that read it all: { name, text, unit, maxLength }, which createClassificationTask takes.
       */
      classificationTaskSample(task, language) {
        for (const [value, name] of [
          [task, 'task'],
          [language, 'language'],
        ])
          if (typeof value !== 'string') fail(`${name} must be a string, got ${describe(value)}`, name);
        return { name: `${task}-${language}`, ...call('classificationTaskSample', task, language) };
      },
      /** A classification task of the reader's labelled sentences, kept by the engine until dispose(). */
      createClassificationTask(opts) {
        if (opts === undefined) fail('options must be an object with text', 'text');
        const o = options(opts, 'options', [...READING_OPTIONS, 'labelColumn']);
        return tasks.make(call('classificationTaskCreate', textBytes(o.text, 'text'), sentencesOptions(o)));
      },
      /** The task of a task's bytes (its save()), without reading its sentences again. */
      loadClassificationTask: tasks.load,
    },
    methods: (info, live) => {
      const labels = deepFreeze(info.labels);
      return {
        labels,
        task: deepFreeze({
          id: info.task,
          language: info.language,
          labels,
          vocab: info.vocab,
          maxLength: info.maxLength,
          rationales: info.rationales,
        }),
        tokenize: (text) => call('classifierTokenize', live(), sentenceOf(text)),
        gradients(examples, opts) {
          const h = live();
          if (!Array.isArray(examples))
            fail(`examples must be an array of [sentence, label, rationale?], got ${describe(examples)}`, 'examples');
          // a label by its name, as the task's examples give it; the engine checks the rest
          const converted = examples.map((example, i) => {
            if (!Array.isArray(example) || example.length < 2 || example.length > 3 || typeof example[0] !== 'string')
              fail(`examples[${i}] must be [sentence, label, rationale?], got ${describe(example)}`, 'examples');
            const label = labels.indexOf(example[1]);
            if (label < 0)
              fail(`examples[${i}]'s label must be one of ${labels.join(', ')}, got ${describe(example[1])}`, 'label');
            const rationale = example[2] === undefined ? new Uint8Array() : toMask(example[2], 'rationale');
            return [example[0], label, rationale];
          });
          const o = options(opts, 'options', ['rationale']);
          return call('classifierGradients', h, converted, numberOption(o.rationale, 'options.rationale'));
        },
        classify: (text) => call('classifierClassify', live(), sentenceOf(text)),
        explain: (text) => call('classifierExplain', live(), sentenceOf(text)),
      };
    },
  };
}

/** The classifier kind's entry in the kinds' table (kinds.js). */
export const classifierKind = {
  create: 'createClassifier',
  facts: 'classifierFacts',
  walkthroughs: ['sentiment'],
  // the attention over the probe's sentence as the model classifies it: one row, labelled with the
  // predicted label, by the sentence's words
  probe(model, { sentence }) {
    const { label, weights, tokens } = model.classify(sentence);
    return { rows: 1, cols: weights.length, data: weights, rowLabels: [label], colLabels: tokens };
  },
  // what a run's target is of
  goal: 'accuracy',
  // the reader's labelled sentences: their task, made of their text or of its bytes, and held-out
  // ones classified as a run shows them
  reader: {
    create: 'createClassificationTask',
    load: 'loadClassificationTask',
    sample: (model, [source, reference]) => ({ source, output: model.classify(source).label, reference }),
  },
  // the sentiment walkthrough's: the bigru with learned attention and with uniform attention, en
  // and zh (300 steps: the defaults reach 95% by step 75); the encoder is a named field, which a
  // shipped model's entry says
  shipped: ['en', 'zh'].flatMap((language) => [
    { task: 'reviews', language, encoder: 'bigru', steps: 300 },
    { task: 'reviews', language, encoder: 'bigru', attention: 'uniform', steps: 300 },
  ]),
  parts: classifierParts,
};
