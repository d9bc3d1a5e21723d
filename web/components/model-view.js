// The model view (BertViz's): every layer × head of each attention as a small heatmap, coloured
// as the stages' heatmaps are (heatmap-layout.js), grouped by attention and laid out a layer per
// row, a head per column. Each is a button: choosing it (click, Enter) opens that head (`open`,
// given the panel's name). One of them is in the Tab order and the arrow keys move between them
// (Home and End to a row's ends), so a grid of 144 heads is one Tab stop. Drawn from our traces
// (stage-view.js) and from attention computed elsewhere (attention-views.js).
import { rgb } from 'd3-color';

import { el } from './dom.js';
import { computeLayout, offScale } from './heatmap-layout.js';

const THUMB = 84; // px: the widest side of a small heatmap
const LEVELS = 256; // colours a small heatmap's scale is drawn with, as an 8-bit image holds
let drawn = 0; // model views drawn: their headings' ids

/**
 * Draws `panels` (named "<attention>-<layer>-<head>") into `element`; `open(name)` opens one, and
 * `current` names the one open (pressed).
 */
export function drawModelView(element, panels, { t, palette, open, current = null }) {
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
    grid.setAttribute('role', 'group');
    grid.setAttribute('aria-labelledby', title.id);
    const columns = new Set(heads.map((each) => each.head)).size;
    grid.style.gridTemplateColumns = `repeat(${columns}, max-content)`;
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
    grid.addEventListener('keydown', (event) => moveFocus(event, grid, columns));
    section.append(title, grid);
    view.append(section);
  }
  markOpen(view, current);
  element.replaceChildren(view);
}

/**
 * Marks the head named `current` in the model view `root` holds as the one open (pressed); each
 * grid's Tab stop is that head, or the grid's first where it is not in it.
 */
export function markOpen(root, current) {
  for (const grid of root.querySelectorAll('.mv-grid')) {
    const buttons = [...grid.children];
    const stop = buttons.find((button) => button.dataset.name === current) ?? buttons[0];
    for (const button of buttons) {
      if (current !== null) button.setAttribute('aria-pressed', String(button.dataset.name === current));
      button.tabIndex = button === stop ? 0 : -1;
    }
  }
}

// The arrow keys move the focus a head (left, right) or a layer (up, down) within a grid; Home
// and End to the first and last head of the layer.
function moveFocus(event, grid, columns) {
  const buttons = [...grid.children];
  const at = buttons.indexOf(event.target); // the focused head: keys go to what has the focus
  const row = at - (at % columns);
  const to = {
    ArrowLeft: at - 1,
    ArrowRight: at + 1,
    ArrowUp: at - columns,
    ArrowDown: at + columns,
    Home: row,
    End: row + columns - 1,
  }[event.key];
  if (to === undefined || at < 0) return;
  event.preventDefault();
  // past the grid's edge the focus stays
  const target = buttons[to] ?? buttons[at];
  for (const button of buttons) button.tabIndex = button === target ? 0 : -1;
  target.focus();
}

// A pixel's bytes (r, g, b, opaque) as one number of an image's Uint32Array (little-endian, as
// every browser's typed arrays are where the web runs).
const packed = ({ r, g, b }) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;

// The LEVELS colours of a colour scale, packed: made once per scale, not per heatmap.
const scales = new WeakMap();
function scaleOf(colour) {
  if (!scales.has(colour))
    scales.set(
      colour,
      Uint32Array.from({ length: LEVELS }, (_, k) => packed(rgb(colour(k / (LEVELS - 1))))),
    );
  return scales.get(colour);
}

// A heatmap of `panel` without labels or numbers, at most THUMB px on its longer side: an image
// of a pixel per cell, scaled up without smoothing (a canvas: 144 heads of 128 × 128 tokens are
// 2.4 million cells, which no page draws as elements in time).
function thumbnail(panel, palette) {
  const layout = computeLayout(panel, { palette, annotate: false, cellSize: 1 });
  const cell = Math.max(3, Math.floor(THUMB / Math.max(panel.rows, panel.cols)));
  const canvas = document.createElement('canvas');
  canvas.className = 'mv-thumb';
  canvas.width = panel.cols;
  canvas.height = panel.rows;
  canvas.style.width = `${panel.cols * cell}px`;
  canvas.style.height = `${panel.rows * cell}px`;
  canvas.setAttribute('aria-hidden', 'true');
  const scale = scaleOf(layout.colour);
  const image = new ImageData(panel.cols, panel.rows);
  const pixels = new Uint32Array(image.data.buffer);
  for (let i = 0; i < pixels.length; i++) {
    const value = panel.data[i];
    pixels[i] =
      value > -Infinity // neither NaN nor −∞, which are off the scale
        ? scale[Math.round(layout.position(value, i) * (LEVELS - 1))]
        : packed(rgb(offScale(value)));
  }
  canvas.getContext('2d').putImageData(image, 0, 0);
  return canvas;
}
