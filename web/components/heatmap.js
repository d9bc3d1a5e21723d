// An annotated heatmap of one matrix, drawn as a CSS grid of cells (each with data-row, data-col
// and data-value), with a colour legend, a tooltip on hover and keyboard focus, and a table
// alternative for screen readers. Values print as seaborn's annot=True does ('.2g').
import { rgb } from 'd3-color';

import { el } from './dom.js';
import {
  downloadFile,
  matrixToCsv,
  matrixToJson,
  matrixToNumpy,
  matrixToPngBlob,
  matrixToSvg,
  safeFileName,
} from './export.js';
import { cellText, fullValue } from './format.js';
import { interpolatorFor, textColourOn } from './palettes.js';

const MAX_CELL = 64; // px; seaborn-like square cells for small matrices
const MIN_CELL = 4;
const MIN_TEXT_CELL = 30; // below this the annotation no longer fits
const MIN_LABEL_CELL = 12;
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
  copied: 'Copied to the clipboard.',
  copyFailed: 'Could not copy.',
};

/**
 * Draws `matrix` ({ rows, cols, data, name?, palette?, rowLabels?, colLabels?, exact? }) into
 * `element`, replacing its content.
 * options: palette ('notebook' | 'colourblind'), role (colour role, default matrix.palette),
 * annotate (default true), precision (significant digits, default 2), width (px available),
 * text (labels of the UI: { table, hideTable, value, legend }).
 */
export function renderHeatmap(element, matrix, options = {}) {
  const { rows, cols } = matrix;
  const text = { ...ENGLISH, ...options.text };
  const rowLabels = matrix.rowLabels ?? Array.from({ length: rows }, (_, i) => String(i));
  const colLabels = matrix.colLabels ?? Array.from({ length: cols }, (_, j) => String(j));
  const interpolate = interpolatorFor(options.palette ?? 'notebook', options.role ?? matrix.palette);
  const { min, max } = range(matrix.data);
  const scale = (value) => interpolate(max > min ? (value - min) / (max - min) : 0);

  const width = options.width ?? element.clientWidth ?? 600;
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((width - 140) / Math.max(cols, 1))));
  const id = `hm${++nextId}`;

  const figure = el('figure', 'heatmap');
  const caption = el('figcaption', 'hm-caption');
  caption.append(el('span', 'hm-name', matrix.name ?? ''), el('span', 'hm-shape', ` ${rows}×${cols}`));
  figure.append(caption);

  const body = el('div', 'hm-body');
  const grid = el('div', 'hm-grid');
  grid.classList.toggle('hm-no-text', options.annotate === false || cell < MIN_TEXT_CELL);
  const large = rows * cols > CANVAS_CELLS;
  grid.classList.toggle('hm-no-labels', cell < MIN_LABEL_CELL);
  grid.classList.toggle('hm-large', large);
  grid.classList.toggle('hm-dense', large || cell < MIN_LABEL_CELL); // 1px gaps would wash out tiny cells
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

  const fragment = document.createDocumentFragment();
  for (let r = 0; r < rows; r++) {
    const row = el('div', 'hm-row');
    row.setAttribute('role', 'row');
    row.append(withRole(el('div', 'hm-row-label', rowLabels[r]), 'rowheader'));
    for (let c = 0; c < cols; c++) {
      const index = r * cols + c;
      const cellElement = el('div', 'hm-cell', large ? '' : cellText(matrix, index, options.precision));
      cellElement.setAttribute('role', 'gridcell');
      cellElement.dataset.row = String(r);
      cellElement.dataset.col = String(c);
      cellElement.dataset.value = fullValue(matrix, index);
      if (!large) {
        const colour = scale(matrix.data[index]);
        cellElement.style.backgroundColor = colour;
        cellElement.style.color = textColourOn(colour);
      }
      if (matrix.exact?.[index]) cellElement.classList.add('hm-exact');
      row.append(cellElement);
    }
    fragment.append(row);
  }
  grid.append(fragment);
  if (large)
    grid.append(paintCanvas(matrix, (value) => (max > min ? (value - min) / (max - min) : 0), interpolate, cell));

  const tooltip = el('div', 'hm-tooltip');
  tooltip.id = `${id}-tip`;
  tooltip.hidden = true;
  body.append(grid, legend(min, max, matrix, interpolate, text.legend), tooltip);
  figure.append(body);

  const tableToggle = el('button', 'hm-table-toggle', text.table);
  tableToggle.type = 'button';
  tableToggle.setAttribute('aria-expanded', 'false');
  let table = rows * cols <= SR_TABLE_LIMIT ? buildTable(matrix, rowLabels, colLabels) : null;
  if (table) figure.append(table);
  tableToggle.addEventListener('click', () => {
    table ??= figure.appendChild(buildTable(matrix, rowLabels, colLabels));
    const show = tableToggle.getAttribute('aria-expanded') !== 'true';
    table.classList.toggle('sr-only', !show);
    tableToggle.setAttribute('aria-expanded', String(show));
    tableToggle.textContent = show ? text.hideTable : text.table;
  });
  figure.append(tableToggle, exportMenu(figure, matrix, options, text));

  const highlight = el('div', 'hm-highlight');
  highlight.hidden = true;
  body.append(highlight);
  wireInteraction({ grid, tooltip, highlight, matrix, rowLabels, colLabels, id, cell });
  element.replaceChildren(figure);
  return figure;
}

