// web/components/heatmap-layout.js: the one layout of a heatmap that the page and the exports draw.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { heatmapLayout, matrixToSvg } from '../../web/components/export.js';
import { computeLayout, MASKED_FILL, NAN_FILL, panelDigits } from '../../web/components/heatmap-layout.js';
import { contrastRatio, PALETTES, ROLES } from '../../web/components/palettes.js';

// Attention Basics: softmax of the scores [927, 397, 148, 929]; one weight underflows a double.
const weights = {
  rows: 1,
  cols: 4,
  data: Float64Array.of(0.11920292202211755, 7.947151507960154e-232, 0, 0.8807970779778823),
  exact: ['', '', '5.7661442e-340', ''],
  name: 'attention_weights',
  palette: 'weights',
};
const scores = { rows: 1, cols: 4, data: Float64Array.of(927, 397, 148, 929), name: 'scores', palette: 'scores' };
const row = (...values) => ({ rows: 1, cols: values.length, data: Float64Array.from(values) });

test('legend ends: four digits, the exact text where the double underflowed', () => {
  const { legend, min, max } = computeLayout(weights);
  assert.equal(legend.minText, '5.766e-340');
  assert.equal(legend.maxText, '0.8808');
  assert.deepEqual([min.index, max.index], [2, 3]);
  assert.deepEqual([min.value, max.value], [0, 0.8807970779778823]);
});

test('legend ends: Python-style %.4g for integers, large and negative values', () => {
  assert.deepEqual([computeLayout(scores).legend.minText, computeLayout(scores).legend.maxText], ['148', '929']);
  const wide = computeLayout(row(-0.000123456, 65536, 12345));
  assert.deepEqual([wide.legend.minText, wide.legend.maxText], ['-0.0001235', '6.554e+04']);
  assert.deepEqual(
    [computeLayout(row(-2.5, -0)).legend.minText, computeLayout(row(-2.5, -0)).legend.maxText],
    ['-2.5', '-0'],
  );
});

test('range: among equal doubles the exact text decides; NaN is left out; nothing gives empty ends', () => {
  // a masked weight (a true 0) is smaller than an underflowed one
  const masked = { ...weights, data: Float64Array.of(...weights.data, 0), cols: 5, exact: [...weights.exact, ''] };
  assert.equal(computeLayout(masked).min.index, 4);
  assert.equal(computeLayout(masked).legend.minText, '0');
  // two underflows: the smaller exponent is the smaller value, whichever comes first
  const two = { rows: 1, cols: 3, data: Float64Array.of(0, 0, 0.5), exact: ['2e-340', '9e-341', ''] };
  assert.equal(computeLayout(two).legend.minText, '9e-341');
  const negative = { rows: 1, cols: 2, data: Float64Array.of(0, 0), exact: ['-2e-340', '-3e-341'] };
  assert.deepEqual(
    [computeLayout(negative).legend.minText, computeLayout(negative).legend.maxText],
    ['-2e-340', '-3e-341'],
  );
  const withNaN = computeLayout(row(NaN, 3, 1));
  assert.deepEqual([withNaN.min.index, withNaN.max.index], [2, 1]);
  const empty = computeLayout({ rows: 0, cols: 0, data: new Float64Array(0) });
  assert.deepEqual([empty.min.index, empty.legend.minText, empty.legend.maxText], [-1, '', '']);
});

test('colours: min at the scale start, max at its end, legend stops from max down to min', () => {
  const layout = computeLayout(scores);
  const { stops } = layout.legend;
  assert.equal(stops.length, 11);
  assert.deepEqual([stops[0].offset, stops[10].offset], [0, 1]);
  assert.equal(layout.cellAt(2).fill, stops[10].colour, 'min');
  assert.equal(layout.cellAt(3).fill, stops[0].colour, 'max');
  assert.equal(layout.cellAt(2).fill, layout.colour(0));
  assert.notEqual(layout.cellAt(1).fill, layout.cellAt(0).fill);
  assert.equal(layout.position(538.5), 0.5);
  // every value the same: all at the scale's start
  assert.equal(computeLayout(row(7, 7)).position(7), 0);
});

