// Every printed number and label fits its cell, on a desktop and on a phone, in the page and in
// the embedded element: no annotation or label cut by its cell, no column labels running into each
// other, every heatmap's labels on screen, the numerics lab's panels printing the digits their
// point needs, the tooltip inside the window, and the exports printing what the screen prints.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * What does not fit in the heatmaps on screen (through shadow roots): annotations and labels wider
 * (or, upright, taller) than their box, and neighbouring column labels that overlap. Each problem is
 * "panel: text (why)".
 */
function misfits(page) {
  return page.evaluate(() => {
    const roots = [
      document,
      ...[...document.querySelectorAll('*')].flatMap((e) => (e.shadowRoot ? [e.shadowRoot] : [])),
    ];
    const problems = [];
    const textBox = (element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return range.getBoundingClientRect();
    };
    for (const root of roots)
      for (const figure of root.querySelectorAll('figure.heatmap')) {
        if (!figure.checkVisibility()) continue;
        const name = figure.querySelector('.hm-name').textContent;
        const grid = figure.querySelector('.hm-grid');
        const texts = grid.classList.contains('hm-no-text') ? [] : [...grid.querySelectorAll('.hm-cell')];
        for (const element of [...texts, ...grid.querySelectorAll('.hm-row-label, .hm-col-label')]) {
          if (!element.textContent) continue;
          const box = element.getBoundingClientRect();
          const text = textBox(element);
          if (text.width > box.width + 0.5 || text.height > box.height + 0.5)
            problems.push(
              `${name}: ${element.textContent} (${text.width}×${text.height} in ${box.width}×${box.height})`,
            );
        }
        const labels = [...grid.querySelectorAll('.hm-col-label')].filter((label) => label.textContent);
        labels.slice(1).forEach((label, i) => {
          if (textBox(label).left < textBox(labels[i]).right - 0.5)
            problems.push(`${name}: ${labels[i].textContent} runs into ${label.textContent}`);
        });
      }
    return problems;
  });
}

// The texts of the cells of panel `index` of the stage on screen, row by row.
const cellTexts = (page, index) =>
  page.$$eval(`section[aria-current="step"] .panel:nth-of-type(${index + 1}) .hm-cell`, (cells) =>
    cells.map((cell) => cell.textContent),
  );

async function onStage(page, hash) {
  await page.evaluate((target) => (location.hash = target), hash);
  await page.waitForSelector(`[data-stage="${hash.slice(1)}"][aria-current="step"] .hm-cell`);
}

const STAGES = [
  '#basics/softmax',
  '#basics/applied',
  '#self-attention/word-weights',
  '#numerics/naive',
  '#numerics/underflow',
  '#numerics/masking',
  '#numerics/scale',
  '#numerics/temperature',
  '#seq2seq/source',
  '#seq2seq/encoder',
  '#seq2seq/step-2',
  '#seq2seq/alignment',
];

