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
import { bitsText, fullValue } from '../locales/format.js';
import { computeLayout, offScale } from './heatmap-layout.js';

// The font the heatmaps are measured in where the caller names none (components/styles.css's).
const DEFAULT_FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', 'PingFang SC', sans-serif";

const SR_TABLE_LIMIT = 1024; // cells; larger tables are built when asked for
// Above this many cells the colours are painted on a canvas (one pixel per cell, scaled up) and
// the cell elements stay in the DOM unpainted: painting and hit-testing tens of thousands of
// elements would make hover lag, while a canvas redraws nothing when the pointer moves.
const CANVAS_CELLS = 4096;

let nextId = 0;

const ENGLISH = {
  table: 'Table',
  hideTable: 'Hide table',
  numbers: 'Numbers',
  hideNumbers: 'Hide numbers',
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
  heatmapKeys:
    'Arrow keys move between cells; Home and End go to the first and last cell of the row, Ctrl+Home and Ctrl+End to the first and last cell.',
};

// What each element shows, so that drawing it again with the same layout (shape, labels, palette,
// cell size, texts) only rewrites the values that changed: rebuilding the cells makes the browser
// restyle and lay out every one of them, which costs more than the rest of an input edit.
const drawn = new WeakMap(); // element -> { key, figure, update(matrix, layout), current() }
const numbersShown = new WeakMap(); // element -> true where the reader asked for the numbers
const cursors = new WeakMap(); // grid -> { cell(), focus(row, col) }: its keyboard cell

/** The cell [row, col] that keyboard focus is on (or was last on) in the heatmap grid `grid`, or null. */
export function activeCell(grid) {
  return cursors.get(grid)?.cell() ?? null;
}

/** Focuses the heatmap grid `grid` on the cell [row, col], or on the nearest one it has. */
export function focusCell(grid, [row, col]) {
  cursors.get(grid)?.focus(row, col);
}

const measures = new Map(); // font family -> measure(text, size)

/**
 * measure(text, size): the width in px of `text` at `size` px of the font family `font`, measured
 * on a canvas. Digits are measured as zeros: the cells print them in tabular figures, which a
 * canvas cannot select, and tabular digits are as wide as a zero.
 */
export function textMeasure(font) {
  if (!measures.has(font)) {
    const context = document.createElement('canvas').getContext('2d');
    const widths = new Map();
    measures.set(font, (text, size) => {
      const key = `${size} ${text}`;
      if (!widths.has(key)) {
        if (widths.size > 10_000) widths.clear(); // every value ever shown would pile up
        context.font = `${size}px ${font}`;
        widths.set(key, context.measureText(text.replace(/\d/g, '0')).width);
      }
      return widths.get(key);
    });
  }
  return measures.get(font);
}

/**
 * Draws `matrix` ({ rows, cols, data, name?, palette?, rowLabels?, colLabels?, exact? }) into
 * `element`, replacing its content (or, when `element` shows a heatmap of the same layout, only
 * the values that changed).
 * options: palette ('notebook' | 'colourblind'), role (colour role, default matrix.palette),
 * annotate (default true), precision (significant digits, default 2), width (px available),
 * text (labels of the UI: { table, hideTable, numbers, hideNumbers, value, legend }), t (the locale's translator, which
 * words the matrix's structured labels here and in the exports; English by default), font (the
 * CSS font family the cells are drawn in, which sizes them; the element's own where it is in the
 * document, else the stylesheet's).
 */
export function renderHeatmap(element, matrix, options = {}) {
  const text = { ...ENGLISH, ...options.text };
  const font = options.font ?? (element.isConnected ? getComputedStyle(element).fontFamily : DEFAULT_FONT);
  const given = options;
  // the reader asked for the numbers of cells too small for them (numbersToggle): kept over redraws
  options = { ...options, measure: textMeasure(font), numbers: numbersShown.get(element) ?? false };
  options.redraw = () => renderHeatmap(element, drawn.get(element)?.current() ?? matrix, given);
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
  const { rows, cols } = layout;
  let current = matrix;
  let sizes = layout; // the sizes on screen (cellWidth and annotationSize follow the values)
  const id = `hm${++nextId}`;

  const figure = el('figure', 'heatmap');
  const caption = el('figcaption', 'hm-caption');
  caption.append(el('span', 'hm-name', matrix.name ?? ''), el('span', 'hm-shape', ` ${rows}×${cols}`));
  const large = rows * cols > CANVAS_CELLS;
  const { grid, keys } = gridFrame(matrix, layout, large, text.heatmapKeys, id);
  const cells = appendCellRows(grid, layout);
  const canvas = large ? grid.appendChild(canvasOver(rows, cols, layout)) : null;
  const scale = legend(layout.legend.stops, text.legend);
  const spot = spotlight(grid, id, () => sizes);
  const body = el('div', 'hm-body');
  body.append(grid, scale.box, spot.tooltip, keys, spot.highlight);
  figure.append(caption, body);
  const table = tableAlternative(figure, matrix, layout, text, () => current);
  figure.append(
    ...numbersToggle(layout, options, text),
    table.toggle,
    exportMenu(
      figure,
      () => current,
      () => sizes,
      options,
      text,
    ),
  );
  const refreshInteraction = wireInteraction({
    grid,
    spot,
    about: (r, c) => cellAbout(current, layout, text, r, c),
    layout,
    id,
    sizes: () => sizes,
  });

  const update = (next, shown) => {
    current = next;
    sizes = shown;
    paintCells(grid, cells, canvas, next, shown);
    scale.fill(shown.legend);
    table.fill(next);
    refreshInteraction();
  };
  update(matrix, layout);
  return { figure, update, current: () => current };
}

