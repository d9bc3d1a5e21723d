// An annotated heatmap of one matrix, drawn as a CSS grid of cells (each with data-row, data-col
// and data-value), with a colour legend, a tooltip on hover and keyboard focus, and a table
// alternative for screen readers. Values print as seaborn's annot=True does ('.2g').
import { rgb } from 'd3-color';
import { writeNpy } from 'attention-stepper';

import { el, setText } from './dom.js';
import {
  downloadFile,
  matrixToCsv,
  matrixToJson,
  matrixToNumpy,
  matrixToPngBlob,
  matrixToSvg,
  safeFileName,
} from './export.js';
import { bitsText, fullValue } from './format.js';
import { computeLayout, NAN_FILL } from './heatmap-layout.js';

const SR_TABLE_LIMIT = 1024; // cells; larger tables are built when asked for
// Above this many cells the colours are painted on a canvas (one pixel per cell, scaled up) and
// the cell elements stay in the DOM unpainted: painting and hit-testing tens of thousands of
// elements would make hover lag, while a canvas redraws nothing when the pointer moves.
const CANVAS_CELLS = 4096;

let nextId = 0;

const ENGLISH = {
  table: 'Table',
  hideTable: 'Hide table',
  legend: 'Colour scale',
  export: 'Export',
  exportPng: 'PNG image',
  exportSvg: 'SVG image',
  exportCsv: 'CSV',
  exportJson: 'JSON',
  exportNumpy: 'Copy as numpy',
  exportNpy: 'NumPy file (.npy)',
  copied: 'Copied to the clipboard.',
  copyFailed: 'Could not copy.',
  bitsSign: 'sign',
  bitsExponent: 'exponent',
  bitsMantissa: 'mantissa',
};

// What each element shows, so that drawing it again with the same layout (shape, labels, palette,
// cell size, texts) only rewrites the values that changed: rebuilding the cells makes the browser
// restyle and lay out every one of them, which costs more than the rest of an input edit.
const drawn = new WeakMap(); // element -> { key, figure, update(matrix, layout) }
const cursors = new WeakMap(); // grid -> { cell(), focus(row, col) }: its keyboard cell

/** The cell [row, col] that keyboard focus is on (or was last on) in the heatmap grid `grid`, or null. */
export function activeCell(grid) {
  return cursors.get(grid)?.cell() ?? null;
}

/** Focuses the heatmap grid `grid` on the cell [row, col], or on the nearest one it has. */
export function focusCell(grid, [row, col]) {
  cursors.get(grid)?.focus(row, col);
}

/**
 * Draws `matrix` ({ rows, cols, data, name?, palette?, rowLabels?, colLabels?, exact? }) into
 * `element`, replacing its content (or, when `element` shows a heatmap of the same layout, only
 * the values that changed).
 * options: palette ('notebook' | 'colourblind'), role (colour role, default matrix.palette),
 * annotate (default true), precision (significant digits, default 2), width (px available),
 * text (labels of the UI: { table, hideTable, value, legend }), t (the locale's translator, which
 * words the matrix's structured labels here and in the exports; English by default).
 */
export function renderHeatmap(element, matrix, options = {}) {
  const text = { ...ENGLISH, ...options.text };
  const layout = computeLayout(matrix, { ...options, width: options.width ?? element.clientWidth ?? 600 });
  const key = JSON.stringify([layout.key, text]);
  const previous = drawn.get(element);
  if (previous?.key === key && element.childNodes.length === 1 && element.firstChild === previous.figure) {
    previous.update(matrix, layout);
    return previous.figure;
  }
  const heatmap = { key, ...buildHeatmap(matrix, layout, text, options) };
  drawn.set(element, heatmap);
  element.replaceChildren(heatmap.figure);
  return heatmap.figure;
}

