// The Chinese page words the panels' labels in Chinese: the numerics lab's row and column labels
// (a precision, "all masked", a width, a temperature, the sum) on the heatmaps, in their tables and
// in an exported image, with no English word left. Served from dist/site.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, collectErrors } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../../dist/site', import.meta.url)));

// Names and formula-like texts that read the same in every language: precisions, the scores' keys
// (x1, k1), d=64, T=0.05. Whatever is left of a label must hold no Latin letter.
const NAMES = /b?float\d+|\b[xk]\d+\b|\b[dT]=[\d.e+-]+/g;
const english = (labels) => labels.filter((label) => /[A-Za-z]/.test(label.replace(NAMES, '')));

test('zh: every label of the numerics walkthrough is worded in Chinese, on screen and exported', async (t) => {
  const context = await session.browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  t.after(() => context.close());
  await page.goto(`${session.base}?lang=zh#numerics/naive`);
  await page.waitForSelector('body[data-ready]');

  const seen = new Set();
  for (const stage of ['naive', 'shifted', 'underflow', 'rounding', 'masking', 'scale', 'temperature']) {
    await page.goto(`${session.base}?lang=zh#numerics/${stage}`);
    const shown = `[data-stage="numerics/${stage}"][aria-current="step"]`;
    await page.waitForSelector(shown);
    // the grid's labels, and the screen reader's table of every heatmap
    const labels = await page.$$eval(`${shown} :is(.hm-row-label, .hm-col-label, .hm-table th)`, (cells) =>
      cells.map((cell) => cell.textContent),
    );
    assert.ok(labels.length > 0, stage);
    assert.deepEqual(english(labels), [], stage);
    labels.forEach((label) => seen.add(label));
  }
  for (const label of ['float16', 'x1', '总和', 'float16（全被掩码）', 'd=64', 'bfloat16 d=1024', 'float32 T=0.05'])
    assert.ok(seen.has(label), label);
  for (const word of ['sum', 'all masked']) assert.ok(![...seen].some((label) => label.includes(word)), word);

  // a cell's aria label (row, column: value) as the keyboard reaches it
  await page.focus('[data-stage="numerics/temperature"] .hm-grid');
  const cell = await page.getAttribute('[data-stage="numerics/temperature"] .hm-cell[aria-label]', 'aria-label');
  assert.match(cell, /^float16 T=0\.05, x1: /);

  // the exported image says what the screen says
  await page.goto(`${session.base}?lang=zh#numerics/rounding`);
  const rounding = '[data-stage="numerics/rounding"][aria-current="step"]';
  await page.waitForSelector(rounding);
  await page.click(`${rounding} .hm-export summary`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`${rounding} .hm-export-button[data-format="svg"]`),
  ]);
  const svg = await readFile(await download.path(), 'utf8');
  assert.ok(svg.includes('>总和</text>'), 'the sum, worded');
  assert.ok(!svg.includes('>sum</text>'));
  assert.deepEqual(errors, [], 'console errors');
});
