// One spec per walkthrough: its form fields, and for each kind of stage the formula, the code and
// (in exercise mode) the question. Numbers and structure come from the engine's trace; titles and
// texts from the locales (web/locales/<lang>/walkthroughs/<name>.json). See docs/architecture.md for how
// to add a walkthrough.
import { MODEL_KINDS } from 'attention-stepper';

import basics from './basics.js';
import numerics from './numerics.js';
import selfAttention from './self-attention.js';

// The walkthroughs of trained models are those the kinds' entries name (web/engine/kinds.js),
// known before their specs: each spec (trained/<name>.js) is a chunk of its own that loadSpec() brings
// with the models' code, so that a page or an embed that shows none of them never downloads them.
const MODEL_WALKTHROUGHS = Object.values(MODEL_KINDS).flatMap((kind) => kind.walkthroughs);

/** The walkthroughs a reader can open, in the page's order (the engine's: registry.cpp). */
export const WALKTHROUGHS = Object.freeze([basics.name, selfAttention.name, ...MODEL_WALKTHROUGHS, numerics.name]);

/**
 * Whether `walkthrough` shows trained models: its spec comes with loadSpec(), and a page or a
 * stepper that opens on it asks for the models' code at once (loadAttention({ models })).
 */
export const hasModels = (walkthrough) => MODEL_WALKTHROUGHS.includes(walkthrough);

/** One spec per walkthrough loaded so far, by name: a walkthrough of trained models' once loadSpec() resolved. */
export const SPECS = { basics, 'self-attention': selfAttention, numerics };

const loading = new Map(); // name -> its spec on its way, or in
/** Brings the spec of `walkthrough` (one of WALKTHROUGHS) into SPECS, once. */
export const loadSpec = (walkthrough) => {
  if (Object.hasOwn(SPECS, walkthrough)) return Promise.resolve(SPECS[walkthrough]);
  if (!hasModels(walkthrough)) return Promise.reject(new Error(`no walkthrough ${walkthrough}`));
  if (!loading.has(walkthrough))
    loading.set(
      walkthrough,
      import(`./trained/${walkthrough}.js`).then(
        ({ default: spec }) => (SPECS[walkthrough] = spec),
        (error) => {
          loading.delete(walkthrough); // a later call tries again
          throw error;
        },
      ),
    );
  return loading.get(walkthrough);
};

/**
 * The inputs an embedding page may give `walkthrough` as attributes, once its spec is in: a
 * walkthrough of trained models takes its form's fields so (task="en-zh" sentence="…").
 */
export const inputAttributes = (walkthrough) =>
  hasModels(walkthrough) && SPECS[walkthrough] ? SPECS[walkthrough].fields.map((field) => field.name) : [];

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
