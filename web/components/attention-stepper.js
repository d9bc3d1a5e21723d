// <attention-stepper>: a walkthrough in a Shadow DOM, for tutorial pages. It is the stepper
// controller (controller.js) plus a Shadow DOM; the page is the same controller plus its chrome.
//   <attention-stepper walkthrough="basics" stage="softmax" lang="en" theme="light" editable compact>
//     <script type="application/json">{ "decoderState": [5, 1, 20] }</script>
//   </attention-stepper>
// Methods next(), prev(), goTo(stageId); a `stagechange` event. All steppers on a page share one
// WebAssembly instance of the engine.
import { loadAttention } from 'attention-stepper';
import { readyFor, StepperController } from './controller.js';
import { el } from './dom.js';
import { LANGUAGES, loadLanguage, translator } from './i18n.js';
import { renderInputForm } from './input-form.js';
import { modelPanelSlot } from './model-panel-slot.js';
import { formulasDrawn, keepStageFocus, renderStage } from './stage-view.js';
import { acceptDrops, createFilePanel, fieldFiles } from './file-panel.js';
import { createNav, updateProblems } from './stepper-nav.js';
import { linkStyles } from './styles-link.js';
import { hasModels, inputAttributes, SPECS } from '../walkthroughs/index.js';

// px of the stepper's width that its stage lacks: .as-stepper's padding (1rem) and border (1px) each side
const FRAME = 34;
const OPTION_ATTRIBUTES = ['lang', 'theme', 'palette', 'exercise'];

export class AttentionStepperElement extends HTMLElement {
  static observedAttributes = [
    'walkthrough',
    'stage',
    'editable',
    'compact',
    'inputs',
    'pairs-src',
    'model-src',
    ...OPTION_ATTRIBUTES,
  ];

