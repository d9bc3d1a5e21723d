// The step-through page. Its whole state lives in the URL (walkthrough and stage in the hash;
// language, theme, palette, exercise mode, embed mode and edited inputs in the query), so a link
// or an iframe reproduces exactly what is on screen. Built on the engine's public API.
import { loadAttention, WALKTHROUGHS } from 'attention-stepper';
import { el, setChildren, setText } from '../components/dom.js';
import { LANGUAGES, translator } from '../components/i18n.js';
import { renderInputForm } from '../components/input-form.js';
import { PALETTES } from '../components/palettes.js';
import { WalkthroughSession } from '../components/session.js';
import { exerciseQuestion, renderStage, stageTitle } from '../components/stage-view.js';

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
  embedded: query.get('embed') === '1',
  sessions: {},
  answers: {}, // "walkthrough/stage" -> the learner's answer in exercise mode
};
let t = translator(state.lang);
let showFieldErrors = () => {};
const $ = (selector) => document.querySelector(selector);

function pick(value, allowed, fallback) {
  return allowed.includes(value) ? value : fallback;
}

const session = () => state.sessions[state.walkthrough];
const trace = () => session().trace;
const stageIndex = () =>
  Math.max(
    0,
    trace().stages.findIndex((stage) => stage.id === state.stageId),
  );

function sessionsFromUrl(attn) {
  let fromUrl = {};
  try {
    fromUrl = JSON.parse(query.get('inputs') ?? '{}') ?? {};
  } catch {
    // a damaged link: keep the notebook's inputs
  }
  for (const walkthrough of WALKTHROUGHS) {
    state.sessions[walkthrough] = new WalkthroughSession(attn, walkthrough);
    state.sessions[walkthrough].applyGiven(fromUrl[walkthrough]);
  }
}

// ---- navigation ------------------------------------------------------------------------------

// Navigation renders at once and pushes a history entry; hashchange covers typed URLs and Back.
function goTo(walkthrough, stageId) {
  const hash = `#${stageId ? `${walkthrough}/${stageId}` : walkthrough}`;
  if (hash !== location.hash) history.pushState(null, '', `${location.search}${hash}`);
  applyHash();
  $('#announcer').textContent =
    `${t('stageOf', { n: stageIndex() + 1, total: trace().stages.length })}: ${currentTitle()}`;
}

function step(delta) {
  const stages = trace().stages;
  goTo(state.walkthrough, stages[Math.min(stages.length - 1, Math.max(0, stageIndex() + delta))].id);
}

function applyHash() {
  const [walkthrough, stageId] = decodeURIComponent(location.hash.slice(1)).split('/');
  state.walkthrough = WALKTHROUGHS.includes(walkthrough) ? walkthrough : 'basics';
  const stages = trace().stages;
  state.stageId = stages.some((stage) => stage.id === stageId) ? stageId : stages[0].id;
  render();
}

function writeUrl() {
  const params = new URLSearchParams();
  params.set('lang', state.lang);
  params.set('theme', state.theme);
  if (state.palette !== 'notebook') params.set('palette', state.palette);
  if (state.exercise) params.set('exercise', '1');
  if (state.embedded) params.set('embed', '1');
  const changed = Object.fromEntries(
    WALKTHROUGHS.map((name) => [name, state.sessions[name].changedInputs()]).filter(
      ([, inputs]) => Object.keys(inputs).length,
    ),
  );
  if (Object.keys(changed).length) params.set('inputs', JSON.stringify(changed));
  history.replaceState(null, '', `?${params}${location.hash}`);
}

// ---- rendering -------------------------------------------------------------------------------

const params = () => ({ word: `word_${state.sessions['self-attention'].inputs.word + 1}` });
const currentTitle = () => stageTitle(trace().stages[stageIndex()], state.walkthrough, t, params());

