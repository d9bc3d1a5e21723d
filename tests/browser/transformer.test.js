// The transformer walkthrough (issue 23) in Debian's Chromium, at a desktop's width and a phone's:
// the page shows the shipped en-fr Transformer, and every stage draws; the head view isolates a
// head on hover and focus, the model view opens a head; and the element takes task, sentence and
// head as attributes, training its en-zh Transformer in the worker. One page load per viewport.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const TRAINED = { timeout: 120_000 };

const current = (page) => page.getAttribute('[data-stage][aria-current="step"]', 'data-stage');
const shown = (page) => page.locator('section.stage:not([hidden])');
// the head view's lines on screen, per head
const visibleLines = (page) =>
  shown(page)
    .locator('.hv-lines line')
    .evaluateAll((lines) =>
      lines.filter((line) => getComputedStyle(line).display !== 'none').map((line) => line.dataset.head),
    );

for (const [name, viewport] of Object.entries(VIEWPORTS))
  test(`${name}: the shipped Transformer, every stage drawn, the head view isolates a head, the model view opens one`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#transformer', { viewport });
    // en-fr's Transformer ships (the element's en-zh one trains, below), trained for its SHIPPED_MODELS entry's steps
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    assert.match(await page.textContent('.model-status'), /trained by this engine for 600 steps/);
    const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
    assert.ok(ids.includes('transformer/model-view') && ids.includes('transformer/compare'), ids.join());
    for (const [i, id] of ids.entries()) {
      assert.equal(await current(page), id);
      const drawn = await shown(page).locator('.hm-cell, .hv-lines line, .mv-head').count();
      assert.ok(drawn > 0, `${id} draws something`);
      // nothing wider than the screen but what scrolls inside the stage
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `${id}: the page is ${overflow}px wider than the screen`);
      if (id.startsWith('transformer/head-view') || id === 'transformer/model-view')
        await page.screenshot({ path: `${SCREENSHOTS}/transformer--${name}--${id.split('/')[1]}.png`, fullPage: true });
      if (i < ids.length - 1) await page.click('.as-next');
    }
    // −inf in the decoder's causal mask, as such
    await page.goto(`${session.base}dist/site/#transformer/decoder-self`);
    await page.waitForSelector('[data-stage="transformer/decoder-self"][aria-current="step"]');
    // (row 1, column 2 of the mask: step 1 does not see step 2), off the colour scale
    const masked = shown(page).locator('.panel').nth(1).locator('.hm-cell').nth(1);
    assert.equal(await masked.getAttribute('data-value'), '-Infinity');
    assert.equal(await masked.evaluate((cell) => getComputedStyle(cell).backgroundColor), 'rgb(38, 50, 56)');
    // the masked panel's scores are also divided by √d_k, and the text says so (issue 32, item 8)
    const cell = (panel) =>
      shown(page).locator('.panel').nth(panel).locator('.hm-cell').first().getAttribute('data-value');
    const [raw, scaled] = [Number(await cell(0)), Number(await cell(2))];
    assert.ok(Math.abs(raw) > Math.abs(scaled), `${raw} scaled to ${scaled}`);
    assert.match(await shown(page).locator('.stage-text').textContent(), /√dₖ/);

    // the head view: hovering head 2's legend entry leaves only its lines; leaving shows them all
    await page.goto(`${session.base}dist/site/#transformer/head-view-cross`);
    await page.waitForSelector('[data-stage="transformer/head-view-cross"][aria-current="step"]');
    const all = await visibleLines(page);
    assert.deepEqual([...new Set(all)].sort(), ['0', '1']);
    await shown(page).locator('.hv-head').nth(1).hover();
    assert.deepEqual([...new Set(await visibleLines(page))], ['1']);
    await page.mouse.move(0, 0);
    assert.equal((await visibleLines(page)).length, all.length);
    // by keyboard: focus on a query token isolates its lines, Enter keeps them
    const token = shown(page).locator('.hv-query .hv-token').first();
    await token.focus();
    assert.equal(await shown(page).locator('.head-view').getAttribute('data-isolated'), 'query-0');
    await page.keyboard.press('Enter');
    assert.equal(await token.getAttribute('aria-pressed'), 'true');
    await page.screenshot({ path: `${SCREENSHOTS}/transformer--${name}--head-view-isolated.png`, fullPage: true });

    // the model view: Enter on cross-attention layer 2, head 1 opens that head in the cross stage
    await page.goto(`${session.base}dist/site/#transformer/model-view`);
    await page.waitForSelector('[data-stage="transformer/model-view"][aria-current="step"]');
    const opened = shown(page).locator('.mv-head[data-name="cross-2-1"]');
    assert.match(await opened.getAttribute('aria-label'), /Cross-attention, layer 2, head 1/);
    await opened.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-stage="transformer/cross"][aria-current="step"]');
    assert.match(await shown(page).locator('.stage-text').textContent(), /layer 2/);
    assert.match(decodeURIComponent(page.url()), /"layer":2/);
  });

test('<attention-stepper walkthrough="transformer" task=… sentence=… head=…> trains, then shows that sentence', async (t) => {
  const page = await openPage(session, t, 'tests/browser/transformer-element.html');
  const stepper = page.locator('#transformer');
  await stepper.locator('.model-panel[data-origin="trained"]').waitFor(TRAINED);
  assert.equal(await stepper.evaluate((element) => element.stage), 'head-view-cross');
  assert.deepEqual(await stepper.evaluate((element) => element.trace.labels.source), [
    'I',
    'eat',
    'rice',
    'at',
    'home',
    'today',
    '<eos>',
  ]);
  assert.equal(await stepper.locator('.hv-head').count(), 2);
  assert.match(await stepper.locator('.stage-title').textContent(), /cross-attention, layer 1/);
});
