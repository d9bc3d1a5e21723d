// Draws one stage of a walkthrough trace: title, the seed's explanation, the formula (KaTeX,
// MathML output: no fonts or inline styles needed), the notebook's code and every panel. What to
// say comes from the controller's view of the stage (the walkthrough's spec and the locales).
// KaTeX is loaded once the first stage with a formula is on screen (loadFormulas): a chunk of its
// own, so an embed that draws no stage (a lone <attention-heatmap>) never downloads it, and one
// that does gets its first figure before KaTeX takes any of the bandwidth.
import { el, setChildren } from './dom.js';
import { activeCell, focusCell, renderHeatmap, textMeasure } from './heatmap.js';
import { computeLayout } from './heatmap-layout.js';
import { renderPicture } from './scene-image.js';
import { renderHighlight } from './sentence-highlight.js';
import { drawHeadView } from './head-view.js';
import { drawModelView } from './model-view.js';

const HEATMAP_TEXT = [
  'bitsSign',
  'bitsExponent',
  'bitsMantissa',
  'table',
  'hideTable',
  'numbers',
  'hideNumbers',
  'legend',
  'export',
  'exportPng',
  'exportSvg',
  'exportCsv',
  'exportJson',
  'exportNumpy',
  'exportNpy',
  'copied',
  'copyFailed',
  'heatmapKeys',
];

// The drawings a spec may give a stage kind instead of a heatmap per panel (its `view`): each
// draws all of the stage's panels into one holder.
const DRAWINGS = { heads: drawHeadView, layers: drawModelView };

// The drawings a spec may give the panels of a colour role instead of a heatmap (its `drawings`,
// by palette): a picture (an image, maps over it) and a sentence with its words' weights.
const PANEL_DRAWINGS = { picture: renderPicture, sentence: renderHighlight };

/** The names a spec may give a stage kind's `view` and its `drawings`' values. */
export const DRAWING_NAMES = { stages: Object.keys(DRAWINGS), panels: Object.keys(PANEL_DRAWINGS) };

/** The heatmap's texts in the language of `t`. */
export function heatmapText(t) {
  return Object.fromEntries(HEATMAP_TEXT.map((key) => [key, t(key)]));
}

// The head view's pressed head or token, kept while its stage is drawn again (an edit, another
// language or palette): by the stage's section, which stays while its walkthrough is on screen.
const pinnedIn = new WeakMap();

/**
 * Fills `section` with the stage on screen of `controller` (components/controller.js), its
 * heatmaps sized for `width` px in the CSS font family `font` (the stage's, which `section`, not
 * yet in the document, cannot tell). Drawn again into the same section (an input edit), it keeps every
 * part that did not change and updates the heatmaps in place: re-inserting the formula's MathML
 * and every heatmap cell would make the browser restyle and lay out all of it.
 */
