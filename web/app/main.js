// The step-through page: state (walkthrough, stage, inputs, settings) lives in the URL and in
// memory; every change recomputes the walkthrough trace through the WebAssembly engine and
// redraws the stage on screen. Built on the engine's public API only.
import { loadAttention, WALKTHROUGHS } from '../engine/index.js';
import { el } from './dom.js';
import { LANGUAGES, translator } from './i18n.js';
import { DEFAULT_INPUTS, FIELDS, FieldError, fieldOfMessage } from './inputs.js';
import { PALETTES } from './palettes.js';
import { renderStage } from './stage-view.js';

const query = new URLSearchParams(location.search);
const state = {
  walkthrough: 'basics',
  stageId: null,
  lang: pick(query.get('lang'), LANGUAGES, navigator.language?.startsWith('zh') ? 'zh' : 'en'),
  theme: pick(
    query.get('theme'),
    ['light', 'dark'],
    matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  ),
  palette: pick(query.get('palette'), PALETTES, 'notebook'),
  exercise: query.get('exercise') === '1',
  inputs: structuredClone(DEFAULT_INPUTS),
  fieldTexts: {}, // walkthrough -> key -> text the user typed (kept even when invalid)
  parseErrors: {}, // walkthrough -> key -> message, while the field's text does not parse
  engineErrors: {}, // walkthrough -> key -> the engine's message about that field
  formError: {}, // walkthrough -> engine message not tied to one field
  traces: {},
  answers: {},
};
let attn;
let t = translator(state.lang);
const $ = (selector) => document.querySelector(selector);

function pick(value, allowed, fallback) {
  return allowed.includes(value) ? value : fallback;
}

// ---- computing -----------------------------------------------------------------------------

function compute(walkthrough) {
  const inputs = state.inputs[walkthrough];
  const converted = walkthrough === 'scoring' ? withoutEmptyTokens(inputs) : inputs;
  state.engineErrors[walkthrough] = {};
  state.formError[walkthrough] = null;
  try {
    state.traces[walkthrough] = attn.walkthrough(walkthrough, converted);
  } catch (error) {
    const field = fieldOfMessage(walkthrough, error.message);
    if (field) state.engineErrors[walkthrough][field] = error.message;
    else state.formError[walkthrough] = error.message;
  }
}

function withoutEmptyTokens(inputs) {
  const { sourceTokens, targetTokens, ...rest } = inputs;
  return { ...rest, ...(sourceTokens.length && { sourceTokens }), ...(targetTokens.length && { targetTokens }) };
}

// ---- navigation ------------------------------------------------------------------------------

const trace = () => state.traces[state.walkthrough];
const stageIndex = () =>
  Math.max(
    0,
    trace().stages.findIndex((stage) => stage.id === state.stageId),
  );

// Navigation renders at once and pushes a history entry; hashchange covers typed URLs and Back.
function goTo(walkthrough, stageId) {
  const hash = `#${stageId ? `${walkthrough}/${stageId}` : walkthrough}`;
  if (hash !== location.hash) history.pushState(null, '', hash);
  applyHash();
  announceStage();
}

function announceStage() {
  const stage = trace().stages[stageIndex()];
  $('#announcer').textContent =
    `${t('stageOf', { n: stageIndex() + 1, total: trace().stages.length })}: ${stageTitle(stage)}`;
}

function step(delta) {
  const stages = trace().stages;
  const index = Math.min(stages.length - 1, Math.max(0, stageIndex() + delta));
  goTo(state.walkthrough, stages[index].id);
}

function applyHash() {
  const [walkthrough, stageId] = decodeURIComponent(location.hash.slice(1)).split('/');
  state.walkthrough = WALKTHROUGHS.includes(walkthrough) ? walkthrough : 'basics';
  if (!state.traces[state.walkthrough]) compute(state.walkthrough);
  const stages = trace().stages;
  state.stageId = stages.some((stage) => stage.id === stageId) ? stageId : stages[0].id;
  render();
}

function writeSettingsToUrl() {
  const params = new URLSearchParams(location.search);
  params.set('lang', state.lang);
  params.set('theme', state.theme);
  state.palette === 'notebook' ? params.delete('palette') : params.set('palette', state.palette);
  state.exercise ? params.set('exercise', '1') : params.delete('exercise');
  history.replaceState(null, '', `?${params}${location.hash}`);
}