test('colours: −inf (a masked score) and NaN off the scale, +inf at its top', () => {
  const layout = computeLayout(row(-Infinity, 0, 1, Infinity, NaN));
  assert.equal(layout.cellAt(0).fill, MASKED_FILL);
  assert.equal(layout.cellAt(0).textColour, '#fff');
  assert.equal(layout.cellAt(0).text, '-inf');
  assert.notEqual(layout.cellAt(1).fill, MASKED_FILL, 'the smallest finite value keeps the scale start');
  assert.equal(layout.cellAt(1).fill, layout.colour(0));
  assert.equal(layout.cellAt(3).fill, layout.colour(1));
  assert.equal(layout.cellAt(4).fill, NAN_FILL);
});

test('cells: seaborn annotations, made even where they do not show', () => {
  const layout = computeLayout(weights, { cellSize: 64 });
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => layout.cellAt(i).text),
    ['0.12', '7.9e-232', '5.8e-340†', '0.88'],
  );
  assert.equal(computeLayout(weights, { precision: 3, cellSize: 64 }).cellAt(0).text, '0.119');
  const hidden = computeLayout(weights, { annotate: false });
  assert.equal(hidden.annotated, false);
  assert.equal(hidden.cellAt(3).text, '0.88');
});

test('labels: given ones kept, 0, 1, … by default', () => {
  assert.deepEqual(computeLayout(weights).colLabels, ['0', '1', '2', '3']);
  assert.deepEqual(computeLayout(weights).rowLabels, ['0']);
  const named = computeLayout({ ...scores, rowLabels: ['s'], colLabels: ['h1', 'h2', 'h3', 'h4'] });
  assert.deepEqual([named.rowLabels, named.colLabels], [['s'], ['h1', 'h2', 'h3', 'h4']]);
});

test('cell size from the width available: 64 px at most, 4 px at least', () => {
  assert.equal(computeLayout(scores, { width: 1000 }).cell, 64);
  assert.equal(computeLayout(scores, { width: 340 }).cell, 50); // (340 - 140) / 4
  assert.equal(computeLayout({ rows: 1, cols: 1000, data: new Float64Array(1000) }, { width: 800 }).cell, 4);
  assert.equal(computeLayout(scores, { width: 340, cellSize: 20 }).cell, 20, 'cellSize wins');
});

test('annotations from 30 px cells, at 12 px in cells widened to fit them, or shrunk to the width but never below 9 px', () => {
  const small = row(0.5, 0.25);
  assert.equal(computeLayout(small, { cellSize: 29 }).annotated, false);
  assert.equal(computeLayout(small, { cellSize: 30 }).annotated, true);
  // a cell size given (the images take the page's) is the room: '0.25', 28.8 px at 12 px, shrinks into 26 px
  assert.ok(Math.abs(computeLayout(small, { cellSize: 30 }).annotationSize - (12 * 26) / 28.8) < 1e-9);
  assert.equal(computeLayout(row(1, 2), { cellSize: 30 }).annotationSize, 12, 'never above the page font');
  // '5.8e-340†' is 9 characters, 64.8 px at 12 px: the cell widens to 69 px where the width allows
  const roomy = computeLayout(weights, { width: 900 });
  assert.deepEqual([roomy.cell, roomy.cellWidth, roomy.annotationSize], [64, 69, 12]);
  // in 340 px, less a row label (6.9 px), its gap (6 px) and the legend (70 px), the columns have
  // 63 px each: the text shrinks to fit them
  const narrow = computeLayout(weights, { width: 340 });
  assert.equal(narrow.cellWidth, 63);
  assert.ok(Math.abs(narrow.annotationSize - (12 * 59) / 64.8) < 1e-9);
  assert.ok(narrow.width <= 340);
  // in 280 px (48 px columns) it would need 8.1 px: it stays at 9 px in cells as wide as that
  // needs, and the heatmap scrolls
  const tight = computeLayout(weights, { width: 280 });
  assert.deepEqual([tight.annotationSize, tight.cellWidth], [9, 53]);
  assert.ok(tight.width > 280);
  // the images lay out the page's cells again: the page's cell width gives the page's text size
  const again = computeLayout(weights, { cellSize: narrow.cell, cellWidth: narrow.cellWidth });
  assert.deepEqual([again.cellWidth, again.annotationSize], [narrow.cellWidth, narrow.annotationSize]);
  assert.equal(computeLayout(small, { cellSize: 64, annotate: false }).annotationSize, 0);
});