  #controller = null;
  #inputsProblem = null; // why the given inputs could not be read, if they could not
  #form = null; // { key, element, refresh }: kept across redraws (caret, typed text)
  #section = null; // the stage on screen: drawn again in place while it stays the same stage
  #parts = null; // header, banner, nav: made once per controller
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
    this.addEventListener('keydown', (event) => this.#controller?.handleKey(event));
    // an editable stepper takes a tensor file dropped on it (a field takes its own drops)
    acceptDrops(this, (file) => this.#parts?.files.openFile(file), { when: () => this.hasAttribute('editable') });
    // the walkthrough's inputs as attributes (task="en-zh"), known once its spec is in: watched
    // here, as observedAttributes are fixed before it loads
    new MutationObserver((records) => {
      const inputs = inputAttributes(this.#controller?.walkthrough);
      const changed = ({ attributeName: name, oldValue }) =>
        // an HTML attribute's name comes lower-cased (topK is topk)
        inputs.some((input) => input.toLowerCase() === name) && oldValue !== this.getAttribute(name);
      if (records.some(changed)) this.#startWith(Promise.resolve(this.#controller.attn));
    }).observe(this, { attributes: true, attributeOldValue: true });
  }

  connectedCallback() {
    if (this.#controller) return;
    const { lang } = this.#options();
    const status = el('p', 'as-status');
    this.#root.replaceChildren(status);
    // the stepper's language (a chunk of its own but English) with its walkthrough's texts, and the
    // engine, side by side
    const walkthrough = this.getAttribute('walkthrough') ?? 'basics';
    const language = loadLanguage(lang, [walkthrough]).then(() => (status.textContent = translator(lang)('loading')));
    this.#startWith(Promise.all([loadAttention({ models: hasModels(walkthrough) }), language]).then(([attn]) => attn));
  }

  attributeChangedCallback(name, previous, value) {
    const controller = this.#controller;
    if (!controller || previous === value) return;
    if (name === 'stage') return value !== controller.stageId && this.goTo(value);
    if (['walkthrough', 'inputs', 'pairs-src', 'model-src'].includes(name))
      return this.#startWith(Promise.resolve(controller.attn));
    if (OPTION_ATTRIBUTES.includes(name)) {
      const options = this.#options();
      return loadLanguage(options.lang, [controller.walkthrough]).then(
        () => this.#controller === controller && controller.setOptions(options),
      );
    }
    this.#render();
  }

  /** The stage ids of the walkthrough, in order. */
  get stages() {
    return this.#controller?.stages.map((stage) => stage.id) ?? [];
  }

  /** The id of the stage on screen. */
  get stage() {
    return this.#controller?.stageId ?? null;
  }

  /** The engine's trace the stepper draws (see the engine's Trace type). */
  get trace() {
    return this.#controller?.trace ?? null;
  }

  /**
   * Resolves once the stepper has drawn its first stage, formula included (of a trained model,
   * where it shows one).
   */
  get ready() {
    return this.#ready;
  }

  next() {
    this.#controller?.next();
  }

  prev() {
    this.#controller?.prev();
  }

  goTo(stageId) {
    this.#controller?.goTo(stageId);
  }

  #options() {
    const lang = this.getAttribute('lang') ?? document.documentElement.lang?.slice(0, 2);
    return {
      lang: LANGUAGES.includes(lang) ? lang : 'en',
      theme: this.getAttribute('theme'),
      palette: this.getAttribute('palette'),
      exercise: this.hasAttribute('exercise'),
    };
  }

  // The stepper over the engine `loading` gives, once it computes the walkthrough asked for.
  #startWith(loading) {
    loading
      .then((attn) => readyFor(attn, this.getAttribute('walkthrough'), this.#options().lang))
      .then(
        (attn) => this.#start(attn),
        (error) => this.#fail(translator(this.#options().lang)('loadFailed', { error: error.message })),
      );
  }

  #start(attn) {
    const walkthrough = this.getAttribute('walkthrough') ?? 'basics';
    let given = {};
    this.#inputsProblem = null;
    try {
      given = this.#givenInputs();
    } catch (error) {
      this.#inputsProblem = error.message;
    }
    // task="en-zh" scoring="dot" sentence="…" step="3": inputs as attributes, typed as in the form
    const attributes = inputAttributes(walkthrough).filter((name) => this.hasAttribute(name));
    given = { ...Object.fromEntries(attributes.map((name) => [name, this.getAttribute(name)])), ...given };
    const controller = new StepperController(attn, {
      ...this.#options(),
      walkthrough,
      stage: this.getAttribute('stage'),
      inputs: { [walkthrough]: given },
    });
    controller.addEventListener('change', (event) => this.#onChange(event.detail.reason));
    this.#controller = controller;
    this.#form = null;
    this.#section = null;
    this.#parts = null;
    this.#render();
    const pairs = this.getAttribute('pairs-src');
    if (pairs && SPECS[walkthrough]?.models?.data) this.#readLines(controller, pairs);
  }

  // The reader's lines from `pairs-src` (fetched: a file on another origin must allow it with CORS),
  // one a line as the spec's data reads them (source<TAB>target, text<TAB>label): the walkthrough
  // then shows a model of them, trained here.
  async #readLines(controller, source) {
    try {
      const url = new URL(source, document.baseURI);
      // fetch says only "Failed to fetch" when the server is down or its file not ours to read
      const response = await fetch(url).catch(() => {
        throw new Error(controller.t('fetchBlocked'));
      });
      if (!response.ok)
        throw new Error(controller.t('fetchStatus', { status: `${response.status} ${response.statusText}`.trim() }));
      const text = new Uint8Array(await response.arrayBuffer());
      if (controller !== this.#controller) return; // the stepper started again meanwhile
      // the task named after the file ("eng-fra.txt" -> "eng-fra", the engine's rule)
      const data = { text, file: decodeURIComponent(url.pathname.split('/').pop() ?? '') };
      const problem = controller.addReaderTask(controller.attn[controller.reader.create](data));
      if (problem) throw new Error(problem);
    } catch (error) {
      if (controller !== this.#controller) return;
      this.#inputsProblem = controller.t(`${controller.spec.models.data.texts}.sourceFailed`, {
        source,
        error: error.message,
      });
      this.#render();
    }
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

  #onChange(reason) {
    this.#render();
    if (reason !== 'stage') return;
    const controller = this.#controller;
    this.setAttribute('stage', controller.stageId);
    const detail = {
      walkthrough: controller.walkthrough,
      stage: controller.stageId,
      index: controller.index,
      total: controller.stages.length,
    };
    this.dispatchEvent(new CustomEvent('stagechange', { detail, bubbles: true, composed: true }));
  }

  #fail(message) {
    const status = el('p', 'as-status as-error', message);
    status.setAttribute('role', 'alert');
    this.#root.replaceChildren(status);
  }

  #render() {
    const controller = this.#controller;
    const { t } = controller;
    this.#root.classList.toggle('as-compact', this.hasAttribute('compact'));

    this.#parts ??= {
      header: el('div', 'as-header'),
      banner: el('p', 'as-error'),
      nav: createNav(controller),
      model: modelPanelSlot(controller, {
        editable: () => this.hasAttribute('editable'),
        // a checkpoint's folder (a server that lets this page read it: CORS), loaded in place of the shipped one
        modelSource: () => this.getAttribute('model-src'),
      }),
      files: createFilePanel(controller),
    };
    const { header, banner, nav, files } = this.#parts;
    header.replaceChildren(
      el('span', 'as-walkthrough', t(`${controller.walkthrough}.title`)),
      el('span', 'as-count', controller.stageCount()),
    );