// ---- rendering -------------------------------------------------------------------------------

function render() {
  document.documentElement.lang = state.lang === 'zh' ? 'zh-Hans' : 'en';
  document.documentElement.dataset.theme = state.theme;
  document.title = `${t(`${state.walkthrough}.title`)} · ${t('appTitle')}`;
  renderChrome();
  renderStageList();
  renderStages();
  renderForm();
}

function renderChrome() {
  $('#app-title').textContent = t('appTitle');
  $('#tagline').textContent = t('tagline');
  $('#walkthrough-nav').setAttribute('aria-label', t('walkthroughs'));
  const tabs = WALKTHROUGHS.map((name) => {
    const link = el('a', 'walkthrough-tab', t(`${name}.title`));
    link.href = `#${name}`;
    if (name === state.walkthrough) link.setAttribute('aria-current', 'page');
    return el('li').appendChild(link).parentElement;
  });
  $('#walkthrough-tabs').replaceChildren(...tabs);
  for (const [id, key] of [
    ['#language-label', 'language'],
    ['#theme-label', 'theme'],
    ['#palette-label', 'palette'],
    ['#exercise-label', 'exercise'],
    ['#stages-heading', 'stages'],
    ['#inputs-heading', 'inputs'],
    ['#inputs-hint', 'inputsHint'],
    ['#reset', 'reset'],
    ['#keyboard-hint', 'keyboardHint'],
  ]) {
    $(id).textContent = t(key);
  }
  $('#language').replaceChildren(
    ...LANGUAGES.map((lang) => option(lang, translator(lang)('languageName'), state.lang)),
  );
  $('#theme').replaceChildren(
    option('light', t('themeLight'), state.theme),
    option('dark', t('themeDark'), state.theme),
  );
  $('#palette').replaceChildren(
    option('notebook', t('paletteNotebook'), state.palette),
    option('colourblind', t('paletteColourblind'), state.palette),
  );
  $('#exercise').checked = state.exercise;
  $('#exercise-field').hidden = state.walkthrough !== 'basics';
  $('#exercise').title = t('exerciseHint');
  $('#previous').textContent = `← ${t('previous')}`;
  $('#next').textContent = `${t('next')} →`;
  const index = stageIndex();
  const total = trace().stages.length;
  $('#previous').disabled = index === 0;
  $('#next').disabled = index === total - 1;
  const progress = $('#progress');
  progress.setAttribute('aria-label', t('progress'));
  progress.setAttribute('aria-valuemax', String(total));
  progress.setAttribute('aria-valuenow', String(index + 1));
  progress.setAttribute('aria-valuetext', t('stageOf', { n: index + 1, total }));
  $('#progress-bar').style.width = `${((index + 1) / total) * 100}%`;
  $('#progress-text').textContent = t('stageOf', { n: index + 1, total });
}

function option(value, label, selected) {
  const element = el('option', '', label);
  element.value = value;
  element.selected = value === selected;
  return element;
}

function renderStageList() {
  const items = trace().stages.map((stage, i) => {
    const link = el('a', 'stage-link', `${i + 1}. ${stageTitle(stage)}`);
    link.href = `#${state.walkthrough}/${stage.id}`;
    if (stage.id === state.stageId) link.setAttribute('aria-current', 'step');
    return el('li').appendChild(link).parentElement;
  });
  $('#stage-list').replaceChildren(...items);
}

function stageTitle(stage) {
  const key = `${state.walkthrough}.stages.${stage.id.startsWith('step-') ? 'step' : stage.id}.title`;
  const title = t(key, {
    t: stage.id.replace('step-', ''),
    word: stage.id.startsWith('step-') ? stage.panels[0].colLabels[0] : followedWord(),
  });
  return title === key ? stage.title : title;
}

function followedWord() {
  return `word_${(state.inputs['self-attention'].word ?? 0) + 1}`;
}

