// The sentiment walkthrough (issue 31's page) as a reader meets it, at a desktop's width and a
// phone's: the shipped classifier at once, every stage (the weights drawn over the sentence beside
// their heatmap, the uniform model beside the learned one, the checks' numbers), a review typed
// and one with a word the model lacks; the reader's own labelled sentences (a file of UDHR
// articles by language), trained in the tab; the Chinese edition; and the element with its
// attributes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
  // the text names the button that trains the uniform model
  assert.match(
    await stage.locator('.stage-text').textContent(),
    /not trained yet: “Train the other models compared” in the model panel trains it/,
  );
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

test('the reader’s labelled sentences: refused with the reason, read from a file, trained in the tab, kept apart from the pairs', async (t) => {
  const page = await openPage(session, t, 'dist/site/#sentiment', { viewport: VIEWPORTS.phone });
  const data = page.locator('.model-data');
  await data.waitFor();
  assert.equal(await data.locator('h3').first().textContent(), 'Your own labelled sentences');
  // one label only: the engine's reason beside the text, which stays, and the task on screen too
  const text = data.locator('textarea');
  await text.fill('a fine day\tgood\na fine night\tgood\n');
  await data.locator('.model-data-read').click();
  assert.match(await data.locator('.field-error').textContent(), /holds 1 label \("good"\).*2 to 10/);
  assert.equal(await text.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('#input-task').inputValue(), 'reviews');
  // real text: articles 1–7 of the Universal Declaration of Human Rights, labelled by language
  const file = readFileSync(new URL('../fixtures/udhr_languages.tsv', import.meta.url));
  await data.locator('input[type=file]').setInputFiles({ name: 'udhr.tsv', mimeType: 'text/plain', buffer: file });
  await page.waitForFunction(() => /sentences kept/.test(document.querySelector('.model-data-stats').textContent));
  assert.match(
    await data.locator('.model-data-stats').textContent(),
    /^udhr-[0-9a-f]{8}: 28 sentences kept \(26 to train on, 1 for validation, 1 for testing\), 5 labels \(de, en, fr, ru, zh\);.* Dropped: 7 too long\.$/,
  );
  assert.match(await data.locator('.model-data-preview li').first().textContent(), / · .* → (de|en|fr|ru|zh)$/);
  const task = await page.locator('#input-task').inputValue();
  assert.match(task, /^udhr-[0-9a-f]{8}$/);
  assert.deepEqual(await page.$$eval('#input-task option', (options) => options.map((o) => o.value)), [
    'reviews',
    task,
  ]);
  await data.screenshot({ path: `${SCREENSHOTS}/sentiment--phone--data.png` });
  // its model trains by itself; the stages then read a held-out sentence, without a rationale
  await page.waitForSelector('.model-panel[data-origin="trained"]', { timeout: 60_000 });
  await page.goto(page.url().replace(/#.*/, '#sentiment/weights'));
  const stage = page.locator('section.stage:not([hidden])');
  await page.waitForFunction(() =>
    /come without a rationale/.test(document.querySelector('section.stage:not([hidden])')?.textContent ?? ''),
  );
  assert.equal(await stage.locator('figcaption .hm-name', { hasText: /^rationale$/ }).count(), 0);
  await page.goto(page.url().replace(/#.*/, '#sentiment/accuracy'));
  await page.waitForFunction(() =>
    /right on \d+% of the sentences/.test(document.querySelector('section.stage:not([hidden])')?.textContent ?? ''),
  );
  assert.doesNotMatch(await stage.locator('.stage-text').textContent(), /split the reviews by kind/);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  // kept in this browser with its model: after a reload it is there, trained
  await page.reload();
  await page.waitForFunction(() =>
    /udhr-[0-9a-f]{8}: 28 sentences, [\d.]+ KB with its models/.test(
      document.querySelector('.model-data-saved')?.textContent ?? '',
    ),
  );
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  assert.equal(await page.locator('#input-task').inputValue(), task);
  // the translation walkthroughs' panel reads pairs, and lists none of the sentences' tasks
  await page.goto(page.url().replace(/#.*/, '#seq2seq'));
  await page.waitForFunction(() => document.querySelector('.model-data h3')?.textContent === 'Your own sentence pairs');
  // once its list is read from the store (IndexedDB)
  await page.waitForSelector('.model-data-saved[data-listed]', { state: 'attached' });
  assert.equal(await page.locator('.model-data-saved li').count(), 0);
  // deleted, it is gone
  await page.goto(page.url().replace(/#.*/, '#sentiment'));
  await page.locator('.model-data-delete').first().click();
  await page.waitForFunction(() => document.querySelector('.model-data-saved').childElementCount === 0);
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