    const restoreFocus = keepStageFocus(this.#root);
    const key = `${controller.walkthrough}/${controller.stageId}`;
    if (this.#section?.dataset.stage !== key) {
      this.#section = el('section', 'stage');
      this.#section.dataset.stage = key;
      this.#section.setAttribute('aria-current', 'step');
    }
    // what trains, above the stage; while the model on screen is not trained yet (or, for models
    // only loaded, not in yet: no trace), no stage
    const { model } = this.#parts;
    model.update();
    const waiting = model.waiting() || controller.trace === null;
    const width = (this.clientWidth || 640) - FRAME; // the stage's, inside the stepper's padding and border
    if (!waiting) renderStage(this.#section, controller, width, getComputedStyle(this.#root).fontFamily);

    banner.setAttribute('role', 'alert');
    // Without the form on screen, the banner itself says which input is wrong and why.
    const editable = this.hasAttribute('editable');
    updateProblems(banner, controller, { withFields: !editable, extra: [this.#inputsProblem] });
    nav.update();

    const children = [header, ...(!model.runView || model.runView.hidden ? [] : [model.runView])];
    children.push(...(waiting ? [] : [this.#section]), banner);
    if (editable) {
      files.update();
      children.push(this.#inputsForm(controller), files.element);
    }
    if (model.element && !model.element.hidden) children.push(model.element);
    children.push(nav.element);
    // Only what changed is swapped: moving the navigation out and back would take keyboard
    // focus off its buttons.
    const present = [...this.#root.children];
    const changed = children.filter((child, i) => present[i] !== child);
    if (present.length === children.length && changed.length === 1 && changed[0] === this.#section)
      present[children.indexOf(this.#section)].replaceWith(this.#section);
    else if (changed.length) this.#root.replaceChildren(...children);
    restoreFocus(this.#section);
    // ready: a stage is on screen, its formula too (not the wait for a model that is still
    // loading or training)
    if (!waiting) formulasDrawn().then(this.#drawn);
  }

  // The inputs form survives redraws (it keeps the caret and what the user typed).
  #inputsForm(controller) {
    const key = `${controller.walkthrough}/${controller.options.lang}`;
    if (this.#form?.key !== key) {
      const element = el('form', 'as-inputs');
      element.addEventListener('submit', (event) => event.preventDefault());
      const fields = el('div', 'as-fields');
      element.append(fields);
      const refresh = renderInputForm(
        fields,
        controller.session(),
        controller.t,
        (name, text) => controller.edit(name, text),
        (name, wrapper) => fieldFiles(controller, name, wrapper, controller.t('files.pickField')),
      );
      this.#form = { key, element, refresh };
    }
    this.#form.refresh();
    return this.#form.element;
  }
}
