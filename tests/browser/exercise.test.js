// Exercise mode (?exercise=1) asks before it reveals: the stage's text says nothing that answers
// its question until the reader has answered, and the question's label sits inside its box without
// overlapping anything, on a desktop and on a phone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../../dist/site', import.meta.url)));

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`${device}: the softmax stage keeps its weights back until the question is answered, and the question fits its box`, async (t) => {
    const page = await openPage(session, t, '?exercise=1#basics/softmax', { viewport });
    await page.waitForSelector('[data-stage="basics/softmax"][aria-current="step"] .question');
    const text = () => page.textContent('[aria-current="step"] .stage-text');
    assert.doesNotMatch(await text(), /0\.119|0\.880|respectively/);
    const boxes = await page.evaluate(() =>
      ['.question-label', '.question fieldset', '.question legend', '.question-choice'].map((selector) =>
        document.querySelector(`[aria-current="step"] ${selector}`).getBoundingClientRect().toJSON(),
      ),
    );
    const [label, fieldset, legend, choice] = boxes;
    assert.ok(!overlap(label, fieldset), 'the label is outside the box');
    assert.ok(legend.top >= fieldset.top + 1 && legend.bottom <= fieldset.bottom, 'the question is inside its box');
    assert.ok(!overlap(legend, choice), 'the question does not overlap its answers');

    await page.click('.question-choice[value="no"]');
    await page.waitForSelector('[aria-current="step"] .question-feedback');
    assert.match(await text(), /0\.119 and 0\.880 respectively/);
  });
}
