// A sentence typed key by key passes through words the model does not know: the stages then show
// the last sentence that translated, and must say so where the reader looks, with the reason at
// the field, with words of the same kind when nothing is spelt like the unknown one; capitals and
// punctuation as a reader types them are read (issue 20, item 4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));

for (const [name, viewport] of Object.entries({
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
}))
  test(`${name}: typing "the purple car is small" marks the stages stale and the field says why`, async (t) => {
    const page = await openPage(session, t, 'dist/site/#seq2seq/step-1', { viewport });
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    const field = page.locator('#input-sentence');
    await field.fill('');
    await field.pressSequentially('the purple car is small');
    const stage = page.locator('section.stage:not([hidden])');
    await stage.locator('.stage-stale').waitFor();
    assert.match(await stage.locator('.stage-stale').textContent(), /until “Sentence to translate” is fixed/);
    assert.equal(await stage.locator('.stage-stale').getAttribute('role'), 'status');
    assert.match(await stage.getAttribute('class'), /as-stale/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    // nothing is spelt like it: the words of its kind are suggested
    assert.match(
      await page.textContent('#input-sentence-error'),
      /unknown word "purple" in the en-fr source: it is a colour the task does not know; its words of that kind are "red", "black"/,
    );
    await page.screenshot({ path: `${SCREENSHOTS}/stale--${name}.png` });
    // fixed as a reader writes it, capitals and a full stop, the stages are the sentence's
    await field.fill('The red car is small.');
    await page.waitForFunction(() => !document.querySelector('.stage-stale'));
    assert.doesNotMatch(await stage.getAttribute('class'), /as-stale/);
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    const title = await page.locator('section.stage:not([hidden]) .stage-title').textContent();
    assert.match(title, /“la”/);
  });
