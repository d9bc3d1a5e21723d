// What a heatmap shows, decided in one place for the page (heatmap.js) and the images (export.js),
// so that the two cannot disagree: the labels' texts, the value range, each cell's colour, text colour and annotation,
// the digits a panel prints, the cells' and annotations' sizes (from the texts, measured), which
// labels show and which way they read, and the legend's colours and end texts. No DOM: Node tests
// it, with widths estimated where the page measures them.
import { cellText, labelText, pythonG } from '../locales/format.js';
import { translator } from './i18n.js';
import { interpolatorFor, textColourOn } from './palettes.js';

const ENGLISH = translator('en');

// Cell sizes on the page, in CSS px: seaborn-like squares for small matrices, down to a few px.
const MAX_CELL = 64;
const MIN_CELL = 4;
const SIDE_ROOM = 140; // px of the available width left for the row labels and the legend
/** px: the page's annotation font (0.75rem), and the images' text size; fitted annotations never grow past it. */
export const FONT_SIZE = 12;
/** px: the page's row and column labels (0.72rem). */
export const LABEL_SIZE = 11.52;
/** em per character: the text-width estimate used where no canvas can measure (Node). */
export const CHAR_WIDTH = 0.6;
const CELL_PADDING = 2; // px each side of an annotation
const CELL_GAP = 1; // px between cells (the page's --as-cell-gap)
const LABEL_GAP = 6; // px between the row labels and the cells
// px right of the cells: the page's 0.75rem gap, the legend bar and its end texts ('1.886e+64')
const LEGEND_ROOM = 70;
// Smaller cells show no annotations. The page's annotations keep their font size, so it needs
// this much room; the images, which could shrink theirs, follow so as to show what the page shows.
const MIN_TEXT_CELL = 30;
// Annotations are never squeezed below this: a cell that is too narrow for them at this size
// widens instead (the heatmap then scrolls sideways on a small screen).
const MIN_TEXT_SIZE = 9;
// Below this the labels overlap from row to row (or, turned upright, from column to column).
const MIN_LABEL_CELL = 14;
// Up to this many rows, rows grow to MIN_LABEL_CELL so that every row keeps its label (the tokens
// of a sentence against 64 hidden units); more rows keep small cells and label every n-th row.
const LABELLED_ROWS = 64;
const LEGEND_DIGITS = 4;
// Significant digits a panel of precisions may use to show how the precisions differ.
const MAX_DIGITS = 4;
/** The mark after a value a double cannot hold, shown with its float128 text. */
export const EXACT_MARK = '†';
/** The fill of a NaN cell: NaN has no place on the colour scale. */
export const NAN_FILL = '#9e9e9e';
/** The fill of a −∞ cell (a masked score): off the scale too, darker than any colour on it. */
export const MASKED_FILL = '#263238';
/** A cell's fill off the colour scale (NaN, −∞), or null for a value on it. */
export const offScale = (value) => (Number.isNaN(value) ? NAN_FILL : value === -Infinity ? MASKED_FILL : null);
const LEGEND_STOPS = 11;
/** The measures that are better low: the alignment error rate, the share looking elsewhere. */
export const LOWER_IS_BETTER = new Set(['aer', 'insteadShare']);

// A panel of measures (every column a metric, each in 0 … 1: exact match, AER, BLEU / 100) has no
// scale of its own: each value sits on the fixed scale of its measure, the palette's strong end
// where the measure is good (high, or low for LOWER_IS_BETTER), so that a 1 × 1 panel, or measures
// close together, are not stretched across the palette. The column's metrics, or null.
function measuresOf({ cols, colLabels }) {
  return colLabels?.length === cols && colLabels.every((label) => label?.metric)
    ? colLabels.map((label) => label.metric)
    : null;
}

// A measure's text: seaborn's 2 significant digits, or more where those would round it to a value
// it did not reach (0.996 is not 1, 0.0004 not 0).
function measureText(value) {
  for (let digits = 2; digits < 6; digits++) {
    const text = pythonG(value, digits);
    if (Number(text) !== 1 && Number(text) !== 0) return text;
    if (Number(text) === value) return text;
  }
  return pythonG(value, 6);
}

/** The width in px of `text` at `size` px without a canvas: CHAR_WIDTH em per character. */
export function estimateWidth(text, size) {
  return CHAR_WIDTH * size * text.length;
}

