// <attention-heatmap>: one annotated heatmap, for authors who want a single matrix.
//   <attention-heatmap name="weights" palette="colourblind" colour-role="weights" precision="3">
//     <script type="application/json">[[0.1, 0.9], [0.5, 0.5]]</script>
//   </attention-heatmap>
// The matrix comes from a JSON child, the `matrix` attribute (JSON), the `matrix` property
// (number[][] or { rows, cols, data }), or a tensor file: src="weights.npy", or
// src="model.safetensors#name" (or "weights.npz#name") for one of several tensors; a 1-D tensor
// draws as one row. row-labels / col-labels are comma-separated.
import { loadAttention, toMatrix } from 'attention-stepper';
import { warnDeprecated } from './deprecation.js';
import { el } from './dom.js';
import { renderHeatmap } from './heatmap.js';
import { ROLES } from './palettes.js';
import { linkStyles } from './styles-link.js';

export class AttentionHeatmapElement extends HTMLElement {
  static observedAttributes = [
    'matrix',
    'src',
    'name',
    'palette',
    'colour-role',
    'role',
    'annotate',
    'precision',
    'row-labels',
    'col-labels',
    'theme',
  ];

  #matrix = null;
  #loaded = null; // { src, matrix } of the last file read
  #loading = null; // the src being read
  #root;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.#root = el('div', 'as-heatmap');
    this.#root.hidden = true;
    this.shadowRoot.append(this.#root);
    linkStyles(this.shadowRoot).then(() => (this.#root.hidden = false));
  }

  connectedCallback() {
    this.#render();
  }

  // `role` was this element's name for the colour role; on the host it tells screen readers the
  // element is a "weights" widget, which is no ARIA role. It is read as colour-role and removed.
  #adoptRole() {
    const role = this.getAttribute('role');
    if (role === null || !ROLES.includes(role)) return;
    warnDeprecated('<attention-heatmap role>', 'colour-role', '0.5.0');
    if (!this.hasAttribute('colour-role')) this.setAttribute('colour-role', role);
    this.removeAttribute('role');
  }

  attributeChangedCallback() {
    if (this.isConnected) this.#render();
  }

  get matrix() {
    return this.#matrix;
  }

  set matrix(value) {
    this.#matrix = value;
    this.#render();
  }

  // Reads the file `src` names (once per src); #render draws it when it is in.
  async #load(src) {
    this.#loading = src;
    const [path, name] = src.split('#').map((part, i) => (i ? decodeURIComponent(part) : part));
    let matrix;
    try {
      const response = await fetch(new URL(path, document.baseURI));
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
      const tensors = (await loadAttention()).readTensors(new Uint8Array(await response.arrayBuffer()));
      const names = Object.keys(tensors);
      const key = name ?? (names.length === 1 ? names[0] : null);
      if (key === null) throw new Error(`it holds ${names.join(', ')}: name one after # (${path}#${names[0]})`);
      const tensor = tensors[key];
      if (!tensor) throw new Error(`it holds no tensor "${key}", only ${names.join(', ')}`);
      if (tensor.shape.length > 2 || tensor.shape.length === 0)
        throw new Error(`"${key}" has shape [${tensor.shape.join(', ')}]: a heatmap draws a 1-D or 2-D tensor`);
      const [rows, cols] = tensor.shape.length === 2 ? tensor.shape : [1, tensor.shape[0]];
      matrix = { rows, cols, data: tensor.data, name: name ?? path.split('/').pop() };
    } catch (error) {
      matrix = new Error(`could not read ${src}: ${error.message}`);
    }
    if (this.getAttribute('src') !== src) return; // src changed while this one was read
    this.#loading = null;
    this.#loaded = { src, matrix };
    this.#render();
  }

  #render() {
    this.#adoptRole();
    const src = this.getAttribute('src');
    if (!this.#matrix && src && this.#loaded?.src !== src) {
      if (this.#loading !== src) this.#load(src);
      const status = el('p', 'as-status', `attention-heatmap: loading ${src}…`);
      status.setAttribute('role', 'status');
      return this.#root.replaceChildren(status);
    }
    try {
      const fromFile = !this.#matrix && src ? this.#loaded.matrix : null;
      if (fromFile instanceof Error) throw fromFile;
      const given =
        this.#matrix ??
        fromFile ??
        JSON.parse(
          this.getAttribute('matrix') ?? this.querySelector('script[type="application/json"]')?.textContent ?? 'null',
        );
      if (given === null) return this.#root.replaceChildren();
      const matrix = {
        ...toMatrix(given, 'matrix', Float64Array),
        name: this.getAttribute('name') ?? given.name ?? '',
      };
      for (const [attribute, key] of [
        ['row-labels', 'rowLabels'],
        ['col-labels', 'colLabels'],
      ]) {
        const labels =
          this.getAttribute(attribute)
            ?.split(',')
            .map((label) => label.trim()) ?? given[key];
        if (labels) matrix[key] = labels;
      }
      const precision = Number(this.getAttribute('precision') ?? 2);
      renderHeatmap(this.#root, matrix, {
        palette: this.getAttribute('palette') === 'colourblind' ? 'colourblind' : 'notebook',
        role: this.getAttribute('colour-role') ?? given.palette ?? 'weights',
        annotate: this.getAttribute('annotate') !== 'false',
        precision: Number.isInteger(precision) && precision > 0 && precision <= 17 ? precision : 2,
        width: this.clientWidth || 640,
      });
    } catch (error) {
      const message = el('p', 'as-error', `attention-heatmap: ${error.message}`);
      message.setAttribute('role', 'alert');
      this.#root.replaceChildren(message);
    }
  }
}