// The elements of a heatmap for `layout`, and update(matrix, layout), which writes a matrix's
// values, as laid out for it, into them (the first one included).
function buildHeatmap(matrix, layout, text, options) {
  const { rows, cols, rowLabels, colLabels, cell } = layout;
  let current = matrix;
  const id = `hm${++nextId}`;

  const figure = el('figure', 'heatmap');
  const caption = el('figcaption', 'hm-caption');
  caption.append(el('span', 'hm-name', matrix.name ?? ''), el('span', 'hm-shape', ` ${rows}×${cols}`));
  figure.append(caption);

  const body = el('div', 'hm-body');
  const grid = el('div', 'hm-grid');
  const large = rows * cols > CANVAS_CELLS;
  grid.classList.toggle('hm-no-labels', !layout.labelled);
  grid.classList.toggle('hm-large', large);
  grid.classList.toggle('hm-dense', large || !layout.labelled); // 1px gaps would wash out tiny cells
  grid.style.gridTemplateColumns = `auto repeat(${cols}, ${cell}px)`;
  grid.style.gridAutoRows = `${cell}px`;
  grid.tabIndex = 0;
  grid.setAttribute('role', 'grid');
  grid.setAttribute('aria-label', `${matrix.name ?? ''} ${rows}×${cols}`);
  grid.setAttribute('aria-rowcount', String(rows + 1));
  grid.setAttribute('aria-colcount', String(cols + 1));

  const header = el('div', 'hm-row');
  header.setAttribute('role', 'row');
  header.append(el('div', 'hm-corner'));
  colLabels.forEach((label) => header.append(withRole(el('div', 'hm-col-label', label), 'columnheader')));
  grid.append(header);

  const cells = [];
  const fragment = document.createDocumentFragment();
  for (let r = 0; r < rows; r++) {
    const row = el('div', 'hm-row');
    row.setAttribute('role', 'row');
    row.append(withRole(el('div', 'hm-row-label', rowLabels[r]), 'rowheader'));
    for (let c = 0; c < cols; c++) {
      const cellElement = el('div', 'hm-cell');
      cellElement.setAttribute('role', 'gridcell');
      cellElement.dataset.row = String(r);
      cellElement.dataset.col = String(c);
      cells.push(cellElement);
      row.append(cellElement);
    }
    fragment.append(row);
  }
  grid.append(fragment);
  const canvas = large ? grid.appendChild(canvasOver(rows, cols, cell)) : null;

  const tooltip = el('div', 'hm-tooltip');
  tooltip.id = `${id}-tip`;
  tooltip.hidden = true;
  const scale = legend(layout.legend.stops, text.legend);
  body.append(grid, scale.box, tooltip);
  figure.append(body);

  const tableToggle = el('button', 'hm-table-toggle', text.table);
  tableToggle.type = 'button';
  tableToggle.setAttribute('aria-expanded', 'false');
  let table = rows * cols <= SR_TABLE_LIMIT ? buildTable(matrix, rowLabels, colLabels) : null;
  if (table) figure.append(table.element);
  tableToggle.addEventListener('click', () => {
    if (!table) {
      table = buildTable(current, rowLabels, colLabels);
      table.fill(current);
      figure.append(table.element);
    }
    const show = tableToggle.getAttribute('aria-expanded') !== 'true';
    table.element.classList.toggle('sr-only', !show);
    table.element.tabIndex = show ? 0 : -1; // shown, it may scroll: the keyboard must reach it
    tableToggle.setAttribute('aria-expanded', String(show));
    tableToggle.textContent = show ? text.hideTable : text.table;
  });
  figure.append(
    tableToggle,
    exportMenu(figure, () => current, { ...options, cellSize: cell }, text),
  );

  const highlight = el('div', 'hm-highlight');
  highlight.hidden = true;
  body.append(highlight);
  const refreshInteraction = wireInteraction({
    grid,
    tooltip,
    highlight,
    valueAt: (index) => fullValue(current, index),
    bitsAt: (index) => bitsText(current, index, text),
    rows,
    cols,
    rowLabels,
    colLabels,
    id,
    cell,
  });

  // Whether annotations fit depends on the longest one, so it can change with the values.
  const update = (next, shown) => {
    current = next;
    grid.classList.toggle('hm-no-text', !shown.annotated);
    cells.forEach((cellElement, index) => {
      cellElement.dataset.value = fullValue(next, index);
      if (!large) {
        const { fill, textColour, text } = shown.cellAt(index);
        setText(cellElement, text);
        cellElement.classList.toggle('hm-long', text.length > 5); // 0.0026, 4.8e-05: a smaller font fits
        cellElement.style.backgroundColor = fill;
        cellElement.style.color = textColour;
      }
      cellElement.classList.toggle('hm-exact', Boolean(next.exact?.[index]));
    });
    if (canvas) paintCanvas(canvas, next, shown);
    scale.fill(shown.legend);
    table?.fill(next);
    refreshInteraction();
  };
  update(matrix, layout);
  return { figure, update };
}