/**
 * The layout of `matrix` ({ rows, cols, data, name?, palette?, rowLabels?, colLabels?, exact? }).
 * options: t (the locale's translator, which words the labels; English by default), palette
 * ('notebook' | 'colourblind'), role (colour role, default matrix.palette), annotate (default
 * true), precision (significant digits; by default 2, seaborn's, or what a panel of precisions
 * needs: see panelDigits), measure(text, size) (px; the page measures its own font, Node
 * estimates), and the size of a cell: cellSize (px, its height, and its width unless cellWidth
 * is given), or width (px available to the whole heatmap, default 600).
 * Annotations and labels are sized from their texts: a cell widens to fit its annotation, the
 * annotation shrinks to MIN_TEXT_SIZE before the cells outgrow the width, column labels wider
 * than a cell turn upright, and labels that would overlap show every n-th one.
 * `key` is the same for two layouts that differ only in their values (and so in the sizes that
 * follow from the texts: cellWidth, annotationSize).
 */
export function computeLayout(matrix, options = {}) {
  const { palette = 'notebook', role = matrix.palette, annotate = true, measure = estimateWidth } = options;
  const precision = options.precision ?? panelDigits(matrix);
  const { rows, cols, data } = matrix;
  // `numbers`: cells wide enough for their numbers, however narrow the page (it scrolls sideways)
  const fitting = options.cellSize ?? cellForWidth(cols, options.width ?? 600);
  const cell = options.numbers ? Math.max(fitting, MIN_TEXT_CELL) : fitting;
  const cellHeight = cell < MIN_LABEL_CELL && rows <= LABELLED_ROWS ? MIN_LABEL_CELL : cell;
  const { rowLabels, colLabels } = labelsOf(matrix, options.t);
  const interpolate = interpolatorFor(palette, role);
  const { min, max } = extremes(matrix);
  const measures = measuresOf(matrix);
  const t = options.t ?? ENGLISH;
  const scaleText = (end) => t(`labels.scale.${end}`);
  // Weights that are probabilities (the weights role, every value in 0 … 1) are drawn from 0 to
  // their largest: stretched from their smallest, weights spread almost evenly would show one
  // slightly smaller weight as if it were none.
  const probabilities = role === 'weights' && !measures && min.value >= 0 && max.value <= 1;
  // +inf (overflow in the numerics lab) sits at the top of the scale of the finite values; −inf
  // (a masked score, or overflow) is off it (offScale); a measure on its own scale (measuresOf)
  const position = (value, index) => {
    if (measures && index !== undefined) {
      const share = Math.min(1, Math.max(0, value));
      return LOWER_IS_BETTER.has(measures[index % cols]) ? 1 - share : share;
    }
    if (probabilities) return max.value > 0 ? value / max.value : 0;
    return value === Infinity
      ? 1
      : value === -Infinity
        ? 0
        : max.value > min.value
          ? (value - min.value) / (max.value - min.value)
          : 0;
  };

  // Whether annotations fit depends on the longest one, so they are all made up front when they may show.
  const annotation = (i) =>
    measures ? measureText(data[i]) : cellText(matrix, i, precision) + (matrix.exact?.[i] ? EXACT_MARK : '');
  const texts = annotate && cell >= MIN_TEXT_CELL ? Array.from(data, (_, i) => annotation(i)) : null;
  const rowLabelWidth = widest(rowLabels, LABEL_SIZE, measure);
  // the width a column may take before the heatmap outgrows `width` (or the cellWidth given)
  const room =
    options.cellWidth ??
    (options.cellSize === undefined
      ? Math.max(
          cell,
          Math.floor(((options.width ?? 600) - rowLabelWidth - LABEL_GAP - LEGEND_ROOM) / Math.max(cols, 1)) - CELL_GAP,
        )
      : cell);
  const { cellWidth, annotationSize } = texts
    ? fitted(cell, room, widest(texts, FONT_SIZE, measure))
    : { cellWidth: options.cellWidth ?? cell, annotationSize: 0 };

  const colLabelWidth = widest(colLabels, LABEL_SIZE, measure);
  const upright = colLabelWidth > cellWidth - 4; // as seaborn turns column labels that would overlap
  const rowTicks = ticks(rowLabels, cellHeight);
  const colTicks = upright ? ticks(colLabels, cellWidth) : colLabels;

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
    cellWidth,
    cellHeight,
    rowLabels,
    colLabels,
    /** the labels shown beside the cells: every label, or every n-th where they would overlap ('' between) */
    rowTicks,
    colTicks,
    /** whether the column labels read upright (bottom to top) */
    upright,
    /** px: the widest row label and (upright) column label at LABEL_SIZE */
    rowLabelWidth,
    colLabelWidth,
    /** px: the heatmap's width with its row labels and legend */
    width: Math.ceil(rowLabelWidth + LABEL_GAP + cols * (cellWidth + CELL_GAP) + LEGEND_ROOM),
    annotated: annotationSize > 0,
    /** whether the cells are too small for their numbers (`numbers` would show them) */
    crowded: annotate && fitting < MIN_TEXT_CELL,
    annotationSize,
    precision,
    min,
    max,
    /** t in [0, 1] of a value (of cell `index`, in a panel of measures) on the colour scale (0 when every value is the same) */
    position,
    /** the CSS colour at t */
    colour: interpolate,
    /** Cell i: its colour, the colour of text on it, and its annotation (made even where hidden). */
    cellAt(index) {
      const fill = offScale(data[index]) ?? interpolate(position(data[index], index));
      return { fill, textColour: textColourOn(fill), text: texts?.[index] ?? annotation(index) };
    },
    legend: {
      // from the largest value at the top (offset 0) to the smallest at the bottom
      stops: Array.from({ length: LEGEND_STOPS }, (_, i) => {
        const offset = i / (LEGEND_STOPS - 1);
        return { offset, colour: interpolate(1 - offset) };
      }),
      // a panel of measures: its scale runs from the best to the worst value of each measure; one
      // of probabilities from its largest down to 0 (or its smallest when that is 0, whose exact
      // text may say it is not)
      maxText: measures ? scaleText('best') : endText(matrix, max.index),
      minText: measures ? scaleText('worst') : probabilities && min.value > 0 ? '0' : endText(matrix, min.index),
    },
  };
}

