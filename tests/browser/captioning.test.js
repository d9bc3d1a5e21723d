// The captioning walkthrough (issue 22's page) as a reader meets it, at a desktop's width and a
// phone's: every stage with its pictures (the scene crisp, the attention over it), a scene
// composed by keyboard with the composer's menus and buttons, a random scene; a training run's
// probe; and the element with a `scene` attribute.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

const current = (page) => page.getAttribute('[data-stage][aria-current="step"]', 'data-stage');
// the scene stage's image, as the browser drew it
const sceneImage = (page) =>
  page.locator('[data-stage="captioning/scene"] canvas.picture-image').evaluate((canvas) => canvas.toDataURL());
const objects = (page) => page.locator('#input-scene .scene-object').count();

for (const [name, viewport] of Object.entries(VIEWPORTS))
  test(`${name}: every stage, a scene composed by keyboard, a random scene`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#captioning', { viewport });
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    // the steps of its SHIPPED_MODELS entry, where the reader looks and in the panel
    assert.match(await page.textContent('.model-run-text'), /trained by this engine for 1500 steps/);
    assert.match(await page.textContent('.model-status'), /trained by this engine for 1500 steps/);
    const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
    assert.equal(ids[0], 'captioning/scene');
    assert.equal(ids[1], 'captioning/encoder');
    assert.equal(ids.at(-1), 'captioning/caption');
    const words = ids.length - 3;
    assert.ok(words >= 2, `${words} words`);
    for (const [i, id] of ids.entries()) {
      assert.equal(await current(page), id);
      const stage = page.locator(`[data-stage="${id}"]`);
      if (id === 'captioning/scene') {
        const rendering = await stage
          .locator('canvas.picture-image')
          .evaluate((canvas) => getComputedStyle(canvas).imageRendering);
        assert.equal(rendering, 'pixelated');
        assert.match(await stage.locator('[role="img"]').getAttribute('aria-label'), /The scene, 32 × 32 pixels/);
      } else if (id === 'captioning/encoder') {
        assert.equal(await stage.locator('.picture-map').count(), 1);
        assert.equal(await stage.locator('figcaption .hm-name', { hasText: /^channel-\d+$/ }).count(), 4);
      } else if (id === 'captioning/caption') {
        // every word's map, and the gold regions of each
        assert.equal(await stage.locator('.picture-map').count(), 2 * words);
        assert.ok((await stage.locator('.hm-cell').count()) > 0);
      } else {
        assert.equal(await stage.locator('.picture-map').count(), 1);
        assert.match(await stage.locator('.picture-frame').getAttribute('aria-label'), /strongest at region \d,\d/);
        assert.equal(await stage.locator('figcaption .hm-name', { hasText: /^(scores|weights)$/ }).count(), 2);
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `${id}: the page is ${width} px wide`);
      if (id === 'captioning/step-1' || id === 'captioning/caption')
        await page.screenshot({ path: `${SCREENSHOTS}/captioning--${name}--${id.split('/')[1]}.png` });
      if (i < ids.length - 1) await page.click('.as-next');
    }
    await page.goto(`${page.url().split('#')[0]}#captioning/scene`);
    await page.waitForSelector('[data-stage="captioning/scene"][aria-current="step"]');

    // the composer, by keyboard: the first object's colour, another object, then one fewer
    const before = await sceneImage(page);
    assert.equal(await objects(page), 2);
    const colour = page.locator('#input-scene-0-colour');
    assert.equal(await page.locator('label[for="input-scene-0-colour"]').textContent(), 'Colour');
    await colour.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((image) => {
      const canvas = document.querySelector('[data-stage="captioning/scene"] canvas.picture-image');
      return canvas && canvas.toDataURL() !== image;
    }, before);
    assert.equal(await colour.inputValue(), 'green');
    // the menu keeps the keyboard (the next arrow changes it again), and says whose colour it is
    assert.equal(await page.evaluate(() => document.activeElement.id), 'input-scene-0-colour');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => document.querySelector('#input-scene-0-colour').value !== 'green');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'input-scene-0-colour');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.querySelector('#input-scene-0-colour').value === 'green');
    const accessibleName = await colour.evaluate((select) =>
      select
        .getAttribute('aria-labelledby')
        .split(' ')
        .map((id) => document.getElementById(id).textContent)
        .join(' '),
    );
    assert.equal(accessibleName, 'Object 1 Colour');
    assert.equal(await page.getByRole('combobox', { name: 'Object 2 Shape' }).count(), 1);
    await page.locator('#input-scene .scene-add').focus();
    await page.keyboard.press('Enter');
    assert.equal(await objects(page), 3);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'input-scene-2-size');
    assert.ok(await page.locator('#input-scene .scene-add').isDisabled());
    await page.locator('#input-scene .scene-remove').nth(2).focus();
    await page.keyboard.press('Enter');
    assert.equal(await objects(page), 2);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'input-scene-1-size');
    assert.equal(await page.locator('#input-scene-error').textContent(), '');

    // two objects in one place: the fault in words under the composer, the stage on the last scene
    await page.locator('#input-scene-1-place').selectOption('0 0');
    assert.match(await page.locator('#input-scene-error').textContent(), /^Object 2 is in the same place as object 1/);
    await page.locator('#input-scene-1-place').selectOption('1 1');
    assert.equal(await page.locator('#input-scene-error').textContent(), '');

    // a random scene: another image, one to three objects
    const composed = await sceneImage(page);
    await page.locator('#input-scene .scene-random').click();
    await page.waitForFunction((image) => {
      const canvas = document.querySelector('[data-stage="captioning/scene"] canvas.picture-image');
      return canvas && canvas.toDataURL() !== image;
    }, composed);
    const count = await objects(page);
    assert.ok(count >= 1 && count <= 3, `${count} objects`);
    await page.screenshot({ path: `${SCREENSHOTS}/captioning--${name}--composed.png`, fullPage: true });
  });

