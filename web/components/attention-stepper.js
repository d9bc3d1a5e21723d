// <attention-stepper>: a walkthrough in a Shadow DOM, for tutorial pages.
//   <attention-stepper walkthrough="basics" stage="softmax" lang="en" theme="light" editable compact>
//     <script type="application/json">{ "decoderState": [5, 1, 20] }</script>
//   </attention-stepper>
// Methods next(), prev(), goTo(stageId); a `stagechange` event. All steppers on a page share one
// WebAssembly instance of the engine.
import { loadAttention, WALKTHROUGHS } from 'attention-stepper';
import { el } from './dom.js';
import { LANGUAGES, translator } from './i18n.js';
import { renderInputForm } from './input-form.js';
import { FIELDS } from './inputs.js';
import { WalkthroughSession } from './session.js';
import { exerciseQuestion, renderStage, stageTitle } from './stage-view.js';
import { linkStyles } from './styles-link.js';

export class AttentionStepperElement extends HTMLElement {
  static observedAttributes = [
    'walkthrough',
    'stage',
    'lang',
    'theme',
    'palette',
    'editable',
    'compact',
    'exercise',
    'inputs',
  ];

  #session = null;
  #stageId = null;
  #answers = {}; // exercise mode: "walkthrough/stage" -> answer
  #inputsProblem = null; // why the given inputs could not be read, if they could not
  #form = null; // { lang, element, showErrors }: kept across redraws
  #section = null; // the stage on screen: drawn again in place while it stays the same stage
  #root;
  #ready;
  #drawn;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.#root = el('div', 'as-stepper');
    this.#root.hidden = true; // until the stylesheet is in
    this.#root.setAttribute('part', 'stepper');
    this.shadowRoot.append(this.#root);
    const drawn = new Promise((resolve) => (this.#drawn = resolve));
    const styled = linkStyles(this.shadowRoot).then(() => (this.#root.hidden = false));
    this.#ready = Promise.all([drawn, styled]).then(() => this);
    this.addEventListener('keydown', (event) => this.#onKey(event));
  }

  connectedCallback() {
    if (this.#session) return;
    this.#root.replaceChildren(el('p', 'as-status', this.#t('loading')));
    loadAttention().then(
      (attn) => this.#start(attn),
      (error) => this.#fail(this.#t('loadFailed', { error: error.message })),
    );
  }

  attributeChangedCallback(name, previous, value) {
    if (!this.#session || previous === value) return;
    if (name === 'stage') return value !== this.#stageId && this.goTo(value);
    if (name === 'walkthrough' || name === 'inputs') return this.#start(this.#session.attn);
    this.#render();
  }

  /** The stage ids of the walkthrough, in order. */
  get stages() {
    return this.#session?.trace.stages.map((stage) => stage.id) ?? [];
  }

  /** The id of the stage on screen. */
  get stage() {
    return this.#stageId;
  }

  /** The engine's trace the stepper draws (see the engine's Trace type). */
  get trace() {
    return this.#session?.trace ?? null;
  }

  /** Resolves once the stepper has drawn its first stage. */
  get ready() {
    return this.#ready;
  }

  next() {
    this.#move(1);
  }

  prev() {
    this.#move(-1);
  }

  goTo(stageId) {
    const index = this.stages.indexOf(stageId);
    if (index < 0)
      throw new RangeError(`goTo: no stage "${stageId}" in ${this.#walkthrough()}; stages: ${this.stages.join(', ')}`);
    this.#show(index);
  }

  #walkthrough() {
    const name = this.getAttribute('walkthrough') ?? 'basics';
    return WALKTHROUGHS.includes(name) ? name : 'basics';
  }

  #t(key, params) {
    const lang = this.getAttribute('lang') ?? document.documentElement.lang?.slice(0, 2);
    return translator(LANGUAGES.includes(lang) ? lang : 'en')(key, params);
  }

  #start(attn) {
    const walkthrough = this.#walkthrough();
    let problem = null;
    try {
      this.#session = new WalkthroughSession(attn, walkthrough);
      this.#session.applyGiven(this.#givenInputs());
    } catch (error) {
      problem = error.message;
      this.#session = new WalkthroughSession(attn, walkthrough);
    }
    this.#inputsProblem = problem;
    const stages = this.stages;
    const wanted = this.getAttribute('stage');
    this.#stageId = stages.includes(wanted) ? wanted : stages[0];
    this.#form = null;
    this.#render();
    this.#drawn();
  }

  // Inputs from the `inputs` attribute or a <script type="application/json"> child: JSON only.
  #givenInputs() {
    const text = this.getAttribute('inputs') ?? this.querySelector('script[type="application/json"]')?.textContent;
    if (!text?.trim()) return {};
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`inputs are not valid JSON (${error.message}); showing the notebook's inputs`);
    }
  }

  #move(delta) {
    const index = this.stages.indexOf(this.#stageId);
    this.#show(Math.min(this.stages.length - 1, Math.max(0, index + delta)));
  }

  #show(index) {
    const stageId = this.stages[index];
    if (stageId === this.#stageId) return;
    this.#stageId = stageId;
    this.setAttribute('stage', stageId);
    this.#render();
    const detail = { walkthrough: this.#walkthrough(), stage: stageId, index, total: this.stages.length };
    this.dispatchEvent(new CustomEvent('stagechange', { detail, bubbles: true, composed: true }));
  }

  #onKey(event) {
    const target = event.composedPath()[0];
    if (event.altKey || event.ctrlKey || event.metaKey || target.closest?.('input, textarea, select, .hm-grid')) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this.#move(moves[event.key]);
  }

  #fail(message) {
    const status = el('p', 'as-status as-error', message);
    status.setAttribute('role', 'alert');
    this.#root.replaceChildren(status);
  }