function renderStages() {
  const container = $('#stages');
  const stages = trace().stages;
  const sections = stages.map((stage, i) => {
    const section = el('section', 'stage');
    section.dataset.stage = `${state.walkthrough}/${stage.id}`;
    section.hidden = stage.id !== state.stageId;
    if (!section.hidden) {
      section.setAttribute('aria-current', 'step');
      renderStage(section, stage, {
        walkthrough: state.walkthrough,
        index: i,
        total: stages.length,
        t,
        palette: state.palette,
        width: container.clientWidth || 800,
        params: { word: followedWord() },
        question: questionFor(stage),
      });
    }
    return section;
  });
  container.replaceChildren(...sections);
  const error = state.formError[state.walkthrough];
  const banner = $('#stale');
  const fieldErrors = [state.parseErrors, state.engineErrors].flatMap((errors) =>
    Object.values(errors[state.walkthrough] ?? {}),
  );
  banner.hidden = !error && !fieldErrors.some(Boolean);
  banner.textContent = [error, t('staleInputs')].filter(Boolean).join(' ');
}

// Exercise edition (seed 001): the learner answers before the values are shown.
function questionFor(stage) {
  if (!state.exercise || state.walkthrough !== 'basics') return null;
  const key = `basics/${stage.id}`;
  const answered = state.answers[key];
  const scores = trace().stages.find((s) => s.id === 'scores').panels[0];
  if (stage.id === 'scores') {
    const best = scores.data.indexOf(Math.max(...scores.data));
    const answer = scores.colLabels[best];
    return question(
      'most-attention',
      key,
      answered,
      scores.colLabels.map((label) => [label, label]),
      answered === answer,
      { answer },
    );
  }
  if (stage.id === 'softmax' && isDefault('basics')) {
    const [first, last] = [stage.panels[0].data[0], stage.panels[0].data.at(-1)];
    const equal = Math.abs(first - last) < 0.1 ? 'yes' : 'no';
    return question(
      'softmax-share',
      key,
      answered,
      [
        ['yes', t('yes')],
        ['no', t('no')],
      ],
      answered === equal,
      {},
    );
  }
  return null;
}

function question(id, key, answered, choices, right, params) {
  return {
    prompt: t(`questions.${id}.prompt`, params),
    choices,
    answered: answered !== undefined,
    feedback: t(`questions.${id}.${right ? 'right' : 'wrong'}`, params),
    onAnswer: (value) => {
      state.answers[key] = value;
      renderStages();
      document.querySelector('[aria-current="step"] .question-feedback')?.focus();
    },
  };
}

function isDefault(walkthrough) {
  return JSON.stringify(state.inputs[walkthrough]) === JSON.stringify(DEFAULT_INPUTS[walkthrough]);
}

// ---- the inputs form ---------------------------------------------------------------------------

function renderForm() {
  const form = $('#inputs');
  const walkthrough = state.walkthrough;
  if (form.dataset.for === `${walkthrough}/${state.lang}`) return updateFieldErrors();
  form.dataset.for = `${walkthrough}/${state.lang}`;
  const fields = FIELDS[walkthrough].map(([key, spec, labelKey, hintKey]) => {
    const id = `input-${key}`;
    const wrapper = el('div', 'field');
    const label = el('label', '', t(labelKey));
    label.htmlFor = id;
    const control = spec.kind === 'textarea' ? el('textarea') : spec.kind === 'select' ? el('select') : el('input');
    control.id = id;
    control.name = key;
    if (spec.kind === 'number') Object.assign(control, { type: 'number', min: spec.min, max: spec.max, step: 1 });
    else if (spec.kind === 'text') control.type = 'text';
    if (spec.kind === 'textarea') control.rows = Math.min(8, state.inputs[walkthrough][key].length + 1);
    if (spec.kind === 'select') {
      control.replaceChildren(
        ...spec
          .options(state.inputs[walkthrough])
          .map(([value, labelKeyOrText]) =>
            option(String(value), t(labelKeyOrText), String(state.inputs[walkthrough][key])),
          ),
      );
    } else {
      control.value = state.fieldTexts[walkthrough]?.[key] ?? spec.format(state.inputs[walkthrough][key]);
    }
    control.spellcheck = false;
    const describedBy = [];
    if (hintKey) {
      const hint = el('p', 'field-hint', t(hintKey));
      hint.id = `${id}-hint`;
      describedBy.push(hint.id);
      wrapper.append(label, control, hint);
    } else {
      wrapper.append(label, control);
    }
    const error = el('p', 'field-error');
    error.id = `${id}-error`;
    error.setAttribute('aria-live', 'polite');
    describedBy.push(error.id);
    control.setAttribute('aria-describedby', describedBy.join(' '));
    wrapper.append(error);
    control.addEventListener(spec.kind === 'select' ? 'change' : 'input', () =>
      onFieldInput(walkthrough, key, spec, control),
    );
    return wrapper;
  });
  $('#fields').replaceChildren(...fields);
  updateFieldErrors();
}

