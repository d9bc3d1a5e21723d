// A panel's labels: the engine gives plain text or structured labels (names and numbers), and
// labelText (web/locales/format.js) words them, the one place that does: every kind in English
// and Chinese, the same words on screen (the layout) and in every export, and no structured label
// of any walkthrough's trace left unworded.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { heatmapLayout, matrixToCsv, matrixToJson, matrixToSvg } from '../../web/components/export.js';
import { labelText } from '../../web/locales/format.js';
import { computeLayout } from '../../web/components/heatmap-layout.js';
import { translator } from '../../web/components/i18n.js';
import { loadAllWalkthroughs } from './all-walkthroughs.js';

await loadAllWalkthroughs(); // chunks of their own, as the page loads them

const en = translator('en');
const zh = translator('zh');

// [label, English, Chinese]
const KINDS = [
  ['x1', 'x1', 'x1'],
  ['<eos>', '<eos>', '<eos>'],
  [{ precision: 'float16' }, 'float16', 'float16'],
  [{ precision: 'float16', allMasked: true }, 'float16 (all masked)', 'float16（全被掩码）'],
  [{ width: 64 }, 'd=64', 'd=64'],
  [{ precision: 'bfloat16', width: 1024 }, 'bfloat16 d=1024', 'bfloat16 d=1024'],
  [{ precision: 'float32', temperature: 0.05 }, 'float32 T=0.05', 'float32 T=0.05'],
  [{ precision: 'float128', temperature: 100 }, 'float128 T=100', 'float128 T=100'],
  [{ total: true }, 'sum', '总和'],
  [{ metric: 'exactMatch' }, 'exact match', '完全匹配率'],
  [{ metric: 'alignmentAccuracy' }, 'alignment accuracy', '对齐准确率'],
  [{ scoring: 'additive' }, 'Bahdanau additive', 'Bahdanau 加性'],
  [{ scoring: 'dot' }, 'Luong dot', 'Luong 点积'],
  // a model by any kind's fields the locale words, in the label's order; others (task) left out
  [
    { task: 'en-fr', scoring: 'additive', encoder: 'bidirectional', layers: 2, guide: 0 },
    'Bahdanau additive, bidirectional, 2-layer, free (λ=0)',
    'Bahdanau 加性，双向，2 层，自由（λ=0）',
  ],
  [{ guide: 0.5 }, 'guided (λ=0.5)', '引导（λ=0.5）'],
  [{ encoder: 'bigru', attention: 'uniform' }, 'bidirectional GRU, uniform attention', '双向 GRU，均匀注意力'],
  [{ category: 'noun', count: 400 }, 'noun (400)', '名词（400）'],
  [{ category: 'article', count: 400, instead: 'is' }, 'article (400) · instead: is', '冠词（400）· 转看：is'],
];

test('labelText words every kind of label in English and Chinese; plain text stays as it is', () => {
  for (const [label, english, chinese] of KINDS) {
    assert.equal(labelText(label, en), english, JSON.stringify(label));
    assert.equal(labelText(label, zh), chinese, JSON.stringify(label));
  }
});

const rounding = {
  rows: 2,
  cols: 3,
  data: Float64Array.of(0.25, 0.75, 1, 0.5, 0.5, 1),
  name: 'weights',
  rowLabels: [{ precision: 'float16' }, { precision: 'float16', allMasked: true }],
  colLabels: ['x1', 'x2', { total: true }],
};

test('the screen and every export show the same words, in the language of t (English without one)', () => {
  for (const [t, rows, cols] of [
    [zh, ['float16', 'float16（全被掩码）'], ['x1', 'x2', '总和']],
    [en, ['float16', 'float16 (all masked)'], ['x1', 'x2', 'sum']],
    [undefined, ['float16', 'float16 (all masked)'], ['x1', 'x2', 'sum']],
  ]) {
    const screen = computeLayout(rounding, { t, cellSize: 40 });
    assert.deepEqual([screen.rowLabels, screen.colLabels], [rows, cols]);
    const image = heatmapLayout(rounding, { t, cellSize: 40 });
    assert.deepEqual(
      [image.rowLabels.map((label) => label.text), image.colLabels.map((label) => label.text)],
      [rows, cols],
    );
    const svg = matrixToSvg(rounding, { t, cellSize: 40 });
    for (const text of [...rows, ...cols]) assert.ok(svg.includes(`>${text}</text>`), text);
    assert.equal(matrixToCsv(rounding, t).split('\n')[0], `,${cols.join(',')}`);
    assert.deepEqual(JSON.parse(matrixToJson(rounding, t)).rowLabels, rows);
  }
  assert.notEqual(computeLayout(rounding, { t: zh }).key, computeLayout(rounding, { t: en }).key, 'redrawn');
});

test("every structured label of the engine's traces is worded in Chinese, with no English word", async () => {
  const attn = await loadAttention({ threads: 1, models: true });
  const model = attn.createSeq2seq({ task: 'en-fr', embedding: 4, hidden: 8 });
  // models that differ in every field a label may name: scoring, encoder and layers; guide
  const dot = attn.createSeq2seq({ task: 'en-fr', scoring: 'dot', layers: 2, embedding: 4, hidden: 8 });
  const guided = attn.createSeq2seq({ task: 'en-fr', embedding: 4, hidden: 8 });
  guided.train({ steps: 1, batch: 2, guide: 1 });
  const traces = [
    attn.walkthrough('numerics', {}),
    attn.walkthrough('seq2seq', { model, compare: [model, dot] }),
    attn.walkthrough('seq2seq', { model, comparison: 'guide', compare: [model, guided] }),
  ];
  const structured = traces.flatMap((trace) =>
    trace.stages.flatMap((stage) =>
      stage.panels
        .flatMap((panel) => [...panel.rowLabels, ...panel.colLabels])
        .filter((label) => typeof label !== 'string'),
    ),
  );
  const kinds = new Set(structured.flatMap((label) => Object.keys(label)));
  assert.deepEqual(
    [...kinds].sort(),
    [
      'allMasked',
      'category',
      'count',
      'encoder',
      'guide',
      'instead',
      'layers',
      'metric',
      'precision',
      'scoring',
      'temperature',
      'total',
      'width',
    ],
    'every kind is in the traces',
  );
  for (const label of structured) {
    // a token the label names (where a kind of word looks instead) is the source's own word
    const text = labelText(label, zh).replace(label.instead ?? '', '');
    // names (float16, Bahdanau, Luong, AER) and the formula-like d=…, T=… may stay; no English word
    const words = text.replace(/b?float\d+|Bahdanau|Luong|AER|\b[dT]=[\d.e+-]+/g, '');
    assert.doesNotMatch(words, /[A-Za-z]/, `${JSON.stringify(label)}: ${text}`);
  }
  for (const each of [model, dot, guided]) each.dispose();
});
