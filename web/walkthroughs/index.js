// One spec per walkthrough: its form fields, and for each kind of stage the formula, the code and
// (in exercise mode) the question. Numbers and structure come from the engine's trace; titles and
// texts from the locales (web/locales/<lang>/walkthroughs.json). See docs/architecture.md for how
// to add a walkthrough.
import basics from './basics.js';
import scoring from './scoring.js';
import selfAttention from './self-attention.js';

export const SPECS = Object.freeze({ basics, 'self-attention': selfAttention, scoring });

/**
 * What a stage shows besides its numbers, in language `t`: { title, paragraphs, formula, code }.
 * `inputs` are the inputs the trace was computed from, complete with the engine's defaults.
 */
export function describeStage(trace, stage, inputs, t) {
  const spec = SPECS[trace.walkthrough];
  const entry = spec.stages[stage.kind];
  const context = { trace, stage, inputs };
  const params = spec.params?.(context) ?? {};
  const key = `${trace.walkthrough}.stages.${stage.kind}`;
  const text = t(`${key}.text`, params);
  return {
    title: t(`${key}.title`, params),
    paragraphs: text.split('\n\n'),
    formula: entry.formula(context),
    code: entry.code(context),
  };
}