// PNG and SVG of what is shown (in the current theme's colours, at the cell size on screen), the
// numbers as CSV, JSON and a .npy file, and the matrix as numpy source for the notebook. `shown()` is the matrix
// on screen at the time.
function exportMenu(figure, shown, options, text) {
  const menu = el('details', 'hm-export');
  menu.append(el('summary', '', text.export));
  const status = el('span', 'hm-export-status');
  status.setAttribute('role', 'status');
  const style = getComputedStyle(figure.isConnected ? figure : document.documentElement);
  const imageOptions = () => ({
    t: options.t,
    palette: options.palette,
    role: options.role ?? shown().palette,
    annotate: options.annotate,
    precision: options.precision,
    cellSize: options.cellSize,
    background: style.getPropertyValue('--as-bg').trim() || '#ffffff',
    foreground: style.getPropertyValue('--as-text').trim() || '#1d1d24',
  });
  const file = safeFileName(shown().name); // the name is part of the layout, which never changes
  const actions = [
    [
      'png',
      text.exportPng,
      async () => downloadFile(`${file}.png`, await matrixToPngBlob(shown(), imageOptions()), 'image/png'),
    ],
    ['svg', text.exportSvg, () => downloadFile(`${file}.svg`, matrixToSvg(shown(), imageOptions()), 'image/svg+xml')],
    ['csv', text.exportCsv, () => downloadFile(`${file}.csv`, matrixToCsv(shown(), options.t), 'text/csv')],
    ['json', text.exportJson, () => downloadFile(`${file}.json`, matrixToJson(shown(), options.t), 'application/json')],
    // float64, as np.save writes it; values below the double range (shown as exact text) are 0 there
    ['npy', text.exportNpy, () => downloadFile(`${file}.npy`, writeNpy(shown()))],
    [
      'numpy',
      text.exportNumpy,
      () =>
        navigator.clipboard.writeText(matrixToNumpy(shown())).then(
          () => (status.textContent = text.copied),
          () => (status.textContent = text.copyFailed),
        ),
    ],
  ];
  for (const [format, label, run] of actions) {
    const button = el('button', 'hm-export-button', label);
    button.type = 'button';
    button.dataset.format = format;
    button.addEventListener('click', run);
    menu.append(button);
  }
  menu.append(status);
  return menu;
}

// Hover and keyboard focus show "row · column: full value" over the cell. Positions come from
// the grid's geometry, not from each cell's layout, so a large grid is never measured again.
// Returns refresh(), which brings the tooltip and the focused cell's label up to new values.
function wireInteraction({ grid, tooltip, highlight, valueAt, bitsAt, rows, cols, rowLabels, colLabels, id, cell }) {
  const gap = grid.classList.contains('hm-dense') ? 0 : 1;
  let origin = null; // top-left of cell (0, 0), relative to the heatmap body
  let active = null; // [row, col] under keyboard focus
  let shown = null; // [row, col] the tooltip is over
  const cellAt = (r, c) => grid.children[r + 1]?.children[c + 1];
  const nearest = (r, c) => [Math.min(rows - 1, Math.max(0, r)), Math.min(cols - 1, Math.max(0, c))];
  const label = (r, c) => {
    const bits = bitsAt(r * cols + c);
    return `${rowLabels[r]}, ${colLabels[c]}: ${valueAt(r * cols + c)}${bits ? `; ${bits}` : ''}`;
  };
  const show = (r, c) => {
    shown = [r, c];
    origin ??= [cellAt(0, 0).offsetLeft, cellAt(0, 0).offsetTop];
    const [x, y] = [origin[0] + c * (cell + gap), origin[1] + r * (cell + gap)];
    tooltip.textContent = `${rowLabels[r]} · ${colLabels[c]}: ${valueAt(r * cols + c)}`;
    // a value of the numerics lab also shows its bits: sign, exponent, mantissa
    const bits = bitsAt(r * cols + c);
    if (bits) tooltip.append(el('span', 'hm-bits', bits));
    tooltip.hidden = false;
    tooltip.style.transform = `translate(${x + cell / 2}px, ${y}px) translate(-50%, -110%)`;
    highlight.hidden = false;
    highlight.style.width = highlight.style.height = `${cell}px`;
    highlight.style.transform = `translate(${x}px, ${y}px)`;
  };
  const hide = () => {
    shown = null;
    tooltip.hidden = highlight.hidden = true;
  };
  const activate = (r, c) => {
    const previous = active && cellAt(...active);
    previous?.removeAttribute('id');
    previous?.removeAttribute('aria-label');
    active = [r, c];
    const element = cellAt(r, c);
    element.id = `${id}-active`;
    element.setAttribute('aria-label', label(r, c));
    grid.setAttribute('aria-activedescendant', element.id);
    element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    show(r, c);
  };
  grid.addEventListener('pointermove', (event) => {
    const target = event.target;
    if (target.classList.contains('hm-cell')) return show(Number(target.dataset.row), Number(target.dataset.col));
    if (!target.classList.contains('hm-canvas')) return;
    const r = Math.floor(event.offsetY / cell);
    const c = Math.floor(event.offsetX / cell);
    if (r >= 0 && r < rows && c >= 0 && c < cols) show(r, c);
  });
  grid.addEventListener('pointerleave', () => (document.activeElement === grid && active ? show(...active) : hide()));
  grid.addEventListener('focus', () => activate(...(active ?? [0, 0])));
  grid.addEventListener('blur', hide);
  grid.addEventListener('keydown', (event) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move || !active) return;
    event.preventDefault();
    event.stopPropagation(); // arrows move the cell here, not the stage
    activate(...nearest(active[0] + move[0], active[1] + move[1]));
  });
  cursors.set(grid, {
    cell: () => active && [...active],
    focus: (r, c) => {
      activate(...nearest(r, c));
      grid.focus();
    },
  });
  return () => {
    if (active) cellAt(...active).setAttribute('aria-label', label(...active));
    if (shown) show(...shown);
  };
}

