// Draws one stage of a walkthrough trace: title, the seed's explanation, the formula (KaTeX,
// MathML output: no fonts or inline styles needed), the notebook's code and every panel.
import katex from 'katex';

import { el, setChildren } from './dom.js';
import { renderHeatmap } from './heatmap.js';

const HEATMAP_TEXT = [
  'table',
  'hideTable',
  'legend',
  'export',
  'exportPng',
  'exportSvg',
  'exportCsv',
  'exportJson',
  'exportNumpy',
  'copied',
  'copyFailed',
];

/** Decoding steps share one locale entry, "step". */
function localeKeyOf(walkthrough, id) {
  return `${walkthrough}.stages.${id.startsWith('step-') ? 'step' : id}`;
}

function stageParams(stage, params) {
  if (!stage.id.startsWith('step-')) return params;
  return { ...params, t: stage.id.slice('step-'.length), word: stage.panels[0].colLabels[0] };
}

/** The stage's title in the current language (the engine's English title if there is none). */
export function stageTitle(stage, walkthrough, t, params = {}) {
  const key = `${localeKeyOf(walkthrough, stage.id)}.title`;
  const title = t(key, stageParams(stage, params));
  return title === key ? stage.title : title;
}

/**
 * Fills `section` with `stage`. context: { walkthrough, index, total, t, palette, width, params,
 * question (optional, from exerciseQuestion) }. Drawn again into the same section (an input
 * edit), it keeps every part that did not change and updates the heatmaps in place: re-inserting
 * the formula's MathML and every heatmap cell would make the browser restyle and lay out all of it.
 */
export function renderStage(section, stage, context) {
  const { t, walkthrough } = context;
  const params = stageParams(stage, context.params ?? {});
  const heading = el('h2', 'stage-title', stageTitle(stage, walkthrough, t, context.params));
  heading.id = `title-${walkthrough}-${stage.id}`;
  heading.tabIndex = -1;
  section.setAttribute('aria-labelledby', heading.id);

  const header = el('header', 'stage-header');
  header.append(el('p', 'stage-count', t('stageOf', { n: context.index + 1, total: context.total })), heading);

  const text = el('div', 'stage-text');
  const textKey = `${localeKeyOf(walkthrough, stage.id)}.text`;
  const body = t(textKey, params);
  if (body !== textKey) body.split('\n\n').forEach((paragraph) => text.append(el('p', '', paragraph)));

  const formula = el('div', 'stage-formula');
  formula.setAttribute('aria-label', t('formula'));
  formula.append(renderedFormula(stage.formula));

  const code = el('pre', 'stage-code');
  code.setAttribute('aria-label', t('code'));
  code.append(el('code', '', stage.code));

  const panels = section.querySelector(':scope > .stage-panels');
  if (panels && updatePanels(panels, stage, context)) setChildren(section, [header, text, formula, code, panels]);
  else section.replaceChildren(header, text, formula, code, newPanels(stage, context));
}

function newPanels(stage, context) {
  const panels = el('div', 'stage-panels');
  const question = context.question;
  const holders = stage.panels.map(() => el('div', 'panel'));
  if (question && !question.answered) panels.append(renderQuestion(question, context.t));
  else panels.append(...panelChildren(holders, stage, context));
  return panels;
}

/**
 * Draws the stage into the panels of the one drawn before, when it has as many heatmaps and asks
 * nothing; false (and nothing touched) otherwise.
 */
function updatePanels(panels, stage, context) {
  const holders = [...panels.querySelectorAll(':scope > .panel')];
  const question = context.question;
  if ((question && !question.answered) || holders.length !== stage.panels.length) return false;
  setChildren(panels, panelChildren(holders, stage, context));
  return true;
}

// Draws each panel's heatmap into its holder; the holders with the answer's feedback before them
// (exercise mode) and the note on float128 values after them, when the stage has such values.
function panelChildren(holders, stage, context) {
  const { t, question } = context;
  stage.panels.forEach((panel, i) =>
    renderHeatmap(holders[i], panel, {
      palette: context.palette,
      width: context.width / Math.min(stage.panels.length, panel.cols > 8 ? 1 : 3),
      text: Object.fromEntries(HEATMAP_TEXT.map((key) => [key, t(key)])),
    }),
  );
  return [
    ...(question ? [el('p', 'question-feedback', question.feedback)] : []),
    ...holders,
    ...(stage.panels.some((panel) => panel.exact) ? [el('p', 'exact-note', t('exactNote'))] : []),
  ];
}

// KaTeX takes milliseconds per formula and a stage redraws on every edit, while its formula
// rarely changes: each is rendered once and cloned afterwards.
const formulas = new Map();

function renderedFormula(latex) {
  if (!formulas.has(latex)) {
    if (formulas.size > 500) formulas.clear();
    const holder = el('div');
    katex.render(latex, holder, { output: 'mathml', throwOnError: false, displayMode: true });
    formulas.set(latex, holder);
  }
  const copy = document.createDocumentFragment();
  for (const node of formulas.get(latex).childNodes) copy.append(node.cloneNode(true));
  return copy;
}

function renderQuestion(question, t) {
  const form = el('form', 'question');
  const fieldset = el('fieldset');
  fieldset.append(el('legend', '', question.prompt));
  for (const [value, label] of question.choices) {
    const button = el('button', 'question-choice', label);
    button.type = 'submit';
    button.value = String(value);
    fieldset.append(button);
  }
  form.append(el('p', 'question-label', t('answer')), fieldset);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    question.onAnswer(event.submitter.value);
  });
  return form;
}

/**
 * The exercise edition (seed 001) asks before it reveals: on the basics "scores" stage, which
 * annotation gets the most attention; on "softmax" (notebook inputs only, as the question quotes
 * them), whether 927 and 929 share the attention. `answers` maps "walkthrough/stage" to the
 * learner's answer; `rerender` runs after an answer.
 */
export function exerciseQuestion(stage, trace, notebookInputs, answers, t, rerender) {
  if (trace.walkthrough !== 'basics') return null;
  const key = `basics/${stage.id}`;
  const make = (id, choices, rightAnswer, params = {}) => ({
    prompt: t(`questions.${id}.prompt`, params),
    choices,
    answered: answers[key] !== undefined,
    feedback: t(`questions.${id}.${answers[key] === rightAnswer ? 'right' : 'wrong'}`, params),
    onAnswer: (value) => {
      answers[key] = value;
      rerender();
    },
  });
  if (stage.id === 'scores') {
    const scores = stage.panels[0];
    const answer = scores.colLabels[scores.data.indexOf(Math.max(...scores.data))];
    return make(
      'most-attention',
      scores.colLabels.map((label) => [label, label]),
      answer,
      { answer },
    );
  }
  if (stage.id === 'softmax' && notebookInputs) {
    const weights = stage.panels[0].data;
    const share = Math.abs(weights[0] - weights.at(-1)) < 0.1 ? 'yes' : 'no';
    return make(
      'softmax-share',
      [
        ['yes', t('yes')],
        ['no', t('no')],
      ],
      share,
    );
  }
  return null;
}
