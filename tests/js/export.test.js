// The DOM-free exports of web/components/export.js: CSV, JSON, numpy text, SVG and the shared layout.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  heatmapLayout,
  matrixToCsv,
  matrixToJson,
  matrixToNumpy,
  matrixToSvg,
  safeFileName,
} from '../../web/components/export.js';
import { SEEDS } from '../seeds.js';

// Attention Basics: softmax of the notebook's scores; one weight underflows a double, its float128
// text stands in for it.
const weights = {
  rows: 1,
  cols: 4,
  data: Float64Array.of(0.11920292202211755, 7.947151507960154e-232, 0, 0.8807970779778823),
  exact: ['', '', SEEDS.tiny, ''],
  name: 'attention_weights',
  palette: 'weights',
};

const square = {
  rows: 2,
  cols: 2,
  data: Float64Array.of(1.5, -2, 0.1, 3),
  name: 'scaled scores',
  rowLabels: ['a, b', 'say "hi"'],
  colLabels: ['<b>&', 'y'],
};

test('CSV: header of column labels, label column, RFC 4180 quoting', () => {
  assert.equal(matrixToCsv(square), ',<b>&,y\n"a, b",1.5,-2\n"say ""hi""",0.1,3\n');
});

test('CSV: default labels and exact text', () => {
  assert.equal(
    matrixToCsv(weights),
    `,0,1,2,3\n0,0.11920292202211755,7.947151507960154e-232,${SEEDS.tiny},0.8807970779778823\n`,
  );
});

test('JSON round trip: values, labels and exact nulls', () => {
  const parsed = JSON.parse(matrixToJson(weights));
  assert.deepEqual(parsed, {
    name: 'attention_weights',
    rows: 1,
    cols: 4,
    rowLabels: ['0'],
    colLabels: ['0', '1', '2', '3'],
    values: [[0.11920292202211755, 7.947151507960154e-232, 0, 0.8807970779778823]],
    exact: [[null, null, SEEDS.tiny, null]],
  });
  assert.match(matrixToJson(weights), /^\{\n {2}"name"/);
});

test('JSON: no exact key when every double is exact', () => {
  const parsed = JSON.parse(matrixToJson({ ...square, exact: ['', '', '', ''] }));
  assert.deepEqual(parsed.values, [
    [1.5, -2],
    [0.1, 3],
  ]);
  assert.deepEqual(parsed.rowLabels, ['a, b', 'say "hi"']);
  assert.equal('exact' in parsed, false);
});

test('numpy: exact text as Python strings at float128', () => {
  const text = matrixToNumpy(weights);
  assert.equal(
    text,
    `np.array([[0.11920292202211755, 7.947151507960154e-232, '${SEEDS.tiny}', 0.8807970779778823]], dtype=np.float128)`,
  );
  assert.ok(text.includes(`'${SEEDS.tiny}'`));
  assert.ok(text.includes('dtype=np.float128'));
});

test('numpy: shortest round-trip doubles, one row per line, no dtype', () => {
  const text = matrixToNumpy(square);
  assert.equal(text, 'np.array([[1.5, -2],\n          [0.1, 3]])');
  assert.ok(!text.includes('dtype'));
  assert.equal(
    matrixToNumpy({ rows: 1, cols: 3, data: Float64Array.of(NaN, Infinity, -Infinity) }),
    'np.array([[np.nan, np.inf, -np.inf]])',
  );
});

test('SVG: standalone document with one rect per cell, annotations and legend', () => {
  const svg = matrixToSvg(weights);
  assert.ok(svg.startsWith('<svg'));
  assert.ok(svg.includes('xmlns="http://www.w3.org/2000/svg"'));
  assert.match(svg, /viewBox="0 0 \d+ \d+"/);
  assert.equal(svg.match(/<rect class="cell"/g).length, 4);
  assert.ok(svg.includes('>0.12</text>'));
  assert.ok(svg.includes('>0.88</text>'));
  assert.ok(svg.includes('>5.8e-340†</text>'), 'the float128 value, marked as on screen');
  assert.ok(svg.includes('>0.8808</text>'), 'legend max');
  assert.ok(svg.includes('>5.766e-340</text>'), 'legend min, from the exact text');
  assert.ok(svg.includes('<linearGradient'));
  assert.ok(svg.includes('>attention_weights 1×4</text>'));
  assert.ok(!/<style|<script|<image|href=/.test(svg));
});

test('SVG: every label and attribute is escaped', () => {
  const svg = matrixToSvg(square, { fontFamily: '"Fira Sans", sans-serif' });
  assert.equal(svg.match(/<rect class="cell"/g).length, 4);
  assert.ok(svg.includes('>&lt;b&gt;&amp;</text>'));
  assert.ok(!svg.includes('<b>'));
  assert.ok(svg.includes('>say &quot;hi&quot;</text>'));
  assert.ok(svg.includes('font-family="&quot;Fira Sans&quot;, sans-serif"'));
});

test('layout: cells, labels and legend in place', () => {
  const layout = heatmapLayout(square);
  assert.equal(layout.cells.length, 4);
  const [first, second, third] = layout.cells;
  assert.equal(first.w, 48);
  assert.equal(second.x, first.x + 48);
  assert.equal(third.y, first.y + 48);
  assert.equal(first.text, '1.5');
  assert.equal(layout.title.text, 'scaled scores 2×2');
  assert.deepEqual(
    layout.rowLabels.map((label) => label.text),
    ['a, b', 'say "hi"'],
  );
  assert.ok(layout.rowLabels.every((label) => label.x <= first.x));
  assert.ok(layout.colLabels.every((label) => label.y < first.y));
  assert.equal(layout.legend.max.text, '3');
  assert.equal(layout.legend.min.text, '-2');
  assert.ok(layout.legend.max.y < layout.legend.min.y);
  assert.equal(layout.legend.stops.length, 11);
  assert.ok(layout.legend.x >= first.x + 96);
  assert.ok(layout.width >= layout.legend.x + layout.legend.w);
  // min scales to the palette's first colour, max to its last
  assert.equal(layout.cells[1].fill, layout.legend.stops.at(-1).colour);
  assert.equal(layout.cells[3].fill, layout.legend.stops[0].colour);
});

test('layout: a 100x100 matrix shrinks its cells and hides annotations', () => {
  const big = { rows: 100, cols: 100, data: Float64Array.from({ length: 10000 }, (_, i) => i) };
  const layout = heatmapLayout(big);
  assert.ok(layout.cells[0].w < 24);
  assert.ok(layout.cells.every((cell) => cell.text === ''));
  assert.ok(layout.width < 4000 && layout.height < 4000);
  assert.equal((matrixToSvg(big).match(/<rect class="cell"/g) ?? []).length, 10000);
});

test('layout: annotate false hides annotations; equal values take the first colour', () => {
  const flat = { rows: 1, cols: 2, data: Float64Array.of(7, 7) };
  const layout = heatmapLayout(flat, { annotate: false, palette: 'colourblind' });
  assert.ok(layout.cells.every((cell) => cell.text === ''));
  assert.equal(layout.cells[0].fill, layout.legend.stops.at(-1).colour);
});

test('safeFileName', () => {
  assert.equal(safeFileName('attention_weights'), 'attention_weights');
  assert.equal(safeFileName('scaled scores'), 'scaled_scores');
  assert.equal(safeFileName('softmax(scores) / √d'), 'softmax_scores_d');
  assert.equal(safeFileName('../etc'), 'etc');
  assert.equal(safeFileName(''), 'matrix');
  assert.equal(safeFileName(undefined), 'matrix');
});
