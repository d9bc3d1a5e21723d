// What a heatmap shows, decided in one place for the page (heatmap.js) and the images (export.js),
// so that the two cannot disagree: the labels' texts, the value range, each cell's colour, text colour and annotation,
// whether annotations and labels show, and the legend's colours and end texts. No DOM: Node tests it.
import { cellText, labelText } from './format.js';
import { translator } from './i18n.js';
import { interpolatorFor, textColourOn } from './palettes.js';

const ENGLISH = translator('en');

// Cell sizes on the page, in CSS px: seaborn-like squares for small matrices, down to a few px.
const MAX_CELL = 64;
const MIN_CELL = 4;
const SIDE_ROOM = 140; // px of the available width left for the row labels and the legend
/** px: the page's annotation font (0.75rem), and the images' text size; fitted annotations never grow past it. */
export const FONT_SIZE = 12;
/** em per character: a text-width estimate that needs no canvas to measure. */
export const CHAR_WIDTH = 0.6;
const CELL_PADDING = 2; // px each side of an annotation
// Smaller cells show no annotations. The page's annotations keep their font size, so it needs
// this much room; the images, which could shrink theirs, follow so as to show what the page shows.
const MIN_TEXT_CELL = 30;
// Annotations that would only fit smaller than this are hidden, not squeezed.
const MIN_TEXT_SIZE = 7;
// Below this the page's 0.72rem labels overlap from row to row.
const MIN_LABEL_CELL = 12;
const LEGEND_DIGITS = 4;
/** The fill of a NaN cell: NaN has no place on the colour scale. */
export const NAN_FILL = '#9e9e9e';
const LEGEND_STOPS = 11;

/**
 * The layout of `matrix` ({ rows, cols, data, name?, palette?, rowLabels?, colLabels?, exact? }).
 * options: t (the locale's translator, which words the labels; English by default), palette
 * ('notebook' | 'colourblind'), role (colour role, default matrix.palette),
 * annotate (default true), precision (significant digits, default 2), and the size of a cell:
 * cellSize (px), or width (px available to the whole heatmap, default 600).
 * `key` is the same for two layouts that differ only in their values.
 */
export function computeLayout(matrix, options = {}) {
  const { palette = 'notebook', role = matrix.palette, annotate = true, precision = 2 } = options;
  const { rows, cols, data } = matrix;
  const cell = options.cellSize ?? cellForWidth(cols, options.width ?? 600);
  const { rowLabels, colLabels } = labelsOf(matrix, options.t);
  const interpolate = interpolatorFor(palette, role);
  const { min, max } = extremes(matrix);
  // ±inf (overflow in the numerics lab) sit at the ends of the scale of the finite values
  const position = (value) =>
    value === Infinity
      ? 1
      : value === -Infinity
        ? 0
        : max.value > min.value
          ? (value - min.value) / (max.value - min.value)
          : 0;

  // Whether annotations fit depends on the longest one, so they are all made up front when they may show.
  const texts = annotate && cell >= MIN_TEXT_CELL ? Array.from(data, (_, i) => cellText(matrix, i, precision)) : null;
  const annotationSize = texts ? fittedSize(cell, texts) : 0;
  const annotated = annotationSize >= MIN_TEXT_SIZE;

  return {
    key: JSON.stringify([
      matrix.name ?? '',
      rows,
      cols,
      rowLabels,
      colLabels,
      palette,
      role,
      annotate,
      precision,
      cell,
    ]),
    rows,
    cols,
    cell,
    rowLabels,
    colLabels,
    labelled: cell >= MIN_LABEL_CELL,
    annotated,
    annotationSize: annotated ? annotationSize : 0,
    min,
    max,
    /** t in [0, 1] of a value on the colour scale (0 when every value is the same) */
    position,
    /** the CSS colour at t */
    colour: interpolate,
    /** Cell i: its colour, the colour of text on it, and its annotation (made even where hidden). */
    cellAt(index) {
      const fill = Number.isNaN(data[index]) ? NAN_FILL : interpolate(position(data[index]));
      return { fill, textColour: textColourOn(fill), text: texts?.[index] ?? cellText(matrix, index, precision) };
    },
    legend: {
      // from the largest value at the top (offset 0) to the smallest at the bottom
      stops: Array.from({ length: LEGEND_STOPS }, (_, i) => {
        const offset = i / (LEGEND_STOPS - 1);
        return { offset, colour: interpolate(1 - offset) };
      }),
      maxText: endText(matrix, max.index),
      minText: endText(matrix, min.index),
    },
  };
}

function cellForWidth(cols, width) {
  return Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((width - SIDE_ROOM) / Math.max(cols, 1))));
}

/** All annotations share one size: the largest, up to FONT_SIZE, at which the longest fits across a cell. */
function fittedSize(cell, texts) {
  const longest = texts.reduce((most, text) => Math.max(most, text.length), 1);
  return Math.min(FONT_SIZE, (cell - 2 * CELL_PADDING) / (CHAR_WIDTH * longest));
}

/**
 * The row and column labels as texts in the language of `t` (English by default): what the
 * heatmap, its table, tooltip and aria labels, and every export show. '0', '1', … where the matrix
 * has none.
 */
export function labelsOf({ rows, cols, rowLabels, colLabels }, t = ENGLISH) {
  const texts = (labels, count) =>
    labels?.map((label) => labelText(label, t)) ?? Array.from({ length: count }, (_, i) => String(i));
  return { rowLabels: texts(rowLabels, rows), colLabels: texts(colLabels, cols) };
}

// The smallest and largest finite cell, { index, value } (index -1 when there is none). NaN and
// the infinities have no place on a scale. Doubles that underflowed all read 0, so among equal doubles the exact text decides:
// the legend then names the smallest weight, not whichever zero came first.
function extremes({ data, exact }) {
  const min = { index: -1, value: NaN };
  const max = { index: -1, value: NaN };
  const order = (i, j) => data[i] - data[j] || exactOrder(exact?.[i]) - exactOrder(exact?.[j]);
  for (let index = 0; index < data.length; index++) {
    if (!Number.isFinite(data[index])) continue;
    if (min.index < 0 || order(index, min.index) < 0) Object.assign(min, { index, value: data[index] });
    if (max.index < 0 || order(index, max.index) > 0) Object.assign(max, { index, value: data[index] });
  }
  return { min, max };
}

// A number in the order of the exact values of equal doubles: 0 without a text, else the text's
// signed log10 magnitude shifted above 0 (float128's smallest magnitude is about 1e-4966).
function exactOrder(text) {
  if (!text) return 0;
  const [mantissa, exponent = 0] = text.toLowerCase().split('e').map(Number);
  if (mantissa === 0) return 0;
  return Math.sign(mantissa) * (1e4 + exponent + Math.log10(Math.abs(mantissa)));
}

/** A legend end: the value to four digits ('%.4g'), from the exact text where there is one. */
function endText(matrix, index) {
  return index < 0 ? '' : cellText(matrix, index, LEGEND_DIGITS);
}