test("training from scratch: λ a choice, and the probe draws the scene's attention over it as it learns", async (t) => {
  const page = await openPage(session, t, 'dist/site/#captioning');
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  const choices = await page.locator('.model-choices select').last().locator('option').allTextContents();
  assert.deepEqual(choices, ['0: attend freely', '1: every region about once (Xu et al.)']);
  await page.locator('.model-choices select').last().selectOption('0');
  await page.locator('.model-run-train').click();
  await page.waitForSelector('.model-run[data-state="running"]');
  // the first report's probe: a map per word over the scene on screen
  const maps = page.locator('.model-alignment .picture-map');
  await maps.first().waitFor();
  assert.equal(await maps.count(), await page.locator('.model-alignment .picture-label').count());
  await page.locator('.model-stop').click();
  await page.waitForSelector('.model-panel[data-origin="trained"]');
});

test('the element: <attention-stepper walkthrough="captioning" scene="…"> captions that scene', async (t) => {
  const page = await openPage(session, t, 'tests/browser/captioning-element.html');
  const stage = page.locator('attention-stepper section.stage:not([hidden])');
  await stage.locator('.picture-map').first().waitFor();
  assert.equal(await stage.locator('.stage-title').textContent(), 'The caption and its attention');
  // each word's map is drawn over the attribute's scene: a small green triangle, bottom left
  const pixel = (x, y) =>
    stage
      .locator('canvas.picture-image')
      .first()
      .evaluate((canvas, [x, y]) => [...canvas.getContext('2d').getImageData(x, y, 1, 1).data].slice(0, 3), [x, y]);
  assert.deepEqual(await pixel(8, 25), [46, 166, 64]); // inside the triangle (green, 0.18 0.65 0.25)
  assert.deepEqual(await pixel(24, 8), [240, 240, 240]); // the background (0.94)
  const words = await stage.locator('.picture-label').allTextContents();
  assert.ok(words.length >= 4 && words.length % 2 === 0, words.join(' ')); // the figure and the gold
});