function render() {
  // Setting lang, even to the value it has, restyles every element of the page (:lang() may
  // match anywhere): only a language change may pay for that.
  const lang = state.lang === 'zh' ? 'zh-Hans' : 'en';
  if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
  document.documentElement.dataset.theme = state.theme;
  document.body.classList.toggle('embedded', state.embedded);
  document.title = `${t(`${state.walkthrough}.title`)} · ${t('appTitle')}`;
  renderChrome();
  renderStageList();
  renderStages();
  renderForm();
}

// Everything around the stage. It is drawn on every edit too, so it writes only what changed: a
// replaced text or element is restyled and laid out again.
function renderChrome() {
  setText($('#app-title'), t('appTitle'));
  setText($('#tagline'), t('tagline'));
  $('#walkthrough-nav').setAttribute('aria-label', t('walkthroughs'));
  setChildren(
    $('#walkthrough-tabs'),
    WALKTHROUGHS.map((name) => {
      const link = el('a', 'walkthrough-tab', t(`${name}.title`));
      link.href = `#${name}`;
      if (name === state.walkthrough) link.setAttribute('aria-current', 'page');
      return el('li').appendChild(link).parentElement;
    }),
  );
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
    ['#copy-link', 'copyLink'],
    ['#copy-embed', 'copyEmbed'],
  ]) {
    setText($(id), t(key));
  }
  setOptions(
    $('#language'),
    LANGUAGES.map((lang) => [lang, translator(lang)('languageName')]),
    state.lang,
  );
  setOptions(
    $('#theme'),
    [
      ['light', t('themeLight')],
      ['dark', t('themeDark')],
    ],
    state.theme,
  );
  setOptions(
    $('#palette'),
    [
      ['notebook', t('paletteNotebook')],
      ['colourblind', t('paletteColourblind')],
    ],
    state.palette,
  );
  $('#exercise').checked = state.exercise;
  $('#exercise-field').hidden = state.walkthrough !== 'basics';
  $('#exercise').title = t('exerciseHint');
  setText($('#previous'), `← ${t('previous')}`);
  setText($('#next'), `${t('next')} →`);
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
  setText($('#progress-text'), t('stageOf', { n: index + 1, total }));
}

// The options [value, label] of a menu, `selected` chosen (isEqualNode does not compare selection).
function setOptions(select, options, selected) {
  setChildren(
    select,
    options.map(([value, label]) => {
      const element = el('option', '', label);
      element.value = value;
      return element;
    }),
  );
  select.value = selected;
}

function renderStageList() {
  const items = trace().stages.map((stage, i) => {
    const link = el('a', 'stage-link', `${i + 1}. ${stageTitle(stage, state.walkthrough, t, params())}`);
    link.href = `#${state.walkthrough}/${stage.id}`;
    if (stage.id === state.stageId) link.setAttribute('aria-current', 'step');
    return el('li').appendChild(link).parentElement;
  });
  setChildren($('#stage-list'), items);
}

// The width of #stages as of the last layout. Reading clientWidth while rendering would force a
// layout of the whole page mid-edit (the outgoing stage included), which costs about as much as
// the redraw itself; a ResizeObserver reads it when layout is already done.
let stagesWidth = 0;

// One section per stage; only the one on screen has content. While the walkthrough keeps its list
// of stages (an input edit, a new language) the sections stay and the stage on screen is drawn
// again into its own, which keeps whatever did not change.
function renderStages() {
  const container = $('#stages');
  const stages = trace().stages;
  const keys = stages.map((stage) => `${state.walkthrough}/${stage.id}`);
  const present = [...container.children];
  const kept = present.length === keys.length && present.every((section, i) => section.dataset.stage === keys[i]);
  const sections = kept ? present : keys.map(emptySection);
  stages.forEach((stage, i) => {
    const section = sections[i];
    section.hidden = stage.id !== state.stageId;
    if (section.hidden) return clearSection(section);
    section.setAttribute('aria-current', 'step');
    renderStage(section, stage, {
      walkthrough: state.walkthrough,
      index: i,
      total: stages.length,
      t,
      palette: state.palette,
      width: stagesWidth || container.clientWidth || 800,
      params: params(),
      question: state.exercise
        ? exerciseQuestion(stage, trace(), session().isDefault(), state.answers, t, renderStages)
        : null,
    });
  });
  if (!kept) container.replaceChildren(...sections);
  const banner = $('#stale');
  banner.hidden = !session().hasErrors();
  setText(banner, [session().formError, t('staleInputs')].filter(Boolean).join(' '));
}

