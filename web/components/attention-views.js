// The model view and the head view of attention computed anywhere (BertViz's contract, read by
// attention-tensors.js): renderModelView and renderHeadView draw into any element, and the
// <attention-model-view> and <attention-head-view> elements take the same data from a JSON child,
// attributes or files. Files other than JSON (.npy, .npz, safetensors) are read by the engine's
// reader, so only they load WebAssembly.
//   <attention-model-view src="attentions.npz" tokens-src="tokens.json"></attention-model-view>
//   <attention-head-view layer="3">
//     <script type="application/json">{ "tokens": [...], "attentions": [[[[...]]]] }</script>
//   </attention-head-view>
import { loadAttention } from 'attention-stepper';

import { attentionPanels, readAttentions, SENTENCE_FILTERS } from './attention-tensors.js';
import { el } from './dom.js';
import { renderHeatmap } from './heatmap.js';
import { drawHeadView } from './head-view.js';
import { hasLanguage, loadLanguage, translator } from './i18n.js';
import { drawModelView, markOpen } from './model-view.js';
import { PALETTES } from './palettes.js';
import { heatmapText } from './stage-view.js';
import { linkStyles } from './styles-link.js';

// A whole number option or attribute within [0, count), or `fallback` when not given.
function indexOption(value, count, name, fallback) {
  if (value === undefined || value === null || value === '') return fallback;
  const index = Number(value);
  if (!Number.isInteger(index) || index < 0 || index >= count)
    throw Object.assign(new Error(`${name} must be a whole number from 0 to ${count - 1}, got ${value}`), {
      argument: name,
    });
  return index;
}

// A <select> of `choices` ([value, text]) labelled `label`, on `value`, calling `change(value)`.
function chooser(label, choices, value, change) {
  const wrapper = el('label', 'av-choice');
  const select = el('select');
  for (const [key, text] of choices) {
    const option = el('option', '', text);
    option.value = String(key);
    select.append(option);
  }
  select.value = String(value);
  select.addEventListener('change', () => change(select.value));
  wrapper.append(el('span', '', label), select);
  return wrapper;
}

// The sentence filter's menu where a second sentence starts, else nothing.
function sentenceChooser(attention, t, state, redraw) {
  if (attention.sentenceB === null) return [];
  const choices = SENTENCE_FILTERS.map((filter) => [filter, t(`attentionViews.sentences.${filter}`)]);
  return [chooser(t('attentionViews.sentences.label'), choices, state.filter, (filter) => redraw({ filter }))];
}

/**
 * Shared by both views: the data read and checked, the language loaded, `draw(view, attention,
 * t, state)` run on each change; update() and dispose() as the public functions return them.
 */
function attentionView(element, attentions, tokens, options, className, draw) {
  if (!element || typeof element.replaceChildren !== 'function')
    throw Object.assign(new Error('element must be a DOM element to draw into'), { argument: 'element' });
  const view = el('div', `attention-view ${className}`);
  let attention;
  let state;
  let disposed = false;
  const read = (data, words, given) => {
    const palette = given.palette ?? 'notebook';
    if (!PALETTES.includes(palette))
      throw Object.assign(new Error(`palette must be one of ${PALETTES.join(', ')}, got ${palette}`), {
        argument: 'palette',
      });
    attention = readAttentions(data, words, given.sentenceB);
    state = {
      palette,
      lang: given.lang ?? 'en',
      layer: indexOption(given.layer, attention.layers, 'layer', null),
      head: indexOption(given.head, attention.heads, 'head', null),
      filter: 'all',
    };
  };
  const redraw = (change = {}) => {
    if (disposed) return;
    Object.assign(state, change);
    draw(view, attention, translator(state.lang), state, redraw);
  };
  // at once in a language whose words are in (English is bundled), else once they are
  const drawn = () => (hasLanguage(state.lang) ? redraw() : loadLanguage(state.lang).then(() => redraw()));
  read(attentions, tokens, options);
  linkStyles(element.getRootNode());
  element.replaceChildren(view);
  drawn();
  return {
    update(newAttentions, newTokens, newOptions = {}) {
      const kept = { layer: state.layer, head: state.head, filter: state.filter };
      read(newAttentions, newTokens, { palette: state.palette, lang: state.lang, ...newOptions });
      // the head and layer chosen stay where the new data has them
      const fits = (index, count) => (index !== null && index < count ? index : null);
      if (newOptions.layer === undefined) state.layer = fits(kept.layer, attention.layers);
      if (newOptions.head === undefined) state.head = fits(kept.head, attention.heads);
      if (attention.sentenceB !== null) state.filter = kept.filter;
      drawn();
    },
    dispose() {
      disposed = true;
      view.remove();
    },
  };
}