  #render() {
    const t = (key, params) => this.#t(key, params);
    const trace = this.#session.trace;
    const index = this.stages.indexOf(this.#stageId);
    const stage = trace.stages[index];
    const walkthrough = trace.walkthrough;
    const params = { word: `word_${(this.#session.inputs.word ?? 0) + 1}` };
    this.#root.classList.toggle('as-compact', this.hasAttribute('compact'));

    const header = el('div', 'as-header');
    header.append(
      el('span', 'as-walkthrough', t(`${walkthrough}.title`)),
      el('span', 'as-count', t('stageOf', { n: index + 1, total: trace.stages.length })),
    );

    const key = `${walkthrough}/${stage.id}`;
    if (this.#section?.dataset.stage !== key) {
      this.#section = el('section', 'stage');
      this.#section.dataset.stage = key;
      this.#section.setAttribute('aria-current', 'step');
    }
    const section = this.#section;
    renderStage(section, stage, {
      walkthrough,
      index,
      total: trace.stages.length,
      t,
      palette: this.getAttribute('palette') === 'colourblind' ? 'colourblind' : 'notebook',
      width: this.clientWidth || 640,
      params,
      question: this.hasAttribute('exercise')
        ? exerciseQuestion(stage, trace, this.#session.isDefault(), this.#answers, t, () => this.#render())
        : null,
    });

    const nav = el('nav', 'as-nav');
    nav.setAttribute('aria-label', t('progress'));
    const previous = el('button', 'as-previous', `← ${t('previous')}`);
    const next = el('button', 'as-next', `${t('next')} →`);
    previous.type = next.type = 'button';
    previous.disabled = index === 0;
    next.disabled = index === trace.stages.length - 1;
    previous.addEventListener('click', () => this.prev());
    next.addEventListener('click', () => this.next());
    const progress = el('div', 'as-progress');
    progress.setAttribute('role', 'progressbar');
    progress.setAttribute('aria-valuemin', '1');
    progress.setAttribute('aria-valuemax', String(trace.stages.length));
    progress.setAttribute('aria-valuenow', String(index + 1));
    progress.setAttribute(
      'aria-valuetext',
      `${t('stageOf', { n: index + 1, total: trace.stages.length })}: ${stageTitle(stage, walkthrough, t, params)}`,
    );
    const bar = el('div', 'as-progress-bar');
    bar.style.width = `${((index + 1) / trace.stages.length) * 100}%`;
    progress.append(bar);
    nav.append(previous, progress, next);

    const problems = el('p', 'as-error');
    problems.setAttribute('role', 'alert');
    // Without the form on screen, the message itself says which input is wrong and why.
    const fieldProblems = this.hasAttribute('editable')
      ? []
      : FIELDS[walkthrough]
          .map(([key, , labelKey]) => [t(labelKey), this.#session.fieldError(key, t)])
          .filter(([, problem]) => problem)
          .map(([label, problem]) => `${label}: ${problem}.`);
    const message = [
      this.#inputsProblem,
      ...fieldProblems,
      this.#session.formError,
      this.#session.hasErrors() && t('staleInputs'),
    ]
      .filter(Boolean)
      .join(' ');
    problems.textContent = message;
    problems.hidden = !message;

    const children = [header, section, problems];
    if (this.hasAttribute('editable')) children.push(this.#inputsForm(t));
    children.push(nav);
    const focused = this.shadowRoot.activeElement;
    this.#root.replaceChildren(...children);
    // keep keyboard focus on the stepping buttons across redraws
    if (focused?.classList.contains('as-next')) (next.disabled ? previous : next).focus();
    if (focused?.classList.contains('as-previous')) (previous.disabled ? next : previous).focus();
  }

  // The inputs form survives redraws (it keeps the caret and what the user typed).
  #inputsForm(t) {
    const lang = this.getAttribute('lang') ?? '';
    if (this.#form?.lang !== lang) {
      const element = el('form', 'as-inputs');
      element.addEventListener('submit', (event) => event.preventDefault());
      const fields = el('div', 'as-fields');
      element.append(fields);
      const showErrors = renderInputForm(fields, this.#session, t, (key) => {
        if (!this.stages.includes(this.#stageId)) this.#stageId = this.stages.at(-1);
        if (key === 'embeddings') this.#form = null; // the list of words to follow changes
        this.#answers = {};
        this.#render();
      });
      this.#form = { lang, element, showErrors };
    }
    this.#form.showErrors();
    return this.#form.element;
  }
}
