// The pretrained walkthrough (issue 45) in Debian's Chromium, at a desktop's width and a phone's,
// in English and Chinese: the page loads the small GPT-2 it ships and every stage draws from it;
// the tokens are its tokenizer's (<|endoftext|> first), the model view opens a head step by step by
// keyboard, the head view counts heads from 0, and the embed attributes pick a stage, layer and head.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const VIEWPORTS = { desktop: { width: 1280, height: 900, lang: 'en' }, phone: { width: 390, height: 844, lang: 'zh' } };

const current = (page) => page.getAttribute('[data-stage][aria-current="step"]', 'data-stage');
const shown = (page) => page.locator('section.stage:not([hidden])');

for (const [name, { lang, ...viewport }] of Object.entries(VIEWPORTS))
  test(`${name} (${lang}): the shipped GPT-2, every stage drawn; the model view opens a head`, async (t) => {
    const page = await openPage(session, t, `dist/site/?lang=${lang}#pretrained/tokens`, { viewport });
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    // where it comes from, said as it is: trained by a script, not by this engine
    assert.match(await page.textContent('.model-status'), lang === 'en' ? /World English Bible/ : /世界英语圣经/);
    assert.doesNotMatch(await page.textContent('.model-status'), /this engine|本引擎/);
    await page.waitForSelector('[data-stage="pretrained/tokens"][aria-current="step"]');
    const tokens = await shown(page).evaluate((stage) =>
      [...stage.querySelectorAll('.hm-col-label')].map((label) => label.textContent),
    );
    assert.equal(tokens[0], '<|endoftext|>');
    const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
    assert.deepEqual(
      ids.map((id) => id.split('/')[1]),
      [
        'tokens',
        'embeddings',
        'qkv',
        'scores',
        'mask',
        'softmax',
        'output',
        'model-view',
        'head-view',
        'sinks',
        'rollout',
        'prediction',
        'generation',
      ],
    );
    for (const [i, id] of ids.entries()) {
      assert.equal(await current(page), id);
      const drawn = await shown(page).locator('.hm-cell, .hv-lines line, .mv-head').count();
      assert.ok(drawn > 0, `${id} draws something`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `${id}: the page is ${overflow}px wider than the screen`);
      if (['tokens', 'model-view', 'head-view', 'sinks', 'prediction', 'generation'].includes(id.split('/')[1]))
        await page.screenshot({ path: `${SCREENSHOTS}/pretrained--${name}--${id.split('/')[1]}.png`, fullPage: true });
      if (i < ids.length - 1) await page.click('.as-next');
    }
    // the head view: one button per head, counted from 0 as transformers counts them
    await page.goto(`${session.base}dist/site/?lang=${lang}#pretrained/head-view`);
    await page.waitForSelector('[data-stage="pretrained/head-view"][aria-current="step"]');
    const heads = await shown(page).locator('.hv-head').allTextContents();
    assert.equal(heads.length, 4);
    assert.match(heads[0], /0/);
    // a head pressed stays pressed while the view is drawn again for another layer; a token pressed
    // past the end of a shorter text is let go
    await shown(page).locator('.hv-head').nth(2).click();
    await page.fill('#input-layer', '1');
    await page.waitForFunction(() =>
      /1/.test(document.querySelector('section.stage:not([hidden]) .stage-title').textContent),
    );
    assert.equal(await shown(page).locator('.head-view').getAttribute('data-isolated'), 'head-2');
    assert.equal(await shown(page).locator('.hv-head[aria-pressed="true"]').count(), 1);
    assert.equal(await shown(page).locator('.hv-head').nth(2).getAttribute('aria-pressed'), 'true');
    await shown(page).locator('.hv-query .hv-token').nth(10).click();
    await page.fill('#input-sentence', 'In the beginning');
    await page.waitForFunction(
      () => document.querySelectorAll('section.stage:not([hidden]) .hv-query .hv-token').length < 10,
    );
    assert.equal(await shown(page).locator('.head-view').getAttribute('data-isolated'), '');

    // the model view: 4 × 4 heads; Enter on layer 2, head 3 opens its queries, keys and values
    await page.goto(`${session.base}dist/site/?lang=${lang}#pretrained/model-view`);
    await page.waitForSelector('[data-stage="pretrained/model-view"][aria-current="step"]');
    assert.equal(await shown(page).locator('.mv-head').count(), 16);
    const opened = shown(page).locator('.mv-head[data-name="attention-2-3"]');
    await opened.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-stage="pretrained/qkv"][aria-current="step"]');
    assert.match(await shown(page).locator('.stage-title').textContent(), /2.*3/);
    assert.match(decodeURIComponent(page.url()), /"layer":2.*"head":3|"head":3.*"layer":2/);
  });

test('a text longer than the model’s 128 positions is refused on its field, the last stages kept', async (t) => {
  const page = await openPage(session, t, 'dist/site/?lang=en#pretrained/softmax');
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  await page.waitForSelector('[data-stage="pretrained/softmax"][aria-current="step"]');
  const field = page.locator('#input-sentence');
  await field.fill('and the Lord said '.repeat(40));
  await page.waitForSelector('.stage-stale');
  assert.match(await page.textContent('body'), /more than the model's 128 positions/);
  assert.ok((await shown(page).locator('.hm-cell').count()) > 0);
});

test('generation: greedy by default, a draw from the form’s seed, and the same draw from its link', async (t) => {
  const page = await openPage(session, t, 'dist/site/?lang=en#pretrained/generation');
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  await page.waitForSelector('[data-stage="pretrained/generation"][aria-current="step"]');
  const title = () => shown(page).locator('.stage-title').textContent();
  const written = async () =>
    (await shown(page).locator('.stage-text').textContent()).match(/tokens after the text: “([^”]*)”/)[1];
  assert.match(await title(), /the likeliest each step/);
  const greedy = await written();
  assert.ok(greedy.length > 0);
  // 8 steps, each row of the head's attention one token longer than the one above
  const rows = await shown(page).locator('[aria-label^="step_attention "] .hm-row-label').count();
  assert.equal(rows, 8);

  await page.selectOption('#input-temperature', '1.5');
  await page.fill('#input-topK', '0');
  await page.fill('#input-seed', '3');
  await page.waitForFunction(() =>
    /drawn at temperature 1\.5/.test(document.querySelector('section.stage:not([hidden]) .stage-title').textContent),
  );
  const drawn = await written();
  await page.fill('#input-seed', '4');
  await page.waitForFunction(
    (before) => !document.querySelector('section.stage:not([hidden]) .stage-text').textContent.includes(before),
    drawn,
  );
  assert.notEqual(await written(), drawn, 'another seed draws another text');
  await page.fill('#input-seed', '3');
  await page.waitForFunction(
    (before) => document.querySelector('section.stage:not([hidden]) .stage-text').textContent.includes(before),
    drawn,
  );
  // the link keeps the draw: the same text from a fresh load
  await page.waitForFunction(() => /"seed":3\b/.test(decodeURIComponent(location.href)));
  const link = page.url();
  assert.match(decodeURIComponent(link), /"temperature":"1.5"/);
  await page.goto('about:blank');
  await page.goto(link);
  await page.waitForSelector('[data-stage="pretrained/generation"][aria-current="step"]');
  await page.waitForFunction(() => document.querySelector('section.stage:not([hidden]) .stage-text'));
  assert.equal(await written(), drawn);
  await page.screenshot({ path: `${SCREENSHOTS}/pretrained--desktop--generation-drawn.png`, fullPage: true });
});
