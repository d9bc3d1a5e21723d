// <attention-heatmap>: one annotated heatmap, for authors who want a single matrix.
//   <attention-heatmap name="weights" palette="colourblind" colour-role="weights" precision="3">
//     <script type="application/json">[[0.1, 0.9], [0.5, 0.5]]</script>
//   </attention-heatmap>
// The matrix comes from a JSON child, the `matrix` attribute (JSON), or the `matrix` property
// (number[][] or { rows, cols, data }); row-labels / col-labels are comma-separated.
import { toMatrix } from 'attention-stepper';
import { el } from './dom.js';
import { renderHeatmap } from './heatmap.js';
import { ROLES } from './palettes.js';
import { linkStyles } from './styles-link.js';

export class AttentionHeatmapElement extends HTMLElement {
  static observedAttributes = [
    'matrix',
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

  #render() {
    this.#adoptRole();
    try {
      const given =
        this.#matrix ??
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