// Where the cells are too small for their numbers (a phone), a button that widens them to show
// the numbers (the heatmap then scrolls sideways), and back. A canvas-painted heatmap has none.
function numbersToggle(layout, options, text) {
  if (!options.numbers && (!layout.crowded || layout.rows * layout.cols > CANVAS_CELLS)) return [];
  const toggle = el('button', 'hm-numbers-toggle', options.numbers ? text.hideNumbers : text.numbers);
  toggle.type = 'button';
  toggle.setAttribute('aria-pressed', String(options.numbers));
  toggle.addEventListener('click', () => {
    const figure = toggle.closest('figure');
    const element = figure?.parentNode;
    if (!element) return;
    numbersShown.set(element, !options.numbers);
    options.redraw();
    element.querySelector('.hm-numbers-toggle')?.focus();
  });
  return [toggle];
}

// The grid with its ARIA grid attributes and its row of column labels, and the description of its
// keys for screen readers (`keys`, which goes beside the grid, not in it).
function gridFrame(matrix, layout, large, keysText, id) {
  const { rows, cols } = layout;
  const grid = el('div', 'hm-grid');
  grid.classList.toggle('hm-large', large);
  grid.classList.toggle('hm-dense', large || layout.cell < 12); // 1px gaps would wash out tiny cells
  grid.classList.toggle('hm-upright', layout.upright);
  grid.style.gridTemplateRows = 'auto'; // the column labels' row, as tall as they are
  grid.style.gridAutoRows = `${layout.cellHeight}px`;
  grid.tabIndex = 0;
  grid.setAttribute('role', 'grid');
  grid.setAttribute('aria-label', `${matrix.name ?? ''} ${rows}×${cols}`);
  const keys = el('span', 'sr-only', keysText);
  keys.id = `${id}-keys`;
  grid.setAttribute('aria-describedby', keys.id);
  grid.setAttribute('aria-rowcount', String(rows + 1));
  grid.setAttribute('aria-colcount', String(cols + 1));

  const header = el('div', 'hm-row');
  header.setAttribute('role', 'row');
  header.append(el('div', 'hm-corner'));
  // the labels on screen may skip some where they would overlap; screen readers get every one
  layout.colLabels.forEach((label, c) =>
    header.append(labelCell('hm-col-label', 'columnheader', label, layout.colTicks[c])),
  );
  grid.append(header);
  return { grid, keys };
}

