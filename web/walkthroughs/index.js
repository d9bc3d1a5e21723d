// One spec per walkthrough: its form fields, and for each kind of stage the formula, the code and
// (in exercise mode) the question. Numbers and structure come from the engine's trace; titles and
// texts from the locales (web/locales/<lang>/walkthroughs/<name>.json). See docs/architecture.md for how
// to add a walkthrough.
import basics from './basics.js';
import captioning from './captioning.js';
import numerics from './numerics.js';
import scoring from './scoring.js';
import selfAttention from './self-attention.js';
import sentiment from './sentiment.js';
import seq2seq from './seq2seq.js';
import transformer from './transformer.js';

export const SPECS = Object.freeze({
  basics,
  'self-attention': selfAttention,
  scoring,
  seq2seq,
  captioning,
  transformer,
  sentiment,
  numerics,
});

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
