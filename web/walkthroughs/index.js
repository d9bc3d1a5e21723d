// One spec per walkthrough: its form fields, and for each kind of stage the formula, the code and
// (in exercise mode) the question. Numbers and structure come from the engine's trace; titles and
// texts from the locales (web/locales/<lang>/walkthroughs.json). See docs/architecture.md for how
// to add a walkthrough.
import basics from './basics.js';
import numerics from './numerics.js';
import scoring from './scoring.js';
import selfAttention from './self-attention.js';
import seq2seq from './seq2seq.js';

export const SPECS = Object.freeze({ basics, 'self-attention': selfAttention, scoring, seq2seq, numerics });

// The locale key of a stage's texts, and the values its {placeholders} take (a value may be a
// sentence of its own, worded with `t`).
function textsOf(trace, stage, inputs, t) {
  const params = SPECS[trace.walkthrough].params?.({ trace, stage, inputs, t }) ?? {};
  return { key: `${trace.walkthrough}.stages.${stage.kind}`, params };
}

/** A stage's title in language `t` (the stage list shows every title: no formula or code made). */
export function stageTitle(trace, stage, inputs, t) {
  const { key, params } = textsOf(trace, stage, inputs, t);
  return t(`${key}.title`, params);
}

/**
 * What a stage shows besides its numbers, in language `t`: { title, paragraphs, reveal, formula,
 * code }. `reveal` are the paragraphs that answer the stage's question (the locale's `reveal`,
 * after `text`, for a spec entry with `reveal: true`), which exercise mode holds back until the
 * reader answers. `inputs` are the inputs the trace was computed from, complete with the engine's defaults.
 */
export function describeStage(trace, stage, inputs, t) {
  const { key, params } = textsOf(trace, stage, inputs, t);
  const entry = SPECS[trace.walkthrough].stages[stage.kind];
  const context = { trace, stage, inputs };
  return {
    title: t(`${key}.title`, params),
    paragraphs: t(`${key}.text`, params).split('\n\n'),
    reveal: entry.reveal ? t(`${key}.reveal`, params).split('\n\n') : [],
    formula: entry.formula(context),
    code: entry.code(context),
  };
}