test('labels: rows of up to 64 keep 14 px for their labels; column labels too wide turn upright, thinned where they would overlap', () => {
  const states = {
    rows: 6,
    cols: 64,
    data: new Float64Array(384),
    rowLabels: ['the', 'red', 'car', 'is', 'small', '<eos>'],
  };
  const layout = computeLayout(states, { width: 358 });
  assert.equal(layout.cell, 4);
  assert.equal(layout.cellHeight, 14);
  assert.deepEqual(layout.rowTicks, states.rowLabels);
  assert.equal(layout.upright, true);
  assert.deepEqual(layout.colTicks.slice(0, 5), ['0', '', '', '', '4']);
  // many rows keep small cells and label every n-th row
  const tall = computeLayout({ rows: 100, cols: 100, data: new Float64Array(10000) }, { width: 500 });
  assert.equal(tall.cellHeight, 4);
  assert.deepEqual(tall.rowTicks.slice(0, 5), ['0', '', '', '', '4']);
  // tokens wider than their column ('small', '<eos>') read upright, every one of them
  const alignment = { rows: 2, cols: 3, data: new Float64Array(6), colLabels: ['the', 'small', '<eos>'] };
  const upright = computeLayout(alignment, { cellSize: 30, annotate: false });
  assert.equal(upright.upright, true);
  assert.deepEqual(upright.colTicks, alignment.colLabels);
  assert.equal(computeLayout(alignment, { cellSize: 64, annotate: false }).upright, false);
});

test("digits: seaborn's 2, or in a panel of precisions as many as tell its precisions apart (up to 4)", () => {
  const precisions = ['float16', 'bfloat16', 'float32'].map((precision) => ({ precision }));
  const x = { rows: 3, cols: 2, data: Float64Array.of(927, 929, 928, 928, 927, 929), rowLabels: precisions };
  assert.equal(panelDigits(x), 3);
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => computeLayout(x).cellAt(i).text),
    ['927', '929', '928', '928'],
  );
  assert.equal(panelDigits({ ...x, rowLabels: ['a', 'b', 'c'] }), 2, 'other panels print as seaborn');
  const same = { ...x, data: Float64Array.of(0.5, 0.25, 0.5, 0.25, 0.5, 0.25) };
  assert.equal(panelDigits(same), 2);
  assert.equal(computeLayout(x, { precision: 2 }).cellAt(0).text, '9.3e+02', 'a precision given wins');
});

test('key: the same for new values, different for a new shape, palette, role or cell size', () => {
  const { key } = computeLayout(scores, { width: 600 });
  assert.equal(computeLayout({ ...scores, data: Float64Array.of(3, 59, 1, 4) }, { width: 600 }).key, key);
  assert.notEqual(computeLayout({ ...scores, rows: 2, cols: 2 }, { width: 600 }).key, key);
  assert.notEqual(computeLayout(scores, { width: 600, palette: 'colourblind' }).key, key);
  assert.notEqual(computeLayout(scores, { width: 600, role: 'weights' }).key, key);
  assert.notEqual(computeLayout(scores, { width: 300 }).key, key);
});

test('contrast: every cell text reaches 4.5:1 on its colour, for every role of both palettes', () => {
  const sweep = row(...Array.from({ length: 1001 }, (_, i) => i / 1000));
  for (const palette of PALETTES) {
    for (const role of ROLES) {
      const layout = computeLayout(sweep, { palette, role });
      for (let i = 0; i < sweep.data.length; i++) {
        const { fill, textColour } = layout.cellAt(i);
        const ratio = contrastRatio(textColour, fill);
        assert.ok(ratio >= 4.5, `${palette}/${role} at t=${sweep.data[i]}: ${textColour} on ${fill} is ${ratio}`);
      }
    }
  }
});

test('contrast ratio: WCAG 2 values', () => {
  assert.equal(contrastRatio('#000', '#fff'), 21);
  assert.equal(contrastRatio('#fff', '#000'), 21);
  assert.equal(contrastRatio('#777', '#777'), 1);
  // #767676 on white is the classic just-passing grey, 4.54:1
  assert.ok(Math.abs(contrastRatio('#767676', '#fff') - 4.54) < 0.01);
});

