// The step-through page: the stepper controller (components/controller.js) plus URL sync and the
// page's chrome. Its whole state lives in the URL (walkthrough and stage in the hash; language,
// theme, palette, exercise mode, embed mode and edited inputs in the query), so a link or an
// iframe reproduces exactly what is on screen. Built on the engine's public API.
import { loadAttention } from 'attention-stepper';
import { readyFor, StepperController } from '../components/controller.js';
import { el, setChildren, setText } from '../components/dom.js';
import { LANGUAGE_NAMES, LANGUAGES, loadLanguage, translator } from '../components/i18n.js';
import { renderInputForm } from '../components/input-form.js';
import { modelPanelSlot } from '../components/model-panel-slot.js';
import { formulasDrawn, keepStageFocus, renderStage } from '../components/stage-view.js';
import { createNav, updateProblems } from '../components/stepper-nav.js';
import { acceptDrops, createFilePanel, fieldFiles } from '../components/file-panel.js';
import { hasModels, WALKTHROUGHS } from '../walkthroughs/index.js';

const query = new URLSearchParams(location.search);
const embedded = query.get('embed') === '1';
const $ = (selector) => document.querySelector(selector);
let controller;
let nav;
let modelPanel;
let files;

// ---- the URL ---------------------------------------------------------------------------------

function stateFromUrl() {
  let inputs = {};
  try {
    inputs = JSON.parse(query.get('inputs') ?? '{}') ?? {};
  } catch {
    // a damaged link: keep the notebook's inputs
  }
  const [walkthrough, stage] = hashParts();
  return {
    walkthrough,
    stage,
    inputs,
    lang: query.get('lang') ?? (navigator.language?.startsWith('zh') ? 'zh' : 'en'),
    theme: query.get('theme') ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'),
    palette: query.get('palette'),
    exercise: query.get('exercise') === '1',
  };
}

function hashParts(hash = location.hash) {
  return decodeURIComponent(hash.slice(1)).split('/');
}

