// examples/jupyter/attention_basics.ipynb executed by Debian's Jupyter (nbconvert, the python3
// kernel, numpy), its HTML opened in Chromium: the elements load the package's files and draw the
// notebook's own numbers, with their tooltips. The notebook points at the package through
// ATTENTION_STEPPER_URL, here the repository's dist/ as the page serves it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { root } from '../pack.js';
import { assertSeedNumbers } from '../seeds.js';
import { chromiumServing, collectErrors, SCREENSHOTS as shots } from './chromium.js';

const session = chromiumServing(root);
const out = join(root, 'build', 'jupyter');

test('the Attention Basics notebook runs in Jupyter and shows the stepper and heatmaps with its numbers', async (t) => {
  mkdirSync(out, { recursive: true });
  execFileSync(
    'jupyter',
    ['nbconvert', '--execute', '--to', 'html', '--output-dir', out, 'examples/jupyter/attention_basics.ipynb'],
    {
      cwd: root,
      // from build/jupyter/, the package's dist/ is two folders up
      env: { ...process.env, ATTENTION_STEPPER_URL: '../../dist/', PYDEVD_DISABLE_FILE_VALIDATION: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const context = await session.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  const missing = [];
  page.on('response', (response) => response.status() === 404 && missing.push(new URL(response.url()).pathname));
  t.after(() => context.close());
  await page.goto(`${session.base}build/jupyter/attention_basics.html`);
  await page.waitForFunction(() => document.querySelector('attention-stepper')?.stage === 'softmax');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('attention-heatmap')].every((element) =>
      element.shadowRoot?.querySelector('.hm-cell'),
    ),
  );

  const cells = (selector) =>
    page.locator(`${selector} .hm-cell`).evaluateAll((all) => all.map((cell) => Number(cell.dataset.value)));
  // the notebook's printed outputs, computed by its own numpy cells
  const text = await page.locator('.jp-OutputArea-output pre, .output_text pre').allTextContents();
  assert.ok(
    text.some((output) => output.trim() === '927'),
    text.join('|'),
  );
  assert.ok(
    text.some((output) => /927\., +397\., +148\., +929\./.test(output)),
    text.join('|'),
  );
  // the heatmaps, drawn from the notebook's arrays
  assert.deepEqual(await cells('attention-heatmap[name="dec_hidden_state"]'), [5, 1, 20]);
  assertSeedNumbers({ context: await cells('attention-heatmap[name="attention_vector"]') });
  // the stepper, computing from the notebook's inputs: the softmax of the scores
  assertSeedNumbers({ weights: await cells('attention-stepper [aria-current="step"]') });

  // tooltips show over the cell on hover, in the heatmap and in the stepper
  const vector = page.locator('attention-heatmap[name="attention_vector"]');
  await vector.locator('.hm-cell').nth(2).hover();
  const tooltip = vector.locator('.hm-tooltip');
  assert.ok(await tooltip.isVisible());
  assert.match(await tooltip.textContent(), /45\.2642391/);
  await page.locator('attention-stepper [aria-current="step"] .hm-cell').nth(3).hover();
  assert.ok(await page.locator('attention-stepper [aria-current="step"] .hm-tooltip').isVisible());
  await page.screenshot({ path: `${shots}/jupyter-notebook.png`, fullPage: true });
  // Debian's nbconvert template points at its own copies of RequireJS and MathJax as file:// URLs,
  // which a served page may not load, and the browser asks for a favicon (a 404 no page request
  // sees): none of it is ours, and every file the page asked for was there
  assert.deepEqual(missing, []);
  assert.deepEqual(
    errors.filter(
      (error) => !/^Not allowed to load local resource: file:\/\/\/usr\/share\/javascript\/|status of 404/.test(error),
    ),
    [],
    'console errors',
  );
});