function emptySection(key) {
  const section = el('section', 'stage');
  section.dataset.stage = key;
  return section;
}

function clearSection(section) {
  section.removeAttribute('aria-current');
  section.removeAttribute('aria-labelledby');
  section.replaceChildren();
}

let formFor = null;
function renderForm() {
  const key = `${state.walkthrough}/${state.lang}`;
  if (formFor !== key) {
    formFor = key;
    showFieldErrors = renderInputForm($('#fields'), session(), t, onFieldChange);
  }
  showFieldErrors();
}

function onFieldChange(key) {
  clearAnswers();
  const stages = trace().stages;
  if (!stages.some((stage) => stage.id === state.stageId)) state.stageId = stages.at(-1).id;
  if (key === 'embeddings') formFor = null; // the list of words to follow changes
  writeUrl();
  render();
}

function clearAnswers() {
  for (const key of Object.keys(state.answers)) if (key.startsWith(`${state.walkthrough}/`)) delete state.answers[key];
}

function reset() {
  session().reset();
  clearAnswers();
  formFor = null;
  writeUrl();
  applyHash();
}

// ---- sharing and embedding ---------------------------------------------------------------------

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    $('#copy-status').textContent = t('copied');
  } catch {
    $('#copy-status').textContent = t('copyFailed');
  }
  button.focus();
}

function embedCode() {
  const url = new URL(location.href);
  url.searchParams.set('embed', '1');
  const title = `attention-stepper: ${t(`${state.walkthrough}.title`)}`.replaceAll('"', '&quot;');
  return `<iframe src="${url.href.replaceAll('"', '%22')}" title="${title}" style="width:100%;height:640px;border:0" loading="lazy"></iframe>
<script>
  addEventListener('message', (event) => {
    if (event.data?.type !== 'attention-stepper:resize') return;
    for (const frame of document.querySelectorAll('iframe'))
      if (frame.contentWindow === event.source) frame.style.height = event.data.height + 'px';
  });
</script>`;
}

// Inside an iframe the page tells its parent how tall it is, so the frame can fit it.
function reportHeight() {
  if (window.parent === window) return;
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) window.parent.postMessage({ type: 'attention-stepper:resize', height }, '*');
    last = height;
  }).observe(document.documentElement);
}

// ---- wiring ------------------------------------------------------------------------------------

function wire() {
  addEventListener('hashchange', applyHash);
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
  $('#copy-link').addEventListener('click', (event) => copy(location.href, event.currentTarget));
  $('#copy-embed').addEventListener('click', (event) => copy(embedCode(), event.currentTarget));
  const setting = (id, apply) =>
    $(id).addEventListener('change', (event) => {
      apply(event.target);
      t = translator(state.lang);
      writeUrl();
      render();
    });
  setting('#language', (target) => (state.lang = target.value));
  setting('#theme', (target) => (state.theme = target.value));
  setting('#palette', (target) => (state.palette = target.value));
  setting('#exercise', (target) => (state.exercise = target.checked));
  addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest?.('input, textarea, select, .hm-grid'))
      return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -1, PageDown: 1, Home: -Infinity, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      step(moves[event.key]);
    }
  });
  new ResizeObserver(() => (stagesWidth = $('#stages').clientWidth)).observe($('#stages'));
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
    sessionsFromUrl(await loadAttention());
  } catch (error) {
    status.textContent = t('loadFailed', { error: error.message });
    status.classList.add('error');
    return;
  }
  status.hidden = true;
  wire();
  writeUrl();
  applyHash();
  performance.mark('first-heatmap'); // read by the page benchmark
  document.body.dataset.ready = 'true';
  reportHeight();
}

start();
