// One spec per walkthrough: its form fields, and for each kind of stage the formula, the code and
// (in exercise mode) the question. Numbers and structure come from the engine's trace; titles and
// texts from the locales (web/locales/<lang>/walkthroughs/<name>.json). See docs/architecture.md for how
// to add a walkthrough.
import basics from './basics.js';
import numerics from './numerics.js';
import selfAttention from './self-attention.js';

// The walkthroughs of trained models, and the attributes an <attention-stepper> takes as their
// inputs (known before their specs: an element observes them from the start). Their specs come
// with the models' code, one chunk (model-walkthroughs.js) that loadModelSpecs() brings, so that a page or an
// embed that shows none of them never downloads them.
const MODEL_ATTRIBUTES = {
  scoring: ['task', 'comparison', 'scoring', 'encoder', 'layers', 'guide', 'sentence', 'step'],
  seq2seq: ['task', 'scoring', 'encoder', 'layers', 'guide', 'sentence', 'comparison'],
  captioning: ['language', 'scene', 'beam'],
  transformer: ['task', 'sentence', 'layer', 'head', 'beam'],
  sentiment: ['task', 'language', 'encoder', 'sentence'],
};

/** The walkthroughs a reader can open, in the page's order. */
export const WALKTHROUGHS = Object.freeze([
  'basics',
  'self-attention',
  'scoring',
  'seq2seq',
  'captioning',
  'transformer',
  'sentiment',
  'numerics',
]);

/**
 * Whether `walkthrough` shows trained models: its spec comes with loadModelSpecs(), and a page or a
 * stepper that opens on it asks for the models' code at once (loadAttention({ models })).
 */
export const hasModels = (walkthrough) => Object.hasOwn(MODEL_ATTRIBUTES, walkthrough);

/** The inputs an embedding page may give `walkthrough` as attributes. */
export const inputAttributes = (walkthrough) => (hasModels(walkthrough) ? MODEL_ATTRIBUTES[walkthrough] : []);

/** Every walkthrough's inputs an embedding page may give as attributes: what an element observes. */
export const EVERY_INPUT_ATTRIBUTE = [...new Set(Object.values(MODEL_ATTRIBUTES).flat())];

/** One spec per walkthrough loaded so far, by name: the walkthroughs of trained models' once loadModelSpecs() resolved. */
export const SPECS = { basics, 'self-attention': selfAttention, numerics };

let modelSpecs = null; // the chunk on its way, or in
/** Brings the specs of the walkthroughs of trained models into SPECS, once. */
export const loadModelSpecs = () =>
  (modelSpecs ??= import('./model-walkthroughs.js').then(
    (specs) => Object.assign(SPECS, specs),
    (error) => {
      modelSpecs = null; // a later call tries again
      throw error;
    },
  ));

/** Whether the specs of the walkthroughs of trained models are in. */
export const modelSpecsLoaded = () => Object.keys(MODEL_ATTRIBUTES).every((name) => name in SPECS);

// The locale keys of a stage's texts (a stage the spec tells in parts, its `texts`: the first
// part's title, every part's text), and the values their {placeholders} take (a value may be a
// sentence of its own, worded with `t`).
function textsOf(trace, stage, inputs, t) {
  const spec = SPECS[trace.walkthrough];
  const params = spec.params?.({ trace, stage, inputs, t }) ?? {};
  const key = `${trace.walkthrough}.stages.${stage.kind}`;
  const parts = spec.stages[stage.kind].texts?.({ trace, stage, inputs });
  return { keys: parts ? parts.map((part) => `${key}.${part}`) : [key], params };
}

/** A stage's title in language `t` (the stage list shows every title: no formula or code made). */
export function stageTitle(trace, stage, inputs, t) {
  const { keys, params } = textsOf(trace, stage, inputs, t);
  return t(`${keys[0]}.title`, params);
}

/**
 * What a stage shows besides its numbers, in language `t`: { title, paragraphs, reveal, formula,
 * code }. `reveal` are the paragraphs that answer the stage's question (the locale's `reveal`,
 * after `text`, for a spec entry with `reveal: true`), which exercise mode holds back until the
 * reader answers. `inputs` are the inputs the trace was computed from, complete with the engine's defaults.
 */
export function describeStage(trace, stage, inputs, t) {
  const { keys, params } = textsOf(trace, stage, inputs, t);
  const entry = SPECS[trace.walkthrough].stages[stage.kind];
  const context = { trace, stage, inputs };
  return {
    title: t(`${keys[0]}.title`, params),
    paragraphs: keys.flatMap((key) => t(`${key}.text`, params).split('\n\n')),
    reveal: entry.reveal ? t(`${keys[0]}.reveal`, params).split('\n\n') : [],
    formula: entry.formula(context),
    code: entry.code(context),
  };
}
