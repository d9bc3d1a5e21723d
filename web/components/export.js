// Exports of one matrix: CSV, JSON and numpy text for the numbers, SVG and PNG for the heatmap.
// The images draw the page's heatmap as heatmap-layout.js lays it out: title, column labels above,
// row labels on the left, annotated cells scaled min..max, and a vertical legend from max (top) to
// min (bottom).
// Everything but matrixToCanvas, matrixToPngBlob and downloadFile runs without a DOM.
import { fullValue } from '../locales/format.js';
import { computeLayout, estimateWidth, FONT_SIZE, LABEL_SIZE, labelsOf } from './heatmap-layout.js';

const MAX_GRID = 1800; // px of cells per side, so the PNG at its default 2x scale stays under ~4000 px
const TITLE_SIZE = 14;
const PAD = 12;
const GAP = 6;
const LEGEND_GAP = 16;
const LEGEND_WIDTH = 16;
const MIN_LEGEND_HEIGHT = 64; // a one-row matrix still gets a legend with room for both labels
const CANVAS_ALIGN = { start: 'left', middle: 'center', end: 'right' };

/**
 * CSV with a header row of column labels and a label column, worded by `t` as on screen; values
 * at full precision.
 */
export function matrixToCsv(matrix, t) {
  const { rowLabels, colLabels } = labelsOf(matrix, t);
  const lines = [
    ['', ...colLabels],
    ...grid(matrix, (i) => fullValue(matrix, i)).map((row, r) => [rowLabels[r], ...row]),
  ];
  return lines.map((fields) => `${fields.map(csvField).join(',')}\n`).join('');
}

/**
 * JSON of the values as nested rows, with the labels worded by `t`; `exact` (null where the double
 * is exact) only when needed.
 */
export function matrixToJson(matrix, t) {
  const { rows, cols } = matrix;
  const result = {
    name: matrix.name ?? '',
    rows,
    cols,
    ...labelsOf(matrix, t),
    values: grid(matrix, (i) => matrix.data[i]),
  };
  if (hasExact(matrix)) result.exact = grid(matrix, (i) => matrix.exact[i] || null);
  return JSON.stringify(result, null, 2);
}

/** Python source for the matrix. Values below the double range stay text for numpy's float128. */
export function matrixToNumpy(matrix) {
  const exact = hasExact(matrix);
  const literal = (i) => (exact && matrix.exact[i] ? `'${matrix.exact[i]}'` : pythonFloat(matrix.data[i]));
  const rows = grid(matrix, literal).map((row) => `[${row.join(', ')}]`);
  return `np.array([${rows.join(`,\n${' '.repeat('np.array(['.length)}`)}]${exact ? ', dtype=np.float128' : ''})`;
}

/**
 * The geometry shared by the SVG and PNG exports, in CSS px: computeLayout's heatmap (what the page
 * shows) placed on an image. Texts are { x, y, text, size, anchor, angle, colour } with y at the
 * text's vertical centre and anchor 'start' | 'middle' | 'end'. options: those of computeLayout
 * (t words the labels, measure sizes the texts), with cellSize (default 48) shrunk to fit MAX_GRID
 * (cellWidth, the page's, is then laid out again), and fontFamily, background, foreground.
 */
export function heatmapLayout(matrix, options = {}) {
  const {
    cellSize = 48,
    fontFamily = 'system-ui, sans-serif',
    background = '#ffffff',
    foreground = '#1d1d24',
  } = options;
  const { rows, cols } = matrix;
  const measure = options.measure ?? estimateWidth;
  const cell = Math.max(1, Math.min(cellSize, Math.floor(MAX_GRID / Math.max(rows, cols, 1))));
  const shown = computeLayout(matrix, {
    ...options,
    cellSize: cell,
    cellWidth: cell === cellSize ? options.cellWidth : undefined,
  });
  const { cellWidth, cellHeight, upright } = shown;
  const text = (x, y, content, size, anchor, colour = foreground, angle = 0) => ({
    x,
    y,
    text: content,
    size,
    anchor,
    angle,
    colour,
  });

  // Whole-pixel origin: fractional cell edges leave anti-aliased seams on the canvas.
  const gridX = Math.ceil(PAD + (rows ? shown.rowLabelWidth + GAP : 0));
  const gridY = Math.ceil(PAD + TITLE_SIZE + GAP + (cols ? (upright ? shown.colLabelWidth : LABEL_SIZE) + GAP : 0));

  const cells = Array.from(matrix.data, (_, i) => {
    const { fill, textColour, text: annotation } = shown.cellAt(i);
    const [x, y] = [gridX + (i % cols) * cellWidth, gridY + Math.floor(i / cols) * cellHeight];
    return { x, y, w: cellWidth, h: cellHeight, fill, textColour, text: shown.annotated ? annotation : '' };
  });

  const legend = {
    x: gridX + cols * cellWidth + LEGEND_GAP,
    y: gridY,
    w: LEGEND_WIDTH,
    h: Math.max(rows * cellHeight, MIN_LEGEND_HEIGHT),
    stops: shown.legend.stops,
  };
  const legendTextX = legend.x + legend.w + GAP;
  legend.max = text(legendTextX, legend.y + FONT_SIZE / 2, shown.legend.maxText, FONT_SIZE, 'start');
  legend.min = text(legendTextX, legend.y + legend.h - FONT_SIZE / 2, shown.legend.minText, FONT_SIZE, 'start');

  const title = [matrix.name, `${rows}×${cols}`].filter(Boolean).join(' ');
  const legendRight =
    legendTextX + Math.max(...[legend.max.text, legend.min.text].map((end) => measure(end, FONT_SIZE)));
  return {
    width: Math.ceil(Math.max(legendRight, PAD + measure(title, TITLE_SIZE)) + PAD),
    height: gridY + legend.h + PAD,
    fontFamily,
    background,
    foreground,
    annotationSize: shown.annotationSize,
    title: text(PAD, PAD + TITLE_SIZE / 2, title, TITLE_SIZE, 'start'),
    // the labels the page shows: every one, or every n-th where they would overlap
    rowLabels: shown.rowTicks.flatMap((label, r) =>
      label ? [text(gridX - GAP, gridY + (r + 0.5) * cellHeight, label, LABEL_SIZE, 'end')] : [],
    ),
    colLabels: shown.colTicks.flatMap((label, c) => {
      const x = gridX + (c + 0.5) * cellWidth;
      if (!label) return [];
      return upright
        ? [text(x, gridY - GAP, label, LABEL_SIZE, 'start', foreground, -90)]
        : [text(x, gridY - GAP - LABEL_SIZE / 2, label, LABEL_SIZE, 'middle')];
    }),
    cells,
    legend,
  };
}