// Stage moves push a history entry (Back steps back); everything else replaces the entry. While a
// walkthrough is on its way (controller.loading) the URL stays where the reader asked to go.
function writeUrl(push) {
  const { options } = controller;
  if (controller.loading) return;
  const params = new URLSearchParams();
  params.set('lang', options.lang);
  params.set('theme', options.theme);
  if (options.palette !== 'notebook') params.set('palette', options.palette);
  if (options.exercise) params.set('exercise', '1');
  if (embedded) params.set('embed', '1');
  if (query.has('model-src')) params.set('model-src', query.get('model-src'));
  const changed = controller.changedInputs();
  if (Object.keys(changed).length) params.set('inputs', JSON.stringify(changed));
  const url = `?${params}#${controller.walkthrough}/${controller.stageId}`;
  if (url === `${location.search}${location.hash}`) return;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

// ---- rendering -------------------------------------------------------------------------------

function render() {
  const { t, options } = controller;
  // Setting lang, even to the value it has, restyles every element of the page (:lang() may
  // match anywhere): only a language change may pay for that.
  const lang = options.lang === 'zh' ? 'zh-Hans' : 'en';
  if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
  document.documentElement.dataset.theme = options.theme;
  document.body.classList.toggle('embedded', embedded);
  document.title = `${t(`${controller.walkthrough}.title`)} · ${t('appTitle')}`;
  renderChrome();
  modelPanel.update(); // first: whether the stages wait for a trained model
  if (modelPanel.element && !modelPanel.element.isConnected) $('.sidebar').append(modelPanel.element);
  renderStageList();
  renderStages();
  renderForm();
  files.update();
  nav.update();
  renderNextWalkthrough();
  updateProblems($('#stale'), controller);
}

// The last stage leads on: a link to the next walkthrough (none after the last one).
function renderNextWalkthrough() {
  const link = $('#next-walkthrough');
  const following = WALKTHROUGHS[WALKTHROUGHS.indexOf(controller.walkthrough) + 1];
  const { stages, index } = controller;
  link.hidden = !following || stages.length === 0 || index !== stages.length - 1;
  if (link.hidden) return;
  setText(link, `${controller.t('nextWalkthrough', { title: controller.t(`${following}.title`) })} →`);
  link.href = `#${following}`;
}

// Everything around the stage. It is drawn on every edit too, so it writes only what changed: a
// replaced text or element is restyled and laid out again.
function renderChrome() {
  const { t, options } = controller;
  setText($('#app-title'), t('appTitle'));
  setText($('#tagline'), t('tagline'));
  setText($('#summary'), t(`${controller.walkthrough}.summary`));
  $('#walkthrough-nav').setAttribute('aria-label', t('walkthroughs'));
  setLinks(
    $('#walkthrough-tabs'),
    WALKTHROUGHS.map((name) => {
      // the tab's short name on one line; the whole title on hover and in the page's heading
      const link = el('a', 'walkthrough-tab', t(`${name}.tab`));
      link.title = t(`${name}.title`);
      link.href = `#${name}`;
      return el('li').appendChild(link).parentElement;
    }),
    [WALKTHROUGHS.indexOf(controller.walkthrough), 'page'],
  );
  showActiveTab();
  for (const [id, key] of [
    ['#language-label', 'language'],
    ['#theme-label', 'theme'],
    ['#palette-label', 'palette'],
    ['#exercise-label', 'exercise'],
    ['#exercise-reason', 'exerciseNone'],
    ['#settings-label', 'settings'],
    ['#stages-heading', 'stages'],
    ['#inputs-heading', 'inputs'],
    ['#inputs-hint', 'inputsHint'],
    ['#reset', 'reset'],
    ['#keyboard-hint', 'keyboardHint'],
    ['#copy-link', 'copyLink'],
    ['#copy-embed', 'copyEmbed'],
    ['#skip-link', 'skipLink'],
  ]) {
    setText($(id), t(key));
  }
  setOptions(
    $('#language'),
    LANGUAGES.map((language) => [language, LANGUAGE_NAMES[language]]),
    options.lang,
  );
  setOptions(
    $('#theme'),
    [
      ['light', t('themeLight')],
      ['dark', t('themeDark')],
    ],
    options.theme,
  );
  setOptions(
    $('#palette'),
    [
      ['notebook', t('paletteNotebook')],
      ['colourblind', t('paletteColourblind')],
    ],
    options.palette,
  );
  // The setting keeps its place on every tab (the row would shift otherwise): a walkthrough without
  // questions shows it disabled, and says why.
  $('#exercise').checked = options.exercise;
  $('#exercise').disabled = !controller.hasQuestions;
  $('#exercise-reason').hidden = controller.hasQuestions;
  $('#exercise-field').title = controller.hasQuestions ? t('exerciseHint') : t('exerciseNone');
}

let tabShown = null; // the walkthrough whose tab was last scrolled into view

// On a narrow screen the tabs scroll in their own row: the active one is brought to its middle
// when the walkthrough changes. Sideways only: scrollIntoView would scroll the page as well.
function showActiveTab() {
  if (tabShown === controller.walkthrough) return;
  tabShown = controller.walkthrough;
  const row = $('#walkthrough-nav');
  const tab = row.querySelector('[aria-current]').getBoundingClientRect();
  const box = row.getBoundingClientRect();
  row.scrollLeft += tab.left + tab.width / 2 - (box.left + box.width / 2);
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
  const items = controller.stages.map((stage, i) => {
    const link = el('a', 'stage-link', `${i + 1}. ${controller.stageTitle(stage)}`);
    link.href = `#${controller.walkthrough}/${stage.id}`;
    return el('li').appendChild(link).parentElement;
  });
  setLinks($('#stage-list'), items, [controller.index, 'step']);
}

// Makes `items` (each holding a link) the items of `list`, the `index`-th link marked
// aria-current=`value`. The mark is set in place, not compared: a link replaced because it gained
// or lost it would drop the keyboard focus on it to <body>.
function setLinks(list, items, [index, value]) {
  list.querySelector('[aria-current]')?.removeAttribute('aria-current');
  setChildren(list, items);
  list.querySelectorAll('a')[index]?.setAttribute('aria-current', value);
}

// The width of #stages as of the last layout. Reading clientWidth while rendering would force a
// layout of the whole page mid-edit (the outgoing stage included), which costs about as much as
// the redraw itself; a ResizeObserver reads it when layout is already done.
let stagesWidth = 0;
let stagesFont = ''; // the stages' font family, which sizes the heatmaps' cells (read once)

// One section per stage; only the one on screen has content. While the walkthrough keeps its list
// of stages (an input edit, a new language) the sections stay and the stage on screen is drawn
// again into its own, which keeps whatever did not change.
// The stages, under the model panel's run view (what is training, where the reader looks); while
// the model on screen is not trained yet, no stage shows it as the lesson.
function renderStages() {
  const container = $('#stages');
  stagesFont ||= getComputedStyle(container).fontFamily;
  const restoreFocus = keepStageFocus(container);
  const keys = controller.stages.map((stage) => `${controller.walkthrough}/${stage.id}`);
  const present = [...container.children].filter((child) => child.dataset.stage);
  const kept = present.length === keys.length && present.every((section, i) => section.dataset.stage === keys[i]);
  const sections = kept ? present : keys.map(emptySection);
  const waiting = modelPanel.waiting();
  sections.forEach((section, i) => {
    section.hidden = waiting || i !== controller.index;
    if (section.hidden) return clearSection(section);
    section.setAttribute('aria-current', 'step');
    renderStage(section, controller, stagesWidth || container.clientWidth || 800, stagesFont);
  });
  if (!kept) container.replaceChildren(...(modelPanel.runView ? [modelPanel.runView] : []), ...sections);
  restoreFocus(sections[controller.index]);
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

let form = null; // { key, refresh }: the form stays (caret, typed text) while walkthrough and language do
function renderForm() {
  const key = `${controller.walkthrough}/${controller.options.lang}`;
  if (form?.key !== key) {
    const refresh = renderInputForm(
      $('#fields'),
      controller.session(),
      controller.t,
      (name, text) => controller.edit(name, text),
      (name, wrapper) => fieldFiles(controller, name, wrapper, controller.t('files.pickField')),
    );
    form = { key, refresh };
  }
  form.refresh();
}

// ---- sharing and embedding ---------------------------------------------------------------------

async function copy(text, button) {
  const { t } = controller;
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
  const title = `attention-stepper: ${controller.t(`${controller.walkthrough}.title`)}`.replaceAll('"', '&quot;');
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

// An edit writes the URL once typing pauses: history.replaceState costs about a millisecond, as
// much as a sixth of the redraw. A stage move writes it at once, as a new history entry; anything
// that reads the URL (copying a link) writes what is pending first.
let urlTimer;
function flushUrl() {
  clearTimeout(urlTimer);
  writeUrl(false);
}

function onChange({ detail: { reason } }) {
  render();
  clearTimeout(urlTimer);
  if (reason === 'loading') {
    // the models' code or the texts are on their way for the tab asked for (or did not come)
    const { loading, loadError, t } = controller;
    $('#announcer').textContent = loading
      ? t('loadingWalkthrough', { title: t(`${loading}.title`) })
      : t('loadFailed', { error: loadError });
    document.body.toggleAttribute('aria-busy', Boolean(loading));
  } else if (reason === 'stage' || reason === 'walkthrough') {
    $('#announcer').textContent = controller.stageLabel();
    writeUrl(true);
  } else if (reason === 'inputs') urlTimer = setTimeout(flushUrl, 150);
  else writeUrl(false);
}

function wire() {
  controller.addEventListener('change', onChange);
  // typed URLs and Back/Forward
  // the hash navigated to, which a pending writeUrl may have replaced before the event came
  // the skip link moves focus to the stage; its #stages is no walkthrough for the router to read
  $('#skip-link').addEventListener('click', (event) => {
    event.preventDefault();
    $('#stages').focus();
  });
  addEventListener('hashchange', ({ newURL }) => controller.setWalkthrough(...hashParts(new URL(newURL).hash)));
  document.addEventListener('click', (event) => {
    const link = event.target.closest?.('a.stage-link, a.walkthrough-tab');
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    controller.setWalkthrough(...link.getAttribute('href').slice(1).split('/'));
  });
  $('#reset').addEventListener('click', () => {
    form = null;
    controller.reset();
  });
  $('#inputs').addEventListener('submit', (event) => event.preventDefault());
  $('#copy-link').addEventListener('click', (event) => {
    flushUrl();
    copy(location.href, event.currentTarget);
  });
  $('#copy-embed').addEventListener('click', (event) => {
    flushUrl();
    copy(embedCode(), event.currentTarget);
  });
  const setting = (id, option, value) =>
    $(id).addEventListener('change', (event) => controller.setOptions({ [option]: value(event.target) }));
  $('#language').addEventListener('change', async ({ target }) => {
    await loadLanguage(target.value, [controller.walkthrough]);
    controller.setOptions({ lang: target.value });
  });
  setting('#theme', 'theme', (target) => target.value);
  setting('#palette', 'palette', (target) => target.value);
  setting('#exercise', 'exercise', (target) => target.checked);
  addEventListener('keydown', (event) => controller.handleKey(event));
  // the settings are folded on narrow screens only
  const wide = matchMedia('(min-width: 52.01rem)');
  const unfold = () => wide.matches && ($('#settings-menu').open = true);
  wide.addEventListener('change', unfold);
  unfold();
  new ResizeObserver(() => (stagesWidth = $('#stages').clientWidth)).observe($('#stages'));
  // the footer's height keeps focused elements clear of it (scroll-padding-bottom, styles.css)
  new ResizeObserver(([entry]) =>
    document.documentElement.style.setProperty('--footer-height', `${entry.borderBoxSize[0].blockSize}px`),
  ).observe($('#stepper'));
  let resizeTimer;
  addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(renderStages, 150);
  });
}

async function start() {
  const state = stateFromUrl();
  const status = $('#status');
  try {
    // the page's language (a chunk of its own but English) and the engine, side by side
    const language = loadLanguage(state.lang).then(() => (status.textContent = translator(state.lang)('loading')));
    const [attn] = await Promise.all([loadAttention({ models: hasModels(state.walkthrough) }), language]);
    controller = new StepperController(await readyFor(attn, state.walkthrough, state.lang), state);
  } catch (error) {
    status.textContent = translator(state.lang)('loadFailed', { error: error.message });
    status.classList.add('error');
    return;
  }
  status.hidden = true;
  nav = createNav(controller);
  // a checkpoint's folder the link gives (?model-src=…): only the URL the reader gave, fetched here
  modelPanel = modelPanelSlot(controller, { modelSource: () => query.get('model-src') });
  $('#stepper').prepend(nav.element);
  // a tensor file dropped anywhere but on a field opens in the files panel, under the stage
  files = createFilePanel(controller);
  $('#stages').after(files.element);
  acceptDrops(document.body, (file) => {
    files.openFile(file);
    files.element.scrollIntoView({ block: 'nearest' });
  });
  wire();
  render();
  writeUrl(false);
  performance.mark('first-heatmap'); // read by the page benchmark
  await formulasDrawn(); // KaTeX most often came before the engine
  document.body.dataset.ready = 'true';
  reportHeight();
}

start();