// Appends a row per matrix row to `grid`: its label, then its cells (each with data-row and
// data-col); returns the cells in the matrix's order, still empty.
function appendCellRows(grid, { rows, cols, rowLabels, rowTicks }) {
  const cells = [];
  const fragment = document.createDocumentFragment();
  for (let r = 0; r < rows; r++) {
    const row = el('div', 'hm-row');
    row.setAttribute('role', 'row');
    row.append(labelCell('hm-row-label', 'rowheader', rowLabels[r], rowTicks[r]));
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
  return cells;
}

// Writes `matrix`'s values into the cells as `shown` lays them out: every cell's data-value, and
// its colours and annotation unless `canvas` paints them. Whether annotations fit, and so the
// columns' width and the text size, depends on the longest one, so it can change with the values.
function paintCells(grid, cells, canvas, matrix, shown) {
  grid.style.gridTemplateColumns = `auto repeat(${shown.cols}, ${shown.cellWidth}px)`;
  grid.style.setProperty('--hm-text-size', `${shown.annotationSize}px`);
  grid.classList.toggle('hm-no-text', !shown.annotated);
  cells.forEach((cellElement, index) => {
    cellElement.dataset.value = fullValue(matrix, index);
    if (!canvas) {
      const { fill, textColour, text } = shown.cellAt(index);
      setText(cellElement, text);
      cellElement.style.backgroundColor = fill;
      cellElement.style.color = textColour;
    }
  });
  if (canvas) paintCanvas(canvas, matrix, shown);
}

// The table alternative's toggle button, with the table itself: in the figure from the start up
// to SR_TABLE_LIMIT cells, else built (from `shown()`, the matrix on screen) when the toggle first
// asks for it. fill(matrix) writes the values into the table where there is one.
function tableAlternative(figure, matrix, { rows, cols, rowLabels, colLabels }, text, shown) {
  const toggle = el('button', 'hm-table-toggle', text.table);
  toggle.type = 'button';
  toggle.setAttribute('aria-expanded', 'false');
  let table = rows * cols <= SR_TABLE_LIMIT ? buildTable(matrix, rowLabels, colLabels) : null;
  if (table) figure.append(table.element);
  toggle.addEventListener('click', () => {
    if (!table) {
      table = buildTable(shown(), rowLabels, colLabels);
      table.fill(shown());
      figure.append(table.element);
    }
    const show = toggle.getAttribute('aria-expanded') !== 'true';
    table.element.classList.toggle('sr-only', !show);
    table.element.tabIndex = show ? 0 : -1; // shown, it may scroll: the keyboard must reach it
    toggle.setAttribute('aria-expanded', String(show));
    toggle.textContent = show ? text.hideTable : text.table;
  });
  return { toggle, fill: (next) => table?.fill(next) };
}

// PNG and SVG of what is shown (in the current theme's colours, at the cell sizes on screen), the
// numbers as CSV, JSON and a .npy file, and the matrix as numpy source for the notebook. `shown()` is the matrix
// on screen at the time, `sizes()` its layout.
function exportMenu(figure, shown, sizes, options, text) {
  const menu = el('details', 'hm-export');
  menu.append(el('summary', '', text.export));
  const status = el('span', 'hm-export-status');
  status.setAttribute('role', 'status');
  const style = getComputedStyle(figure.isConnected ? figure : document.documentElement);
  const imageOptions = () => ({
    t: options.t,
    palette: options.palette,
    role: options.role,
    annotate: options.annotate,
    precision: options.precision,
    measure: options.measure,
    cellSize: sizes().cell,
    cellWidth: sizes().cellWidth,
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

// The tooltip and the highlight over one cell, placed from the grid's geometry rather than from
// each cell's layout, so that a large grid is never measured again: show(r, c, about) writes
// "row · column: full value" (and the value's bits, if any) above the cell (below it where there is
// no room above, and moved sideways to stay in view); hide() hides both.
function spotlight(grid, id, sizes) {
  const gap = grid.classList.contains('hm-dense') ? 0 : 1;
  const tooltip = el('div', 'hm-tooltip');
  tooltip.id = `${id}-tip`;
  tooltip.hidden = true;
  const highlight = el('div', 'hm-highlight');
  highlight.hidden = true;
  const show = (r, c, { row, col, value, bits }) => {
    const { cellWidth, cellHeight } = sizes();
    // read on every show: the columns widen when the values' texts do
    const origin = grid.children[1].children[1]; // cell (0, 0)
    const [x, y] = [origin.offsetLeft + c * (cellWidth + gap), origin.offsetTop + r * (cellHeight + gap)];
    tooltip.textContent = `${row} · ${col}: ${value}`;
    if (bits) tooltip.append(el('span', 'hm-bits', bits));
    tooltip.hidden = false;
    const [left, top] = tooltipPlace(tooltip, x + cellWidth / 2, y, cellHeight);
    tooltip.style.transform = `translate(${left}px, ${top}px)`;
    highlight.hidden = false;
    highlight.style.width = `${cellWidth}px`;
    highlight.style.height = `${cellHeight}px`;
    highlight.style.transform = `translate(${x}px, ${y}px)`;
  };
  const hide = () => (tooltip.hidden = highlight.hidden = true);
  return { tooltip, highlight, show, hide };
}

// Hover and keyboard focus show a cell in `spot` (spotlight's); the keyboard's cell is also the
// grid's aria-activedescendant, labelled "row, column: full value". Returns refresh(), which
// brings the tooltip and that label up to new values.
function wireInteraction({ grid, spot, about, layout, id, sizes }) {
  const { rows, cols } = layout;
  let active = null; // [row, col] under keyboard focus
  let shown = null; // [row, col] the tooltip is over
  const cellAt = (r, c) => grid.children[r + 1]?.children[c + 1];
  const nearest = (r, c) => [Math.min(rows - 1, Math.max(0, r)), Math.min(cols - 1, Math.max(0, c))];
  const label = (r, c) => {
    const { row, col, value, bits } = about(r, c);
    return `${row}, ${col}: ${value}${bits ? `; ${bits}` : ''}`;
  };
  const show = (r, c) => {
    shown = [r, c];
    spot.show(r, c, about(r, c));
  };
  const hide = () => {
    shown = null;
    spot.hide();
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
    const cell = pointedCell(event, layout, sizes());
    if (cell) show(...cell);
  });
  grid.addEventListener('pointerleave', () => (document.activeElement === grid && active ? show(...active) : hide()));
  grid.addEventListener('focus', () => activate(...(active ?? [0, 0])));
  grid.addEventListener('blur', hide);
  grid.addEventListener('keydown', (event) => {
    const move = active && keyMove(event, active, layout);
    if (!move) return;
    event.preventDefault();
    event.stopPropagation(); // these keys move the cell here, not the stage
    activate(...nearest(...move));
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

// What the tooltip and the keyboard's label say of cell (r, c) of `matrix`: its row and column
// labels, its full value, and its bits (a value of the numerics lab: sign, exponent, mantissa).
function cellAbout(matrix, { cols, rowLabels, colLabels }, text, r, c) {
  const index = r * cols + c;
  return { row: rowLabels[r], col: colLabels[c], value: fullValue(matrix, index), bits: bitsText(matrix, index, text) };
}

// The [row, col] under the pointer: a cell element says which it is; on the canvas that paints a
// large grid, the pointer's offset and the cells' `sizes` on screen tell. Null elsewhere.
function pointedCell(event, { rows, cols }, sizes) {
  const target = event.target;
  if (target.classList.contains('hm-cell')) return [Number(target.dataset.row), Number(target.dataset.col)];
  if (!target.classList.contains('hm-canvas')) return null;
  const r = Math.floor(event.offsetY / sizes.cellHeight);
  const c = Math.floor(event.offsetX / sizes.cellWidth);
  return r >= 0 && r < rows && c >= 0 && c < cols ? [r, c] : null;
}

// Where a key moves the keyboard's cell from `active` (possibly off the grid: the caller clamps),
// or null for a key the grid leaves alone. Arrows move by one cell, Home and End to the row's
// first and last, Ctrl+Home and Ctrl+End to the grid's (as ARIA's grid pattern has them).
function keyMove(event, [r, c], { rows, cols }) {
  if (event.altKey || event.metaKey) return null;
  const corner = event.ctrlKey;
  const moves = {
    ArrowUp: [r - 1, c],
    ArrowDown: [r + 1, c],
    ArrowLeft: [r, c - 1],
    ArrowRight: [r, c + 1],
    Home: [corner ? 0 : r, 0],
    End: [corner ? rows - 1 : r, cols - 1],
  };
  const move = moves[event.key];
  return !move || (corner && event.key.startsWith('Arrow')) ? null : move;
}

// Where the tooltip goes, relative to the heatmap body, for a cell whose top centre is at
// (centre, top) and whose height is `height`: above the cell, else below it; centred on it, but
// moved sideways to stay inside both the body (which scrolls, and clips) and the window.
function tooltipPlace(tooltip, centre, top, height) {
  const body = tooltip.offsetParent;
  const box = body.getBoundingClientRect();
  const width = tooltip.offsetWidth;
  const margin = 4;
  const first = Math.max(box.left, 0) - box.left + body.scrollLeft + margin;
  const last = Math.min(box.right, document.documentElement.clientWidth) - box.left + body.scrollLeft - margin - width;
  const left = Math.max(first, Math.min(last, centre - width / 2));
  const above = top - tooltip.offsetHeight - margin;
  return [left, above >= body.scrollTop ? above : top + height + margin];
}

// A canvas over the (unpainted) cell elements, one pixel per cell, scaled up without smoothing by CSS.
function canvasOver(rows, cols, { cellWidth, cellHeight }) {
  const canvas = el('canvas', 'hm-canvas');
  canvas.width = cols;
  canvas.height = rows;
  canvas.style.width = `${cols * cellWidth}px`;
  canvas.style.height = `${rows * cellHeight}px`;
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
    const special = offScale(value);
    const { r, g, b } = special ? rgb(special) : palette[Math.round(layout.position(value, i) * 255)];
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

// A row or column header: `label` for screen readers, `shown` (the label, or '' where the labels
// are thinned out) on screen.
function labelCell(className, role, label, shown) {
  const element = el('div', className, shown);
  element.setAttribute('role', role);
  if (shown !== label) element.setAttribute('aria-label', label);
  return element;
}

function withScope(element, scope) {
  element.scope = scope;
  return element;
}
