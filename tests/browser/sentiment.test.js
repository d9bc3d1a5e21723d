// The sentiment walkthrough (issue 31's page) as a reader meets it, at a desktop's width and a
// phone's: the shipped classifier at once, every stage (the weights drawn over the sentence beside
// their heatmap, the uniform model beside the learned one, the checks' numbers), a review typed
// and one with a word the model lacks; the Chinese edition; and the element with its attributes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const STAGES = ['tokens', 'encoder', 'scores', 'weights', 'prediction', 'accuracy', 'permutation', 'attribution'];

const current = (page) => page.getAttribute('[data-stage][aria-current="step"]', 'data-stage');

for (const [name, viewport] of Object.entries(VIEWPORTS))
  test(`${name}: the shipped classifier at once, every stage with the uniform model beside it, a review typed`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#sentiment', { viewport });
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    assert.match(await page.textContent('.model-status'), /trained by this engine for 300 steps/);
    const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
    assert.deepEqual(
      ids,
      STAGES.map((id) => `sentiment/${id}`),
    );
    for (const [i, id] of ids.entries()) {
      assert.equal(await current(page), id);
      const stage = page.locator(`[data-stage="${id}"]`);
      if (id === 'sentiment/weights') {
        // the sentence with each word's weight, strongest on "lovely", beside the heatmap
        const words = await stage.locator('.highlight-text').allTextContents();
        assert.deepEqual(words, 'the food was not good but the staff was lovely'.split(' '));
        assert.match(await stage.locator('figure.highlight').getAttribute('aria-label'), /strongest on “lovely”/);
        const weights = (await stage.locator('.highlight-weight').allTextContents()).map(Number);
        assert.ok(Math.abs(weights.reduce((a, b) => a + b) - 1) < 0.06, weights.join(' '));
        assert.equal(await stage.locator('figcaption .hm-name', { hasText: /^rationale$/ }).count(), 1);
        assert.match(
          await stage.locator('.stage-text').textContent(),
          /labels this review positive, decided by “lovely”/,
        );
      } else if (id === 'sentiment/prediction') {
        assert.match(await stage.locator('.stage-title').textContent(), /^The prediction: positive \(\d+%\)$/);
      } else if (id === 'sentiment/accuracy') {
        await page.waitForFunction(() =>
          /uniform attention, α = 1\/n, is right on \d+%/.test(
            document.querySelector('[data-stage="sentiment/accuracy"] .stage-text').textContent,
          ),
        );
        const rows = await stage.locator('.hm-row-label').allTextContents();
        assert.ok(
          rows.some((row) => row.includes('uniform attention')),
          rows.join(' | '),
        );
        assert.ok(
          rows.some((row) => row.includes('always the commonest label')),
          rows.join(' | '),
        );
      } else if (id === 'sentiment/attribution') {
        assert.match(await stage.locator('.stage-text').textContent(), /0\.29 ± 0\.19 and 0\.35 ± 0\.21 on SST/);
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `${id}: the page is ${width} px wide`);
      if (['sentiment/weights', 'sentiment/accuracy', 'sentiment/attribution'].includes(id))
        await page.screenshot({ path: `${SCREENSHOTS}/sentiment--${name}--${id.split('/')[1]}.png` });
      if (i < ids.length - 1) await page.click('.as-next');
    }

    // a review typed: the prediction follows it; a word the model lacks is refused with its nearest
    await page.goto(`${page.url().split('#')[0]}#sentiment/prediction`);
    await page.waitForSelector('[data-stage="sentiment/prediction"][aria-current="step"]');
    await page.fill('#input-sentence', 'the coffee was not very good');
    await page.waitForFunction(() =>
      /^The prediction: negative/.test(
        document.querySelector('[data-stage="sentiment/prediction"] .stage-title').textContent,
      ),
    );
    await page.fill('#input-sentence', 'the coffee was purple');
    await page.waitForSelector('#input-sentence[aria-invalid="true"]');
    assert.match(await page.textContent('#input-sentence-error'), /unknown word "purple"/);
    assert.match(
      await page.locator('[data-stage="sentiment/prediction"] .stage-title').textContent(),
      /^The prediction: negative/,
    );
  });

test('no encoder: the model on screen trains by itself in the worker, then the uniform one beside it', async (t) => {
  const inputs = encodeURIComponent(JSON.stringify({ sentiment: { encoder: 'none' } }));
  const page = await openPage(session, t, `dist/site/?inputs=${inputs}#sentiment/accuracy`);
  await page.waitForSelector('.model-run[data-state="running"]');
  await page.waitForSelector('.model-panel[data-origin="trained"]', { timeout: 120_000 });
  assert.match(
    await page.locator('.model-run-heading').textContent(),
    /^The embeddings only, learned attention \(English\) model, trained here$/,
  );
  // the run measured by the kind's goal, a classifier's accuracy, in its chart
  const chart = await page.locator('.model-run .training-chart text').allTextContents();
  assert.ok(chart.includes('accuracy (test)'), chart.join(' | '));
  const stage = page.locator('[data-stage="sentiment/accuracy"]');
  assert.match(await stage.locator('.stage-text').textContent(), /not trained yet/);
  // the uniform model, as the panel offers it
  const others = page.locator('.model-train-others');
  await others.waitFor();
  assert.equal(await others.textContent(), 'Train the other models compared (1)');
  await others.click();
  await page.waitForFunction(
    () =>
      /uniform attention, α = 1\/n, is right on \d+%/.test(
        document.querySelector('[data-stage="sentiment/accuracy"] .stage-text')?.textContent ?? '',
      ),
    null,
    { timeout: 120_000 },
  );
  const rows = await stage.locator('.hm-row-label').allTextContents();
  assert.deepEqual(rows.slice(0, 3), ['learned attention', 'uniform attention', 'always the commonest label']);
  // without an encoder a bag of words: it cannot read the negations and contrasts
  const accuracy = Number((await stage.locator('.stage-text').textContent()).match(/right on (\d+)%/)[1]);
  assert.ok(accuracy < 90, `${accuracy}%`);
});

test('the Chinese edition opens on a Chinese review, its texts and labels in Chinese', async (t) => {
  const page = await openPage(session, t, 'dist/site/?lang=zh#sentiment/attribution');
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  assert.equal(await page.inputValue('#input-sentence'), '菜 不 好 但是 服务员 非常 棒');
  const stage = page.locator('[data-stage="sentiment/attribution"]');
  assert.equal(await stage.locator('.stage-title').textContent(), '权重与其他解释一致吗？');
  const rows = await stage.locator('.hm-row-label').allTextContents();
  assert.ok(rows.includes('本句') && rows.includes('测试集（平均）'), rows.join(' | '));
});

test('the element: a review and language as attributes, opened on the weights stage, in Chinese', async (t) => {
  const page = await openPage(session, t, 'tests/browser/sentiment-element.html');
  const stage = page.locator('attention-stepper section.stage:not([hidden])');
  await stage.locator('figure.highlight').waitFor();
  assert.equal(await stage.locator('.stage-title').textContent(), '各词上的权重');
  assert.deepEqual(await stage.locator('.highlight-text').allTextContents(), '菜 很 差 但是 服务员 不 差'.split(' '));
  // the grammar's rationale: the second clause's 不 差
  assert.match(await stage.locator('.stage-text').textContent(), /由 “不”、“差” 决定|由 “不”, “差” 决定|“不”.*“差”/);
});