/** A standalone SVG document of the heatmap. */
export function matrixToSvg(matrix, options) {
  const layout = heatmapLayout(matrix, options);
  const { width, height, legend } = layout;
  const stops = legend.stops.map(
    ({ offset, colour }) => `<stop offset="${num(offset)}" stop-color="${escapeXml(colour)}"/>`,
  );
  const rect = ({ x, y, w, h }) => `x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}"`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(layout.fontFamily)}">`,
    `<title>${escapeXml(layout.title.text)}</title>`,
    `<defs><linearGradient id="legend" x1="0" y1="0" x2="0" y2="1">${stops.join('')}</linearGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="${escapeXml(layout.background)}"/>`,
    ...layout.cells.map((cell) => `<rect class="cell" ${rect(cell)} fill="${escapeXml(cell.fill)}"/>`),
    `<rect class="legend" ${rect(legend)} fill="url(#legend)"/>`,
    ...textsOf(layout).map(svgText),
    '</svg>\n',
  ].join('\n');
}

/** Draws the heatmap on a canvas at options.scale device pixels per px (default 2). */
function matrixToCanvas(matrix, options = {}, canvas = document.createElement('canvas')) {
  const layout = heatmapLayout(matrix, options);
  const { width, height, legend } = layout;
  const scale = options.scale ?? 2;
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const context = canvas.getContext('2d');
  context.scale(scale, scale);
  context.fillStyle = layout.background;
  context.fillRect(0, 0, width, height);
  for (const { x, y, w, h, fill } of layout.cells) {
    context.fillStyle = fill;
    context.fillRect(x, y, w, h);
  }
  const gradient = context.createLinearGradient(0, legend.y, 0, legend.y + legend.h);
  for (const { offset, colour } of legend.stops) gradient.addColorStop(offset, colour);
  context.fillStyle = gradient;
  context.fillRect(legend.x, legend.y, legend.w, legend.h);
  context.textBaseline = 'middle';
  for (const { x, y, text, size, anchor, angle, colour } of textsOf(layout)) {
    context.save();
    context.font = `${size}px ${layout.fontFamily}`;
    context.fillStyle = colour;
    context.textAlign = CANVAS_ALIGN[anchor];
    context.translate(x, y);
    context.rotate((angle * Math.PI) / 180);
    context.fillText(text, 0, 0);
    context.restore();
  }
  return canvas;
}

/** The heatmap as a PNG. */
export function matrixToPngBlob(matrix, options) {
  const canvas = matrixToCanvas(matrix, options);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

/** Saves a Blob or string through a temporary download link. */
export function downloadFile(filename, content, type = 'application/octet-stream') {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename, hidden: true });
  document.body.append(link); // some browsers ignore clicks on detached links
  link.click();
  link.remove();
  // Revoking at once can cancel a download that the browser starts asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file-name-safe slug of a matrix name: 'scaled scores' -> 'scaled_scores'. */
export function safeFileName(name) {
  const slug = String(name ?? '')
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 100);
  return slug || 'matrix';
}

/** The cells as nested rows, each mapped through cell(index). */
function grid({ rows, cols }, cell) {
  return Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => cell(r * cols + c)));
}

function hasExact(matrix) {
  return matrix.exact?.some(Boolean) ?? false;
}

function csvField(field) {
  const text = String(field);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function pythonFloat(value) {
  if (Number.isNaN(value)) return 'np.nan';
  if (!Number.isFinite(value)) return value > 0 ? 'np.inf' : '-np.inf';
  return String(value);
}

function textsOf(layout) {
  const { cells, annotationSize: size } = layout;
  const annotations = cells
    .filter((cell) => cell.text)
    .map(({ x, y, w, h, text, textColour }) => ({
      x: x + w / 2,
      y: y + h / 2,
      text,
      size,
      anchor: 'middle',
      angle: 0,
      colour: textColour,
    }));
  return [layout.title, ...layout.rowLabels, ...layout.colLabels, layout.legend.max, layout.legend.min, ...annotations];
}

function svgText({ x, y, text, size, anchor, angle, colour }) {
  const rotate = angle ? ` transform="rotate(${angle} ${num(x)} ${num(y)})"` : '';
  // dy centres the text vertically in every renderer; dominant-baseline is not universally supported.
  return `<text x="${num(x)}" y="${num(y)}" dy="0.35em" font-size="${num(size)}" text-anchor="${anchor}" fill="${escapeXml(colour)}"${rotate}>${escapeXml(String(text))}</text>`;
}

function num(value) {
  return String(Math.round(value * 100) / 100);
}

function escapeXml(text) {
  const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return text.replace(/[&<>"']/g, (character) => entities[character]);
}