// The page's legend writes computeLayout's texts; the images must show the same ones.
const svgTexts = (svg) => [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);

test('the SVG export shows the legend texts the page shows', () => {
  const cases = [weights, scores, row(-0.000123456, 65536, 12345), row(0.125, 0.375)];
  for (const matrix of cases) {
    const screen = computeLayout(matrix, { width: 900 });
    const image = heatmapLayout(matrix, { cellSize: screen.cell });
    assert.deepEqual([image.legend.max.text, image.legend.min.text], [screen.legend.maxText, screen.legend.minText]);
    const texts = svgTexts(matrixToSvg(matrix, { cellSize: screen.cell }));
    assert.ok(texts.includes(screen.legend.maxText), `${screen.legend.maxText} in the SVG`);
    assert.ok(texts.includes(screen.legend.minText), `${screen.legend.minText} in the SVG`);
  }
});

test('at the page cell size, the export shows annotations and labels where the page does', () => {
  const long = row(-0.000123456, 65536, 12345, 0.5);
  for (const [matrix, width] of [
    [weights, 900],
    [weights, 300],
    [long, 300],
    [{ rows: 30, cols: 30, data: new Float64Array(900) }, 500],
  ]) {
    const screen = computeLayout(matrix, { width });
    const image = heatmapLayout(matrix, { cellSize: screen.cell, cellWidth: screen.cellWidth });
    assert.equal(image.annotationSize, screen.annotationSize);
    assert.equal(
      image.cells.some((cell) => cell.text !== ''),
      screen.annotated,
    );
    assert.deepEqual([image.cells[0].w, image.cells[0].h], [screen.cellWidth, screen.cellHeight]);
    assert.deepEqual(
      image.rowLabels.map((label) => label.text),
      screen.rowTicks.filter(Boolean),
    );
    image.cells.forEach((cell, i) => assert.equal(cell.fill, screen.cellAt(i).fill));
  }
});

test('a panel of measures: each on its own 0 … 1 scale, good at the strong end, never rounded to a value it did not reach', () => {
  const measures = {
    rows: 2,
    cols: 3,
    data: [0.996, 0.5, 0.11, 0.0004, 1, 0.9],
    rowLabels: ['free', 'guided'],
    colLabels: [{ metric: 'exactMatch' }, { metric: 'alignmentAccuracy' }, { metric: 'aer' }],
    palette: 'weights',
  };
  const layout = computeLayout(measures, { width: 600 });
  const texts = measures.data.map((_, i) => layout.cellAt(i).text);
  assert.deepEqual(texts, ['0.996', '0.5', '0.11', '0.0004', '1', '0.9']);
  // AER 0.11 is good: near the strong end; AER 0.9 near the weak end; exact match 1 at the top
  assert.equal(layout.position(0.11, 2), 0.89);
  assert.equal(layout.position(0.9, 5), 1 - 0.9);
  assert.equal(layout.position(1, 4), 1);
  assert.equal(layout.cellAt(4).fill, layout.colour(1));
  assert.deepEqual([layout.legend.maxText, layout.legend.minText], ['best', 'worst']);
  // a 1 × 1 panel is not stretched from its one value to itself
  const one = computeLayout({ rows: 1, cols: 1, data: [0.2914], colLabels: [{ metric: 'aer' }] }, { width: 600 });
  assert.equal(one.cellAt(0).fill, one.colour(1 - 0.2914));
  assert.equal(one.cellAt(0).text, '0.29');
});

test('weights that are probabilities are drawn from 0, so weights spread almost evenly look even', () => {
  const even = { rows: 1, cols: 4, data: Float64Array.of(0.016, 0.016, 0.0054, 0.016), palette: 'weights' };
  const layout = computeLayout(even);
  assert.equal(layout.cellAt(2).fill, layout.colour(0.0054 / 0.016)); // not the scale's bottom
  assert.equal(layout.cellAt(0).fill, layout.colour(1));
  assert.deepEqual([layout.legend.maxText, layout.legend.minText], ['0.016', '0']);
  // scores are not probabilities: their scale runs from their smallest to their largest
  const scores = computeLayout({ ...even, palette: 'scores' });
  assert.equal(scores.cellAt(2).fill, scores.colour(0));
});