export function renderStage(section, controller, width, font) {
  const view = controller.view(); // { stage, index, total, title, paragraphs, formula, code, question }
  const { t, walkthrough } = controller;
  const context = {
    t,
    palette: controller.options.palette,
    width,
    font,
    onAnswer: (value) => controller.answer(value),
    // the image a stage's maps are drawn over: the trace's picture of palette "image"
    image: controller.trace.stages.flatMap((stage) => stage.panels).find((panel) => panel.palette === 'image'),
    // the spec's drawing of the stage's kind, and where choosing one of its panels leads (open:
    // the inputs and the stage the spec says); heads numbered as the spec counts them
    drawing: DRAWINGS[controller.spec.stages[view.stage.kind].view],
    countFrom: controller.spec.countFrom ?? 1,
    pinned: pinnedIn.get(section) ?? null,
    onPin: (filter) => pinnedIn.set(section, filter),
    // the spec's drawing of a panel, by its colour role, if not a heatmap
    panelDrawing: (panel) => PANEL_DRAWINGS[controller.spec.drawings?.[panel.palette]],
    open: (name) => {
      const { inputs, stage } = controller.spec.stages[view.stage.kind].open(name);
      if (!controller.fill(inputs)) controller.goTo(stage);
    },
  };
  const heading = el('h2', 'stage-title', view.title);
  heading.id = `title-${walkthrough}-${view.stage.id}`;
  heading.tabIndex = -1;
  section.setAttribute('aria-labelledby', heading.id);

  const header = el('header', 'stage-header');
  header.append(el('p', 'stage-count', controller.stageCount()), heading);
  // a field that does not parse (or that the engine refuses) leaves the stage on the last valid
  // inputs: it says so where the reader looks, and its numbers fade
  section.classList.toggle('as-stale', view.stale.length > 0);
  if (view.stale.length) {
    const notice = el(
      'p',
      'stage-stale',
      t('staleStage', { fields: view.stale.map((label) => t('quoted', { text: label })).join(t('listSeparator')) }),
    );
    notice.setAttribute('role', 'status');
    header.append(notice);
  }

  const text = el('div', 'stage-text');
  view.paragraphs.forEach((paragraph) => text.append(el('p', '', paragraph)));

  // Labelled groups (aria-label is not allowed on an element without a role) that scroll
  // sideways when wider than the stage, so the keyboard can reach them too.
  const formula = el('div', 'stage-formula');
  fillFormula(formula, view.formula);
  const code = el('pre', 'stage-code');
  code.append(el('code', '', view.code));
  for (const [element, label] of [
    [formula, t('formula')],
    [code, t('code')],
  ]) {
    element.setAttribute('role', 'group');
    element.setAttribute('aria-label', label);
    element.tabIndex = 0;
  }

  const panels = section.querySelector(':scope > .stage-panels');
  if (panels && updatePanels(panels, view, context)) setChildren(section, [header, text, formula, code, panels]);
  else section.replaceChildren(header, text, formula, code, newPanels(view, context));
}

/**
 * Keeps keyboard focus on the stage when it is drawn again or another stage takes its place: call
 * it before drawing into `scope` (what holds the stage sections), and the function it returns
 * with the section on screen once it is in place. Focus that was in a stage and lost its node
 * (every key that changes the stage replaces the formula or heatmap it is on) goes to the same
 * control of the section on screen (the formula, the heatmap at the same place on the same cell, the
 * n-th answer), else to its heading: never to <body>, where an <attention-stepper>'s keys no
 * longer reach it. Focus anywhere else is left alone.
 */
export function keepStageFocus(scope) {
  const active = scope.getRootNode().activeElement;
  const stage = scope.contains(active) ? active.closest('section.stage') : null;
  if (!stage) return () => {};
  const place = controlPlace(active, stage);
  return (section) => {
    if (active.isConnected) return;
    const control = section.querySelectorAll(place.selector)[place.index];
    if (control && place.cell) focusCell(control, place.cell);
    else control?.focus();
    if (section.getRootNode().activeElement !== control) section.querySelector('.stage-title')?.focus();
  };
}

// A focused control as any stage may have it: its kind (first class, else its tag), which one of
// that kind in the stage, and in a heatmap the cell keyboard focus is on.
function controlPlace(control, stage) {
  const selector = control.classList.length ? `.${control.classList[0]}` : control.localName;
  const index = [...stage.querySelectorAll(selector)].indexOf(control);
  return { selector, index, cell: control.matches('.hm-grid') ? activeCell(control) : null };
}

function newPanels(view, context) {
  const panels = el('div', 'stage-panels');
  const holders = Array.from({ length: holderCount(view, context) }, () => el('div', 'panel'));
  if (view.question && !view.question.answered) panels.append(renderQuestion(view.question, context));
  else panels.append(...panelChildren(holders, view, context));
  return panels;
}

/**
 * Draws the stage into the panels of the one drawn before, when it has as many heatmaps and asks
 * nothing; false (and nothing touched) otherwise.
 */
function updatePanels(panels, view, context) {
  const holders = [...panels.querySelectorAll(':scope > .panel')];
  const question = view.question;
  if ((question && !question.answered) || holders.length !== holderCount(view, context)) return false;
  setChildren(panels, panelChildren(holders, view, context));
  return true;
}

