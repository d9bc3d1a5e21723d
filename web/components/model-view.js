// The model view (BertViz's, drawn from our traces): every layer × head of each attention as a
// small heatmap, coloured as the stages' heatmaps are (heatmap-layout.js), grouped by attention
// and laid out a layer per row, a head per column. Each is a button: choosing it (click, Enter)
// opens that head (`open`, given the panel's name).
import { el } from './dom.js';
import { computeLayout } from './heatmap-layout.js';

const SVG = 'http://www.w3.org/2000/svg';
const THUMB = 84; // px: the widest side of a small heatmap
let drawn = 0; // model views drawn: their headings' ids

/**
 * Draws `panels` (named "<attention>-<layer>-<head>", layer and head from 1) into `element`;
 * `open(name)` opens one.
 */
export function renderModelView(element, panels, { t, palette, open }) {
  const view = el('div', 'model-view');
  drawn += 1;
  const groups = new Map();
  for (const panel of panels) {
    const [attention, layer, head] = panel.name.split('-');
    if (!groups.has(attention)) groups.set(attention, []);
    groups.get(attention).push({ panel, layer: Number(layer), head: Number(head) });
  }
  for (const [attention, heads] of groups) {
    const section = el('section', 'mv-group');
    const title = el('h3', 'mv-title', t(`modelView.${attention}`));
    title.id = `mv${drawn}-${attention}`;
    section.setAttribute('aria-labelledby', title.id);
    const grid = el('div', 'mv-grid');
    grid.style.gridTemplateColumns = `repeat(${Math.max(...heads.map((each) => each.head))}, max-content)`;
    for (const { panel, layer, head } of heads) {
      const button = el('button', 'mv-head');
      button.type = 'button';
      button.dataset.name = panel.name;
      // its name begins with what it shows (L1 H2), as speech input needs
      const label = t('modelView.label', { layer, head });
      button.setAttribute(
        'aria-label',
        t('modelView.open', { label, attention: t(`modelView.${attention}`), layer, head }),
      );
      button.append(thumbnail(panel, palette), el('span', 'mv-label', label));
      button.addEventListener('click', () => open(panel.name));
      grid.append(button);
    }
    section.append(title, grid);
    view.append(section);
  }
  element.replaceChildren(view);
}

// A heatmap of `panel` without labels or numbers, at most THUMB px on its longer side.
function thumbnail(panel, palette) {
  const layout = computeLayout(panel, { palette, annotate: false, cellSize: 1 });
  const cell = Math.max(3, Math.floor(THUMB / Math.max(panel.rows, panel.cols)));
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', String(panel.cols * cell));
  svg.setAttribute('height', String(panel.rows * cell));
  svg.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < panel.rows * panel.cols; i++) {
    const rect = document.createElementNS(SVG, 'rect');
    for (const [name, value] of [
      ['x', (i % panel.cols) * cell],
      ['y', Math.floor(i / panel.cols) * cell],
      ['width', cell],
      ['height', cell],
      ['fill', layout.cellAt(i).fill],
    ])
      rect.setAttribute(name, String(value));
    svg.append(rect);
  }
  return svg;
}