for (const [name, viewport] of Object.entries(VIEWPORTS))
  test(`${name}: a scene that is none on first load: every fault in words by the composer, the stages on the last valid scene`, async (t) => {
    const scene = 'big red circle 0 0; small blue square 0 0; big purple triangle 5 1; small yellow';
    const inputs = encodeURIComponent(JSON.stringify({ captioning: { scene } }));
    const page = await openPage(session, t, `dist/site/?inputs=${inputs}#captioning`, { viewport });
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    const faults = async () => (await page.locator('#input-scene-error').textContent()).split('\n');
    assert.deepEqual(await faults(), [
      'A scene holds 1 to 3 objects, not 4',
      'Object 2 is in the same place as object 1 (top left): one object a place',
      "Object 3's colour “purple” is not one the model knows: red, green, blue, yellow",
      "Object 3's place (row 5, column 1) is off the picture: rows go from 0 to 1, columns from 0 to 1",
      'Object 4 (“small yellow”) needs five words: a size, a colour, a shape, a row and a column',
    ]);
    // the composer shows the scene as written, its faulty menus marked
    assert.equal(await objects(page), 4);
    const invalid = (id) => page.getAttribute(`#input-scene-${id}`, 'aria-invalid');
    for (const id of ['1-place', '2-colour', '2-place']) assert.equal(await invalid(id), 'true', id);
    for (const id of ['0-colour', '0-place', '2-size']) assert.equal(await invalid(id), 'false', id);
    assert.equal(await page.locator('#input-scene-2-place option:checked').textContent(), 'row 5, column 1');
    assert.equal(await page.locator('#input-scene .scene-written').textContent(), 'small yellow');
    // the stages: the default scene as the trained model captions it, said to be the last valid
    const words = await page.locator('[data-stage^="captioning/step-"]').count();
    assert.ok(words >= 4, `${words} words`);
    assert.match(await page.textContent('.stage-stale'), /last valid inputs until “Scene” is fixed/);
    await page.locator('#input-scene').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/captioning--${name}--faults.png` });
    // fixed one fault at a time: the text and its faults follow, then the stages
    await page.locator('#input-scene .scene-remove').nth(3).click();
    await page.waitForFunction(() => document.querySelectorAll('#input-scene .scene-object').length === 3);
    assert.equal((await faults()).length, 3);
    await page.locator('#input-scene .scene-remove').nth(2).click();
    await page.locator('#input-scene-1-place').selectOption('1 1');
    await page.waitForFunction(() => !document.querySelector('.stage-stale'));
    assert.equal(await page.locator('#input-scene-error').textContent(), '');
    assert.match(await page.textContent('[data-stage="captioning/scene"]'), /small blue square/);
  });

test('an embedded scene that is none: the banner says its faults in the page’s language', async (t) => {
  const page = await openPage(session, t, 'tests/browser/captioning-bad-scene-element.html');
  const banner = page.locator('attention-stepper .as-error[role="alert"]');
  await banner.filter({ hasText: '物体 2和物体 1 在同一个位置（左上）' }).waitFor();
  // the stages, on the last valid (the default) scene
  await page.locator('attention-stepper section[data-stage="captioning/scene"]').waitFor();
});

test('a link or an attribute opens a word stage on first load, once the trained captioner is in', async (t) => {
  for (const lang of ['en', 'zh']) {
    const page = await openPage(session, t, `dist/site/?lang=${lang}#captioning/step-4`);
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    await page.waitForFunction(() => location.hash === '#captioning/step-4');
    assert.equal(await current(page), 'captioning/step-4');
    // pictures are captioned with the shape they are drawn in: the image's pixels, a map's grid
    const shapes = await page.locator('[data-stage="captioning/step-4"] .picture .hm-shape').allTextContents();
    assert.deepEqual(shapes, [' 8×8']);
  }
  const page = await openPage(session, t, 'tests/browser/captioning-stage-element.html');
  await page.locator('attention-stepper section[data-stage="captioning/step-2"]').waitFor();
  assert.equal(await page.locator('attention-stepper').evaluate((element) => element.stage), 'step-2');
});

for (const [name, viewport] of Object.entries(VIEWPORTS))
  test(`${name}: a run started from the sidebar shows where it runs, with its goal`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#captioning/encoder', { viewport });
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    await page.locator('.model-train').click(); // the sidebar's, far below the run view
    await page.waitForSelector('.model-run[data-state="running"]');
    const top = await page.locator('.model-run').evaluate((run) => run.getBoundingClientRect().top);
    assert.ok(top > -1 && top < viewport.height / 2, `the run view's top at ${top} px`);
    assert.match(await page.textContent('.model-goal'), /^Goal: 98% exact match/);
    await page.screenshot({ path: `${SCREENSHOTS}/captioning--${name}--training.png` });
    await page.locator('.model-stop').click();
    await page.waitForSelector('.model-panel[data-origin="trained"]');
  });