function cellForWidth(cols, width) {
  return Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((width - SIDE_ROOM) / Math.max(cols, 1))));
}

// All annotations share one size and every column one width. The longest annotation (`longest`
// px wide at FONT_SIZE) shows at FONT_SIZE, in a cell widened to fit it where `room` allows;
// else at the size that fits `room`, but never below MIN_TEXT_SIZE: the cell widens to fit that.
function fitted(cell, room, longest) {
  const inside = (width) => width - 2 * CELL_PADDING;
  const size = Math.max(MIN_TEXT_SIZE, Math.min(FONT_SIZE, (FONT_SIZE * inside(Math.max(cell, room))) / longest));
  return {
    cellWidth: Math.max(cell, Math.ceil((longest * size) / FONT_SIZE + 2 * CELL_PADDING)),
    annotationSize: size,
  };
}

function widest(texts, size, measure) {
  return texts.reduce((most, text) => Math.max(most, measure(text, size)), 0);
}

// Labels that fit one per `extent` px cell, or every n-th of them ('' in between), as seaborn's
// automatic ticks thin out.
function ticks(labels, extent) {
  const every = Math.ceil(MIN_LABEL_CELL / extent);
  return every <= 1 ? labels : labels.map((label, i) => (i % every === 0 ? label : ''));
}

/**
 * The significant digits a panel prints: seaborn's 2, except in a panel whose rows are
 * precisions (the numerics lab), whose point is how they differ: there, the fewest digits (up to
 * MAX_DIGITS) at which values of a column that differ at MAX_DIGITS still print differently
 * (bfloat16's 928 beside float16's 927, where '.2g' prints 9.3e+02 for both).
 */
export function panelDigits(matrix) {
  // a neutral panel of whole numbers (a text's token ids) prints them whole
  if (matrix.palette === 'neutral' && matrix.data.every((value) => Number.isInteger(value) && Math.abs(value) < 1e9))
    return Math.max(2, ...Array.from(matrix.data, (value) => String(Math.abs(value)).length));
  if (!matrix.rowLabels?.some((label) => label?.precision)) return 2;
  const { rows, cols } = matrix;
  for (let digits = 2; digits < MAX_DIGITS; digits++) {
    const enough = Array.from({ length: cols }, (_, c) => c).every((c) => {
      const column = Array.from({ length: rows }, (_, r) => r * cols + c);
      const distinct = (precision) => new Set(column.map((i) => cellText(matrix, i, precision))).size;
      return distinct(digits) === distinct(MAX_DIGITS);
    });
    if (enough) return digits;
  }
  return MAX_DIGITS;
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