/**
 * Draws the model view of `attentions` (BertViz's contract: a list per layer of [1, heads, T, T]
 * or [heads, T, T], or one tensor of them all, or a file's named tensors) over `tokens` into
 * `element`: every layer × head as a small heatmap, each opening its head's heatmap below. options:
 * layer and head (from 0: the head open at first), sentenceB (where a second sentence starts),
 * palette, lang. Returns { update(attentions, tokens, options), dispose() }.
 */
export function renderModelView(element, attentions, tokens, options = {}) {
  let grid = null;
  let gridOf = null; // what the grid shows: a new grid for new data, filter, palette or language
  return attentionView(element, attentions, tokens, options, 'av-model', (view, attention, t, state, redraw) => {
    const open = state.layer !== null && state.head !== null ? `attention-${state.layer}-${state.head}` : '';
    const shows = [attention, state.filter, state.palette, state.lang];
    if (!gridOf || shows.some((value, i) => value !== gridOf[i])) {
      grid = el('div', 'av-grid');
      gridOf = shows;
      drawModelView(grid, attentionPanels(attention, null, state.filter), {
        t,
        palette: state.palette,
        current: open,
        open: (name) => {
          const [, layer, head] = name.split('-').map(Number);
          redraw({ layer, head });
          grid.querySelector(`.mv-head[data-name="${name}"]`)?.focus();
        },
      });
    } else markOpen(grid, open);
    const opened = el('section', 'av-opened');
    if (open) {
      // named as its file is (the exports take the name)
      const panel = {
        ...attentionPanels(attention, state.layer, state.filter)[state.head],
        name: `layer${state.layer}-head${state.head}`,
      };
      const title = el('h3', 'av-opened-title', t('attentionViews.opened', { layer: state.layer, head: state.head }));
      const heatmap = el('div', 'av-heatmap');
      opened.append(title, heatmap);
      const width = view.clientWidth || 640;
      renderHeatmap(heatmap, panel, { palette: state.palette, role: 'weights', t, text: heatmapText(t), width });
    }
    view.replaceChildren(...sentenceChooser(attention, t, state, redraw), grid, opened);
  });
}

/**
 * Draws the head view of one layer of `attentions` (as renderModelView takes them) over `tokens`
 * into `element`: every head of the layer as lines between the tokens, with a menu of the layers.
 * options: layer (from 0, default 0), head (the head shown alone at first), sentenceB, palette,
 * lang. Returns { update(attentions, tokens, options), dispose() }.
 */
export function renderHeadView(element, attentions, tokens, options = {}) {
  return attentionView(element, attentions, tokens, options, 'av-head', (view, attention, t, state, redraw) => {
    const layer = state.layer ?? 0;
    const layers = Array.from({ length: attention.layers }, (_, l) => [l, t('attentionViews.layer', { layer: l })]);
    const controls = el('div', 'av-controls');
    controls.append(
      chooser(t('attentionViews.layerLabel'), layers, layer, (value) => redraw({ layer: Number(value) })),
      ...sentenceChooser(attention, t, state, redraw),
    );
    const drawing = el('div', 'av-lines');
    drawHeadView(drawing, attentionPanels(attention, layer, state.filter), {
      t,
      palette: state.palette,
      countFrom: 0,
      pinned: state.head === null ? null : { kind: 'head', index: state.head },
      // a head pressed stays pressed across redraws (another layer, new data)
      onPin: (filter) => (state.head = filter?.kind === 'head' ? filter.index : null),
    });
    view.replaceChildren(controls, drawing);
  });
}

// The elements: the data from the `attentions` and `tokens` properties, else a JSON child
// ({ tokens, attentions, sentenceBStart? }), else files: `src` (JSON of the same, or of the
// attentions alone; .npy, .npz or safetensors) and `tokens-src` or `tokens` (a JSON array).
const OPTIONS = ['layer', 'head', 'sentence-b-start', 'palette', 'lang'];

