// Draws one stage of a walkthrough trace: title, the seed's explanation, the formula (KaTeX,
// MathML output: no fonts or inline styles needed), the notebook's code and every panel.
import { el } from './dom.js';
import katex from 'katex';

import { renderHeatmap } from './heatmap.js';

/**
 * Fills `section` with `stage`. context: { walkthrough, index, total, t, palette, width,
 * question (optional { prompt, choices: [[value, label]], answered, feedback, onAnswer }) }.
 */
export function renderStage(section, stage, context) {
  const { t, walkthrough } = context;
  const localeKey = localeKeyOf(walkthrough, stage.id);
  const params = { ...context.params, t: stage.id.replace('step-', ''), word: stepWord(stage) ?? context.params?.word };
  const title = t(`${localeKey}.title`, params);
  const heading = el('h2', 'stage-title', title === `${localeKey}.title` ? stage.title : title);
  heading.id = `title-${walkthrough}-${stage.id}`;
  heading.tabIndex = -1;
  section.setAttribute('aria-labelledby', heading.id);

  const header = el('header', 'stage-header');
  header.append(el('p', 'stage-count', t('stageOf', { n: context.index + 1, total: context.total })), heading);

  const text = el('div', 'stage-text');
  const body = t(`${localeKey}.text`, params);
  if (body !== `${localeKey}.text`) body.split('\n\n').forEach((paragraph) => text.append(el('p', '', paragraph)));

  const formula = el('div', 'stage-formula');
  formula.setAttribute('aria-label', t('formula'));
  katex.render(stage.formula, formula, { output: 'mathml', throwOnError: false, displayMode: true });

  const code = el('pre', 'stage-code');
  code.setAttribute('aria-label', t('code'));
  code.append(el('code', '', stage.code));

  const panels = el('div', 'stage-panels');
  const question = context.question;
  if (question && !question.answered) {
    panels.append(renderQuestion(question, t));
  } else {
    if (question) panels.append(el('p', 'question-feedback', question.feedback));
    for (const panel of stage.panels) {
      const holder = el('div', 'panel');
      panels.append(holder);
      renderHeatmap(holder, panel, {
        palette: context.palette,
        width: context.width / Math.min(stage.panels.length, panel.cols > 8 ? 1 : 3),
        text: { table: t('table'), hideTable: t('hideTable'), legend: t('legend') },
      });
    }
    if (stage.panels.some((panel) => panel.exact)) panels.append(el('p', 'exact-note', t('exactNote')));
  }
  section.replaceChildren(header, text, formula, code, panels);
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

/** Decoding steps share one locale entry, "step". */
function localeKeyOf(walkthrough, id) {
  return `${walkthrough}.stages.${id.startsWith('step-') ? 'step' : id}`;
}

function stepWord(stage) {
  return stage.id.startsWith('step-') ? stage.panels[0].colLabels[0] : undefined;
}