// A canvas over the (unpainted) cell elements, one pixel per cell, scaled up without smoothing by CSS.
function canvasOver(rows, cols, cell) {
  const canvas = el('canvas', 'hm-canvas');
  canvas.width = cols;
  canvas.height = rows;
  canvas.style.width = `${cols * cell}px`;
  canvas.style.height = `${rows * cell}px`;
  canvas.style.gridRow = `2 / span ${rows}`;
  canvas.style.gridColumn = `2 / span ${cols}`;
  return canvas;
}

// The colours come from 256 steps of the layout's scale: one colour per cell would cost a colour
// string and its parsing for each of tens of thousands of cells, at a difference no eye can see.
function paintCanvas(canvas, matrix, layout) {
  const context = canvas.getContext('2d');
  const image = context.createImageData(matrix.cols, matrix.rows);
  const palette = Array.from({ length: 256 }, (_, i) => rgb(layout.colour(i / 255)));
  matrix.data.forEach((value, i) => {
    const { r, g, b } = Number.isNaN(value) ? rgb(NAN_FILL) : palette[Math.round(layout.position(value) * 255)];
    image.data.set([r, g, b, 255], i * 4);
  });
  context.putImageData(image, 0, 0);
}

// The colour bar from the largest value (top) to the smallest; fill(legend) writes the layout's
// end texts, which the aria-label repeats.
function legend(stops, label) {
  const box = el('div', 'hm-legend');
  box.setAttribute('role', 'img');
  const bar = el('div', 'hm-legend-bar');
  bar.style.background = `linear-gradient(${stops.map(({ colour, offset }) => `${colour} ${offset * 100}%`).join(', ')})`;
  const maxText = el('span', 'hm-legend-max');
  const minText = el('span', 'hm-legend-min');
  box.append(maxText, bar, minText);
  const fill = (texts) => {
    box.setAttribute('aria-label', `${label}: ${texts.minText} … ${texts.maxText}`);
    setText(maxText, texts.maxText);
    setText(minText, texts.minText);
  };
  return { box, fill };
}

// The table alternative of a matrix's layout, in a box that hides it from sight (a table, unlike
// a box, grows to its content whatever its width, and would widen the page) and, when shown,
// scrolls it within the heatmap's width; fill(matrix) writes the values.
function buildTable(matrix, rowLabels, colLabels) {
  const box = el('div', 'hm-table-box sr-only');
  const table = box.appendChild(el('table', 'hm-table'));
  table.append(el('caption', '', `${matrix.name ?? ''} (${matrix.rows}×${matrix.cols})`));
  const head = table.createTHead().insertRow();
  head.append(el('td'));
  colLabels.forEach((label) => head.append(withScope(el('th', '', label), 'col')));
  const body = table.createTBody();
  const cells = [];
  for (let r = 0; r < matrix.rows; r++) {
    const row = body.insertRow();
    row.append(withScope(el('th', '', rowLabels[r]), 'row'));
    for (let c = 0; c < matrix.cols; c++) cells.push(row.appendChild(el('td')));
  }
  const fill = (next) => cells.forEach((cell, index) => setText(cell, fullValue(next, index)));
  return { element: box, fill };
}

function withRole(element, role) {
  element.setAttribute('role', role);
  return element;
}

function withScope(element, scope) {
  element.scope = scope;
  return element;
}