// What the file at `src` (relative to the page) holds: JSON (by its name or its content type),
// else the tensors the engine reads; an error names the file.
async function readSource(src) {
  try {
    const response = await fetch(new URL(src, document.baseURI));
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
    if (src.split(/[?#]/)[0].endsWith('.json') || /json/.test(response.headers.get('content-type') ?? ''))
      return { json: await response.json() };
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { tensors: (await loadAttention()).readTensors(bytes) };
  } catch (error) {
    throw new Error(`could not read ${src}: ${error.message}`);
  }
}

// The `tokens` attribute: a JSON array.
function tokensAttribute(element) {
  try {
    return JSON.parse(element.getAttribute('tokens'));
  } catch (error) {
    throw Object.assign(new Error(`tokens must be a JSON array of strings (${error.message})`), { argument: 'tokens' });
  }
}

function viewElement(name, render) {
  return class extends HTMLElement {
    static observedAttributes = ['src', 'tokens-src', 'tokens', ...OPTIONS];

    #attentions = null;
    #tokens = null;
    #files = null; // { key, data } of the files last read: key is `src tokens-src`
    #reading = null; // the key being read
    #handle = null;
    #root;

    constructor() {
      super();
      this.attachShadow({ mode: 'open' });
      this.#root = el('div', 'as-attention-view');
      this.#root.hidden = true;
      this.shadowRoot.append(this.#root);
      linkStyles(this.shadowRoot).then(() => (this.#root.hidden = false));
    }

    connectedCallback() {
      this.#render();
    }

    attributeChangedCallback() {
      if (this.isConnected) this.#render();
    }

    get attentions() {
      return this.#attentions;
    }

    set attentions(value) {
      this.#attentions = value;
      this.#render();
    }

    get tokens() {
      return this.#tokens;
    }

    set tokens(value) {
      this.#tokens = value;
      this.#render();
    }

    async #read(key) {
      this.#reading = key;
      const src = this.getAttribute('src');
      const tokensSrc = this.getAttribute('tokens-src');
      let data;
      try {
        const [source, tokens] = await Promise.all([readSource(src), tokensSrc ? readSource(tokensSrc) : null]);
        const { json, tensors } = source;
        data = tensors ? { attentions: tensors } : Array.isArray(json) ? { attentions: json } : json;
        if (tokens && !Array.isArray(tokens.json))
          throw new Error(`tokens-src must name a JSON array of strings (${tokensSrc})`);
        if (tokens) data = { ...data, tokens: tokens.json };
      } catch (error) {
        data = error;
      }
      if (this.#reading !== key) return; // the files changed while these were read
      this.#reading = null;
      this.#files = { key, data };
      this.#render();
    }

    // The data to draw: { attentions, tokens, sentenceBStart } or null while files are read.
    #data() {
      if (this.#attentions) return { attentions: this.#attentions, tokens: this.#tokens };
      const script = this.querySelector('script[type="application/json"]');
      if (script) return JSON.parse(script.textContent);
      const src = this.getAttribute('src');
      if (!src) return {};
      const key = `${src} ${this.getAttribute('tokens-src') ?? ''}`;
      if (this.#files?.key !== key) {
        if (this.#reading !== key) this.#read(key);
        return null;
      }
      if (this.#files.data instanceof Error) throw this.#files.data;
      return this.#files.data;
    }

    #render() {
      try {
        const data = this.#data();
        if (data === null) {
          const status = el('p', 'as-status', `${name}: loading ${this.getAttribute('src')}…`);
          status.setAttribute('role', 'status');
          this.#handle = null;
          return this.#root.replaceChildren(status);
        }
        if (!data.attentions) {
          this.#handle = null;
          return this.#root.replaceChildren();
        }
        const attribute = (key) => this.getAttribute(key) ?? undefined;
        const tokens = this.#tokens ?? (this.hasAttribute('tokens') ? tokensAttribute(this) : data.tokens);
        const start = attribute('sentence-b-start') ?? data.sentenceBStart;
        const options = {
          layer: attribute('layer'),
          head: attribute('head'),
          sentenceB: start === undefined ? undefined : Number(start),
          palette: attribute('palette'),
          lang: attribute('lang') ?? this.closest('[lang]')?.lang,
        };
        if (this.#handle) this.#handle.update(data.attentions, tokens, options);
        else {
          const holder = el('div');
          this.#root.replaceChildren(holder);
          this.#handle = render(holder, data.attentions, tokens, options);
        }
      } catch (error) {
        this.#handle = null;
        const message = el('p', 'as-error', `${name}: ${error.message}`);
        message.setAttribute('role', 'alert');
        this.#root.replaceChildren(message);
      }
    }
  };
}

export const AttentionModelViewElement = viewElement('attention-model-view', renderModelView);
export const AttentionHeadViewElement = viewElement('attention-head-view', renderHeadView);