for (const [device, options] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`${device}: every annotation and label fits its cell, and column labels never run together`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#basics/softmax', options);
    await page.waitForSelector('body[data-ready]');
    await page.waitForSelector('.model-panel[data-origin="shipped"]', { state: 'attached' }).catch(() => {});
    for (const hash of STAGES) {
      await onStage(page, hash);
      assert.deepEqual(await misfits(page), [], hash);
    }
  });

  test(`${device}: the numerics lab prints what its stages are about`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#numerics/naive', options);
    await page.waitForSelector('body[data-ready]');
    // bfloat16 turns 927 and 929 into 928: the scores print with three digits, not as 9.3e+02
    const x = await cellTexts(page, 0);
    assert.deepEqual(x.slice(0, 8), ['927', '397', '148', '929', '928', '396', '148', '928']);
    // the -1e4 panel shows its numbers, float128's 3.47e-4747 among them
    await onStage(page, '#numerics/masking');
    const masked = page.locator('section[aria-current="step"] .panel:nth-of-type(3)');
    assert.equal(await masked.locator('.hm-name').textContent(), '-1e4');
    assert.equal(await masked.locator('.hm-grid.hm-no-text').count(), 0);
    assert.ok((await cellTexts(page, 2)).some((text) => /^3\.47e-4747†$/.test(text)));
    // the exported image prints what the screen prints
    await masked.locator('.hm-export summary').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      masked.locator('.hm-export-button[data-format="svg"]').click(),
    ]);
    const svg = await readFile(await download.path(), 'utf8');
    for (const text of new Set(await cellTexts(page, 2))) assert.ok(svg.includes(`>${text}</text>`), text);
  });

  test(`${device}: the tooltip of a cell at the left edge stays inside the window and its heatmap`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#numerics/naive', options);
    await page.waitForSelector('body[data-ready]');
    const panel = page.locator('section[aria-current="step"] .panel').first();
    await panel.scrollIntoViewIfNeeded();
    await panel.locator('.hm-cell').first().hover();
    const tip = panel.locator('.hm-tooltip');
    await tip.waitFor({ state: 'visible' });
    const [box, body, width] = await tip.evaluate((element) => [
      element.getBoundingClientRect().toJSON(),
      element.parentElement.getBoundingClientRect().toJSON(),
      document.documentElement.clientWidth,
    ]);
    assert.ok(
      box.left >= Math.max(0, body.left) && box.right <= Math.min(width, body.right),
      JSON.stringify({ box, body }),
    );
    assert.ok(box.top >= body.top, 'not cut at the top');
  });

  test(`${device}: every heatmap of the seq2seq walkthrough keeps its token labels`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#seq2seq/source', options);
    await page.waitForSelector('body[data-ready]');
    for (const hash of ['#seq2seq/source', '#seq2seq/encoder']) {
      await onStage(page, hash);
      const labels = await page.$$eval('section[aria-current="step"] .hm-row-label', (cells) =>
        cells.map((cell) => [cell.textContent, parseFloat(getComputedStyle(cell).fontSize)]),
      );
      // every panel's rows are the tokens (the encoder's decoder_start is s0, the decoder's start)
      const tokens = labels.map(([text]) => text).filter((text) => text !== 's0');
      for (let row = 0; row < tokens.length; row += 6)
        assert.deepEqual(tokens.slice(row, row + 6), ['the', 'red', 'car', 'is', 'small', '<eos>'], hash);
      assert.ok(
        labels.every(([, size]) => size >= 11),
        hash,
      );
    }
  });

  test(`${device}: the embedded elements' numbers and labels fit, at every stage`, async (t) => {
    const page = await openPage(session, t, 'tests/browser/seq2seq-element.html', options);
    const steppers = await page.evaluate(async () => {
      const elements = [...document.querySelectorAll('attention-stepper')];
      await Promise.all(elements.map((element) => element.ready));
      return elements.map((element) => [element.id, element.stages]);
    });
    for (const [id, stages] of steppers)
      for (const stage of stages) {
        await page.evaluate(([id, stage]) => document.getElementById(id).goTo(stage), [id, stage]);
        assert.deepEqual(await misfits(page), [], `${id} ${stage}`);
      }
  });
}

// Issue 32, item 10: on a phone, cells too small for their numbers hide them; a button shows them
// (the heatmap scrolls sideways, the page does not), every one fitting its cell, and hides them again.
test('phone: a heatmap too narrow for its numbers shows them on asking', async (t) => {
  const page = await openPage(session, t, 'dist/site/#seq2seq/step-1', PHONE);
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  await page.waitForSelector('[data-stage="seq2seq/step-1"][aria-current="step"] .hm-cell');
  const figure = page.locator('section.stage:not([hidden]) figure.heatmap', { hasText: 'decoder_state' });
  const toggle = figure.locator('.hm-numbers-toggle');
  assert.equal(await toggle.textContent(), 'Numbers');
  assert.equal(await figure.locator('.hm-grid.hm-no-text').count(), 1);
  await toggle.click();
  const shown = page.locator('section.stage:not([hidden]) figure.heatmap', { hasText: 'decoder_state' });
  await shown.locator('.hm-grid:not(.hm-no-text)').waitFor();
  assert.notEqual(await shown.locator('.hm-cell').first().textContent(), '');
  assert.equal(await shown.locator('.hm-numbers-toggle').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Hide numbers');
  assert.deepEqual(await misfits(page), []);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await shown.locator('.hm-numbers-toggle').click();
  await page.locator('section.stage:not([hidden]) .hm-grid.hm-no-text >> nth=0').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Numbers');
});

// Issue 32, item 10: a formula wider than a phone scrolls sideways, with a shadow at the edge that
// more of it lies beyond (covers in the stage's colour scroll with it: `local`).
test('phone: a formula wider than the stage says it scrolls', async (t) => {
  const page = await openPage(session, t, 'dist/site/#seq2seq/step-1', PHONE);
  const formula = page.locator('[data-stage="seq2seq/step-1"][aria-current="step"] .stage-formula .katex');
  await formula.waitFor();
  const box = await formula.evaluate((element) => {
    const style = getComputedStyle(element.closest('.stage-formula'));
    const scroller = element.closest('.stage-formula');
    return {
      wide: scroller.scrollWidth > scroller.clientWidth,
      image: style.backgroundImage,
      attachment: style.backgroundAttachment,
    };
  });
  assert.ok(box.wide, 'the formula fits: nothing to scroll');
  assert.equal((box.image.match(/radial-gradient/g) ?? []).length, 2, box.image);
  assert.match(box.attachment, /local.*scroll/, box.attachment);
});