// Draws each panel's heatmap into its holder; the holders with the answer's feedback before them
// (exercise mode) and the note on float128 values after them, when the stage has such values.
function panelChildren(holders, view, context) {
  const { t } = context;
  const { stage, question } = view;
  if (context.drawing) {
    context.drawing(holders[0], stage.panels, context);
    return holders;
  }
  const options = { palette: context.palette, font: context.font, text: heatmapText(t), t };
  const share = panelShare(stage.panels, context, { ...options, measure: textMeasure(context.font) });
  stage.panels.forEach((panel, i) => {
    const drawing = context.panelDrawing(panel);
    if (drawing) drawing(holders[i], panel, { ...options, image: context.image, width: context.width });
    else renderHeatmap(holders[i], panel, { ...options, width: wide(panel, context) ? context.width : share });
  });
  return [
    ...(question ? [el('p', 'question-feedback', question.feedback)] : []),
    ...holders,
    ...(stage.panels.some((panel) => panel.exact) ? [el('p', 'exact-note', t('exactNote'))] : []),
  ];
}

// A holder per panel, or one for a drawing of them all.
const holderCount = (view, context) => (context.drawing ? 1 : view.stage.panels.length);

const PANEL_GAP = 40; // px between panels in a row (styles.css, .stage-panels)
const wide = (panel, context) => panel.cols > 8 || Boolean(context.panelDrawing(panel));

// The width of each small panel: up to three share a row where each still fits its share with
// its numbers as large as it would show them alone; wide panels take a row each.
function panelShare(panels, context, options) {
  const { width } = context;
  const small = panels.filter((panel) => !wide(panel, context));
  for (let count = Math.min(3, small.length); count > 1; count--) {
    const share = (width - (count - 1) * PANEL_GAP) / count;
    const fits = small.every((panel) => {
      const shared = computeLayout(panel, { ...options, width: share });
      return (
        shared.width <= share && shared.annotationSize >= computeLayout(panel, { ...options, width }).annotationSize
      );
    });
    if (fits) return share;
  }
  return width;
}

// KaTeX once its loading settled (null if it could not load); the promise of loading it, once a
// formula waits for it; the formula holders drawn before it came, each with its LaTeX, filled in
// place when it comes.
let katex = null;
let settled = false;
let katexLoad = null;
const pending = new Map();

/**
 * Loads KaTeX (once: `import()` of its chunk beside this module, wherever that is served from),
 * after the frame that shows the stage, in a task of its own, so that parsing its code never holds
 * back the stage's figures; then fills every formula drawn while it was on its way. Resolves once
 * those formulas are filled (with the LaTeX source as text if KaTeX could not load).
 */
function loadFormulas() {
  katexLoad ??= new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))).then(() =>
    import('katex').then(
      (module) => settle(module.default),
      () => settle(null),
    ),
  );
  return katexLoad;
}

/** Resolves once every formula drawn so far shows (at once while none waits for KaTeX). */
export const formulasDrawn = () => (settled || !pending.size ? Promise.resolve() : loadFormulas());

function settle(loaded) {
  katex = loaded;
  settled = true;
  for (const [holder, latex] of pending) {
    holder.removeAttribute('aria-busy');
    holder.removeAttribute('data-latex');
    holder.append(renderedFormula(latex));
  }
  pending.clear();
}

// The formula into its holder: rendered at once once KaTeX is here, else a place kept for it
// (styles.css reserves a formula's usual height; aria-busy tells a screen reader to wait) that is
// filled in place when KaTeX comes, so focus and the stage around it stay. The LaTeX as an
// attribute tells two waiting formulas apart (setChildren keeps the present one if equal).
function fillFormula(holder, latex) {
  if (settled) return holder.append(renderedFormula(latex));
  holder.setAttribute('aria-busy', 'true');
  holder.dataset.latex = latex;
  pending.set(holder, latex);
  loadFormulas();
}

// KaTeX takes milliseconds per formula and a stage redraws on every edit, while its formula
// rarely changes: each is rendered once and cloned afterwards. Without KaTeX (it could not load),
// the formula shows as its LaTeX source.
const formulas = new Map();

function renderedFormula(latex) {
  if (!katex) return el('code', 'formula-source', latex);
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

function renderQuestion(question, { t, onAnswer }) {
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
    onAnswer(event.submitter.value);
  });
  return form;
}
