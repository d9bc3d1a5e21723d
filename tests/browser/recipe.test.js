// The recipe of docs/architecture.md ("How to add a trained model") held true: the tests' package
// (build/test-kinds/, scripts/build.sh) adds the toy kind (tests/kinds/) by the recipe's edits
// alone, and the page serves it as every kind: its walkthrough's tab, a model trained in the tab
// (no shipped one), its stages drawn by the generic views with its model's label, its file
// downloaded and loaded again; and the frozen kind, whose models are only loaded: no stage until
// the reader loads its file, then its stages as every kind's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention } from 'attention-stepper';

import { writeStateDict } from '../js/model-helpers.js';
import { chromiumServing, openPage } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));

test('a kind added by the recipe alone is trained, drawn, labelled, saved and loaded by the page', async (t) => {
  const page = await openPage(session, t, 'build/test-kinds/dist/site/#toy');
  assert.equal(await page.locator('.walkthrough-tab[href="#toy"]').textContent(), 'Toy');
  // no toy model ships: the page trains one, and its stages wait for it
  await page.waitForSelector('.model-run[data-state="running"]');
  await page.waitForSelector('.model-panel[data-origin="trained"]', { timeout: 90_000 });
  const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
  assert.deepEqual(ids, ['toy/embeddings', 'toy/weights']);
  await page.click('.as-next');
  const stage = page.locator('[data-stage="toy/weights"]');
  await stage.locator('.hm-row-label').first().waitFor();
  // the model's label is its fields, worded by the locale's labels.model (no code of its own)
  assert.deepEqual(await stage.locator('.hm-row-label').allTextContents(), ['in en']);
  assert.deepEqual(await stage.locator('.hm-col-label').allTextContents(), ['the', 'food', 'was', 'good']);
  assert.match(await stage.locator('.stage-text').textContent(), /Attention weighs the words of “the food was good”/);

  // its file, as the panel downloads it, loads again as the model on screen
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.model-download')]);
  assert.equal(download.suggestedFilename(), 'reviews-en.safetensors');
  const bytes = readFileSync(await download.path());
  const kind = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString()).__metadata__.format;
  assert.equal(kind, 'attention-stepper/toy');
  await page.setInputFiles('.model-load', {
    name: 'toy.safetensors',
    mimeType: 'application/octet-stream',
    buffer: bytes,
  });
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  assert.equal(await page.locator('.model-status.as-error').count(), 0);
});

test('a kind that only loads and runs waits for its file, then is drawn and labelled by the page', async (t) => {
  const page = await openPage(session, t, 'build/test-kinds/dist/site/#frozen', {
    viewport: { width: 390, height: 844 },
  });
  // none is made or trained: no stage until the reader loads a model, and the panel says so
  await page.waitForSelector('.model-panel[data-origin="none"]');
  assert.match(await page.locator('.model-status').textContent(), /No model yet/);
  assert.equal(await page.locator('[data-stage]:not([hidden])').count(), 0);
  assert.equal(await page.locator('.model-train').isVisible(), false);
  assert.equal(await page.locator('.model-download').isVisible(), false);
  assert.equal(await page.locator('.as-next').isDisabled(), true);
  // a file of its tensors, as another program writes them: the stages show its attention
  const attn = await loadAttention({ threads: 1, models: true });
  const vocabulary = attn.classificationTasks().find((task) => task.language === 'en').vocab;
  const table = Float32Array.from({ length: vocabulary.length * 2 }, (_, i) => (i % 7) / 7);
  const bytes = writeStateDict([
    ['frozen.embedding.weight', [vocabulary.length, 2], table],
    ['frozen.query', [2], Float32Array.of(1, -1)],
  ]);
  await page.setInputFiles('.model-load', {
    name: 'frozen.safetensors',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  });
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
  assert.ok(ids.length > 0 && ids.every((id) => id.startsWith('frozen/')), ids.join());
  await page.goto(page.url().replace(/#.*/, `#${ids.at(-1)}`));
  const stage = page.locator(`[data-stage="${ids.at(-1)}"]`);
  await stage.locator('.hm-col-label').first().waitFor();
  assert.deepEqual(await stage.locator('.hm-col-label').allTextContents(), ['the', 'food', 'was', 'good']);
  // a loaded model of it has nothing to train: no train button above the stage either
  assert.equal(await page.locator('.model-run-actions button:visible').count(), 0);
  assert.equal(await page.locator('.model-status.as-error').count(), 0);
});