function onFieldInput(walkthrough, key, spec, control) {
  (state.fieldTexts[walkthrough] ??= {})[key] = control.value;
  const parseErrors = (state.parseErrors[walkthrough] ??= {});
  try {
    state.inputs[walkthrough][key] = spec.parse(control.value);
    parseErrors[key] = null;
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    parseErrors[key] = t(`errors.${error.key}`, error.params);
    return render();
  }
  if (key === 'embeddings')
    state.inputs[walkthrough].word = Math.min(
      state.inputs[walkthrough].word,
      state.inputs[walkthrough].embeddings.length - 1,
    );
  clearAnswers();
  compute(walkthrough);
  const stages = trace().stages;
  if (!stages.some((stage) => stage.id === state.stageId)) state.stageId = stages.at(-1).id;
  if (key === 'embeddings') delete $('#inputs').dataset.for; // the word list changes
  render();
}

function updateFieldErrors() {
  for (const [key] of FIELDS[state.walkthrough]) {
    const message = state.parseErrors[state.walkthrough]?.[key] || state.engineErrors[state.walkthrough]?.[key] || '';
    const control = document.getElementById(`input-${key}`);
    control.setAttribute('aria-invalid', String(Boolean(message)));
    document.getElementById(`input-${key}-error`).textContent = message;
  }
}

function clearAnswers() {
  for (const key of Object.keys(state.answers)) if (key.startsWith(`${state.walkthrough}/`)) delete state.answers[key];
}

function reset() {
  const walkthrough = state.walkthrough;
  state.inputs[walkthrough] = structuredClone(DEFAULT_INPUTS[walkthrough]);
  state.fieldTexts[walkthrough] = {};
  state.parseErrors[walkthrough] = {};
  clearAnswers();
  compute(walkthrough);
  delete $('#inputs').dataset.for;
  applyHash();
}

// ---- wiring ------------------------------------------------------------------------------------

function wire() {
  addEventListener('hashchange', () => {
    applyHash();
    announceStage();
  });
  document.addEventListener('click', (event) => {
    const link = event.target.closest?.('a.stage-link, a.walkthrough-tab');
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    const [walkthrough, stageId] = link.getAttribute('href').slice(1).split('/');
    goTo(walkthrough, stageId);
  });
  $('#previous').addEventListener('click', () => step(-1));
  $('#next').addEventListener('click', () => step(1));
  $('#reset').addEventListener('click', reset);
  $('#inputs').addEventListener('submit', (event) => event.preventDefault());
  const setting = (id, apply) =>
    $(id).addEventListener('change', (event) => {
      apply(event.target);
      t = translator(state.lang);
      writeSettingsToUrl();
      render();
    });
  setting('#language', (target) => (state.lang = target.value));
  setting('#theme', (target) => (state.theme = target.value));
  setting('#palette', (target) => (state.palette = target.value));
  setting('#exercise', (target) => (state.exercise = target.checked));
  addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest?.('input, textarea, select, .hm-grid'))
      return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -1, PageDown: 1 };
    if (event.key in moves) {
      event.preventDefault();
      step(moves[event.key]);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      step(event.key === 'Home' ? -Infinity : Infinity);
    }
  });
  let resizeTimer;
  addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(renderStages, 150);
  });
}

async function start() {
  const status = $('#status');
  status.textContent = t('loading');
  try {
    attn = await loadAttention();
  } catch (error) {
    status.textContent = t('loadFailed', { error: error.message });
    status.classList.add('error');
    return;
  }
  status.hidden = true;
  wire();
  writeSettingsToUrl();
  applyHash();
  performance.mark('first-heatmap'); // read by the page benchmark
  document.body.dataset.ready = 'true';
}

start();