// PNG and SVG of what is shown (in the current theme's colours), the numbers as CSV and JSON, and
// the matrix as numpy source for the notebook.
function exportMenu(figure, matrix, options, text) {
  const menu = el('details', 'hm-export');
  menu.append(el('summary', '', text.export));
  const status = el('span', 'hm-export-status');
  status.setAttribute('role', 'status');
  const style = getComputedStyle(figure.isConnected ? figure : document.documentElement);
  const imageOptions = () => ({
    palette: options.palette,
    role: options.role ?? matrix.palette,
    annotate: options.annotate,
    precision: options.precision,
    background: style.getPropertyValue('--as-bg').trim() || '#ffffff',
    foreground: style.getPropertyValue('--as-text').trim() || '#1d1d24',
  });
  const file = safeFileName(matrix.name);
  const actions = [
    [
      'png',
      text.exportPng,
      async () => downloadFile(`${file}.png`, await matrixToPngBlob(matrix, imageOptions()), 'image/png'),
    ],
    ['svg', text.exportSvg, () => downloadFile(`${file}.svg`, matrixToSvg(matrix, imageOptions()), 'image/svg+xml')],
    ['csv', text.exportCsv, () => downloadFile(`${file}.csv`, matrixToCsv(matrix), 'text/csv')],
    ['json', text.exportJson, () => downloadFile(`${file}.json`, matrixToJson(matrix), 'application/json')],
    [
      'numpy',
      text.exportNumpy,
      () =>
        navigator.clipboard.writeText(matrixToNumpy(matrix)).then(
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
function wireInteraction({ grid, tooltip, highlight, matrix, rowLabels, colLabels, id, cell }) {
  const gap = grid.classList.contains('hm-dense') ? 0 : 1;
  let origin = null; // top-left of cell (0, 0), relative to the heatmap body
  let active = null; // [row, col] under keyboard focus
  const cellAt = (r, c) => grid.children[r + 1]?.children[c + 1];
  const show = (r, c) => {
    origin ??= [cellAt(0, 0).offsetLeft, cellAt(0, 0).offsetTop];
    const [x, y] = [origin[0] + c * (cell + gap), origin[1] + r * (cell + gap)];
    tooltip.textContent = `${rowLabels[r]} · ${colLabels[c]}: ${fullValue(matrix, r * matrix.cols + c)}`;
    tooltip.hidden = false;
    tooltip.style.transform = `translate(${x + cell / 2}px, ${y}px) translate(-50%, -110%)`;
    highlight.hidden = false;
    highlight.style.width = highlight.style.height = `${cell}px`;
    highlight.style.transform = `translate(${x}px, ${y}px)`;
  };
  const hide = () => (tooltip.hidden = highlight.hidden = true);
  const activate = (r, c) => {
    const previous = active && cellAt(...active);
    previous?.removeAttribute('id');
    previous?.removeAttribute('aria-label');
    active = [r, c];
    const element = cellAt(r, c);
    element.id = `${id}-active`;
    element.setAttribute('aria-label', `${rowLabels[r]}, ${colLabels[c]}: ${element.dataset.value}`);
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
    if (r >= 0 && r < matrix.rows && c >= 0 && c < matrix.cols) show(r, c);
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
    activate(
      Math.min(matrix.rows - 1, Math.max(0, active[0] + move[0])),
      Math.min(matrix.cols - 1, Math.max(0, active[1] + move[1])),
    );
  });
}

// One pixel per cell, scaled up without smoothing by CSS, over the (unpainted) cell elements.
function paintCanvas(matrix, position, interpolate, cell) {
  const canvas = el('canvas', 'hm-canvas');
  canvas.width = matrix.cols;
  canvas.height = matrix.rows;
  canvas.style.width = `${matrix.cols * cell}px`;
  canvas.style.height = `${matrix.rows * cell}px`;
  canvas.style.gridRow = `2 / span ${matrix.rows}`;
  canvas.style.gridColumn = `2 / span ${matrix.cols}`;
  const context = canvas.getContext('2d');
  const image = context.createImageData(matrix.cols, matrix.rows);
  const palette = Array.from({ length: 256 }, (_, i) => rgb(interpolate(i / 255)));
  matrix.data.forEach((value, i) => {
    const { r, g, b } = palette[Math.round(position(value) * 255)];
    image.data.set([r, g, b, 255], i * 4);
  });
  context.putImageData(image, 0, 0);
  return canvas;
}

function legend(min, max, matrix, interpolate, label) {
  const box = el('div', 'hm-legend');
  box.setAttribute('aria-label', `${label}: ${min} … ${max}`);
  box.setAttribute('role', 'img');
  const bar = el('div', 'hm-legend-bar');
  const stops = Array.from({ length: 11 }, (_, i) => interpolate(1 - i / 10));
  bar.style.background = `linear-gradient(${stops.join(', ')})`;
  const exactMin = matrix.exact?.find(Boolean);
  box.append(
    el('span', 'hm-legend-max', shortNumber(max)),
    bar,
    el('span', 'hm-legend-min', exactMin && min === 0 ? exactMin : shortNumber(min)),
  );
  return box;
}

function buildTable(matrix, rowLabels, colLabels) {
  const table = el('table', 'hm-table sr-only');
  table.append(el('caption', '', `${matrix.name ?? ''} (${matrix.rows}×${matrix.cols})`));
  const head = table.createTHead().insertRow();
  head.append(el('td'));
  colLabels.forEach((label) => head.append(withScope(el('th', '', label), 'col')));
  const body = table.createTBody();
  for (let r = 0; r < matrix.rows; r++) {
    const row = body.insertRow();
    row.append(withScope(el('th', '', rowLabels[r]), 'row'));
    for (let c = 0; c < matrix.cols; c++) row.append(el('td', '', fullValue(matrix, r * matrix.cols + c)));
  }
  return table;
}

function range(data) {
  let min = Infinity;
  let max = -Infinity;
  for (const value of data) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { min, max };
}

function shortNumber(value) {
  return Number.isInteger(value) ? String(value) : value.toPrecision(4).replace(/\.?0+(e|$)/, '$1');
}

function withRole(element, role) {
  element.setAttribute('role', role);
  return element;
}

function withScope(element, scope) {
  element.scope = scope;
  return element;
}
