// Keyboard focus across stage changes, in the page and in <attention-stepper>: a key that changes
// the stage replaces the focused formula or heatmap, and focus must land on the same control of
// the new stage, not on <body> (where the element's keys no longer reach it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage as openServed } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));

const open = (t, path) => openServed(session, t, path);

// The page: its stage on screen as "walkthrough/stage", its sections in the document.
async function openPage(t, hash) {
  const page = await open(t, `dist/site/${hash}`);
  await page.waitForSelector('body[data-ready]');
  return {
    page,
    stage: () => page.getAttribute('[data-stage][aria-current="step"]', 'data-stage'),
    stages: page.locator('#stages'),
  };
}

// The element #one of the components page (basics), moved to `stage`.
async function openElement(t, stage) {
  const page = await open(t, 'tests/browser/components-page.html');
  await page.evaluate(async (id) => {
    const stepper = await document.querySelector('#one').ready;
    stepper.goTo(id);
  }, stage);
  return {
    page,
    stage: () => page.evaluate(() => `basics/${document.querySelector('#one').stage}`),
    stages: page.locator('#one'),
  };
}

/**
 * Where keyboard focus is, through shadow roots: the stage section it is in (null outside one),
 * whether that section is the one on screen, the control (its first class) and, in a heatmap,
 * the heatmap's place among the stage's and its active cell.
 */
function focus(page) {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const section = active.closest('section.stage');
    const grid = active.closest('.hm-grid');
    const cell = grid?.querySelector('.hm-cell[id]');
    return {
      stage: section?.dataset.stage ?? null,
      onScreen: Boolean(section?.isConnected && !section.hidden && section.getAttribute('aria-current') === 'step'),
      control: active.classList[0] ?? active.localName,
      heatmap: grid ? [...section.querySelectorAll('.hm-grid')].indexOf(grid) : null,
      cell: cell ? [Number(cell.dataset.row), Number(cell.dataset.col)] : null,
    };
  });
}

/** Presses each key and checks the stage it shows and where focus is: on `expected` of that stage. */
async function pressAll({ page, stage }, steps) {
  for (const [key, id, expected] of steps) {
    await page.keyboard.press(key);
    assert.equal(await stage(), id, `${key} shows ${id}`);
    assert.deepEqual(await focus(page), { stage: id, onScreen: true, ...expected }, `focus after ${key}`);
  }
}

const FORMULA = { control: 'stage-formula', heatmap: null, cell: null };
const heatmapCell = (row, col) => ({ control: 'hm-grid', heatmap: 0, cell: [row, col] });

// Tab from the page's start reaches the element's formula first (nothing before it takes focus);
// each key then moves the stage and focus follows to the new stage's formula.
async function formulaKeeps(stepper, first) {
  const { page } = stepper;
  await first();
  assert.deepEqual(await focus(page), { stage: 'basics/softmax', onScreen: true, ...FORMULA });
  await pressAll(stepper, [
    ['End', 'basics/attentional-state', FORMULA],
    ['Home', 'basics/decoder-state', FORMULA],
    ['ArrowRight', 'basics/annotation', FORMULA],
    ['PageDown', 'basics/single-score', FORMULA],
  ]);
}

// On a heatmap's cell (1, 1) of basics/applied (3×4): Home and End move the cell to its row's ends,
// Ctrl+Home and Ctrl+End to the heatmap's first and last cell, on the same stage. PageDown keeps
// the row on the next stage's heatmap (context, 3×1), as far right as it goes, and on the first
// heatmap of the last stage (W_c, 3×6), where → and End move the cell, not the stage; PageUp goes back.
async function heatmapKeeps(stepper) {
  const { page, stages } = stepper;
  await stages.locator('section.stage[aria-current="step"] .hm-grid').first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focus(page), { stage: 'basics/applied', onScreen: true, ...heatmapCell(1, 1) });
  await pressAll(stepper, [
    ['End', 'basics/applied', heatmapCell(1, 3)],
    ['Home', 'basics/applied', heatmapCell(1, 0)],
    ['Control+End', 'basics/applied', heatmapCell(2, 3)],
    ['Control+Home', 'basics/applied', heatmapCell(0, 0)],
    ['ArrowDown', 'basics/applied', heatmapCell(1, 0)],
    ['ArrowRight', 'basics/applied', heatmapCell(1, 1)],
    ['PageDown', 'basics/context', heatmapCell(1, 0)],
    ['PageDown', 'basics/attentional-state', heatmapCell(1, 0)],
    ['ArrowRight', 'basics/attentional-state', heatmapCell(1, 1)],
    ['End', 'basics/attentional-state', heatmapCell(1, 5)],
    ['PageUp', 'basics/context', heatmapCell(1, 0)],
  ]);
}

const HEADING = { control: 'stage-title', heatmap: null, cell: null };

// On the second heatmap of the last stage (h_tilde): the stage before has one heatmap, so focus
// goes to its heading, and from there to each next stage's heading.
async function headingWithout(stepper) {
  const { page, stages } = stepper;
  await stages.locator('section.stage[aria-current="step"] .hm-grid').nth(1).focus();
  assert.deepEqual(await focus(page), {
    stage: 'basics/attentional-state',
    onScreen: true,
    control: 'hm-grid',
    heatmap: 1,
    cell: [0, 0],
  });
  await pressAll(stepper, [
    ['PageUp', 'basics/context', HEADING],
    ['ArrowLeft', 'basics/applied', HEADING],
  ]);
}

test('page: focus on the formula stays on the formula through End, Home, → and PageDown', async (t) => {
  const stepper = await openPage(t, '#basics/softmax');
  await formulaKeeps(stepper, () => stepper.stages.locator('[aria-current="step"] .stage-formula').focus());
});

test("page: Home, End and Ctrl+Home, Ctrl+End move a heatmap's cell; focus on a cell stays on it in the new stage", async (t) => {
  await heatmapKeeps(await openPage(t, '#basics/applied'));
});

test('page: focus on a control the new stage lacks goes to its heading', async (t) => {
  await headingWithout(await openPage(t, '#basics/attentional-state'));
});

test('<attention-stepper>: Tab lands on the formula, and focus stays on it through End, Home, → and PageDown', async (t) => {
  const stepper = await openElement(t, 'softmax');
  await formulaKeeps(stepper, () => stepper.page.keyboard.press('Tab'));
});

test("<attention-stepper>: Home, End and Ctrl+Home, Ctrl+End move a heatmap's cell; focus on a cell stays on it in the new stage", async (t) => {
  await heatmapKeeps(await openElement(t, 'applied'));
});

test('<attention-stepper>: focus on a control the new stage lacks goes to its heading', async (t) => {
  await headingWithout(await openElement(t, 'attentional-state'));
});

test('page: a stage link or walkthrough tab pressed by keyboard keeps focus, through End after it too', async (t) => {
  const { page, stage } = await openPage(t, '#basics/softmax');
  const focused = () => page.evaluate(() => document.activeElement.getAttribute('href'));
  await page.locator('.stage-link[href="#basics/single-score"]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await stage(), 'basics/single-score');
  assert.equal(await focused(), '#basics/single-score');
  await page.keyboard.press('End');
  assert.equal(await stage(), 'basics/attentional-state');
  assert.equal(await focused(), '#basics/single-score');
  await page.locator('.walkthrough-tab[href="#self-attention"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-stage="self-attention/embeddings"][aria-current="step"]');
  assert.equal(await focused(), '#self-attention');
});

// Tab through #basics/annotations at 1280 × 900: every control it reaches shows whole above the
// sticky footer (the heatmap's Table and Export, the files panel's buttons under the stage).
test('page: everything Tab reaches scrolls into view above the sticky footer', async (t) => {
  const { page } = await openPage(t, '#basics/annotations');
  await page.locator('.stage-link[href="#basics/annotations"]').focus();
  const hidden = [];
  const reached = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const place = await page.evaluate(() => {
      const active = document.activeElement;
      const box = active.getBoundingClientRect();
      const footer = document.querySelector('#stepper').getBoundingClientRect();
      return {
        name: active.textContent.trim().slice(0, 40),
        inFooter: Boolean(active.closest('#stepper')),
        bottom: box.bottom,
        footer: footer.top,
      };
    });
    if (place.inFooter) break; // Tab has left the page's content for the footer's buttons
    reached.push(place.name);
    if (place.bottom > place.footer) hidden.push(place.name);
  }
  for (const name of ['Table', 'Export', 'Open a tensor file (.npy, .npz, .safeten', 'Save all matrices (.npz)'])
    assert.ok(reached.includes(name), `${name} in ${reached.join(' | ')}`);
  assert.deepEqual(hidden, []);
});

// "Skip to the stage", the page's first Tab stop (issue 46, 3.1): its #stages is no walkthrough, so
// it must move focus to the stage and change nothing else, in the page's language.
for (const [lang, hash, text] of [
  ['en', '#self-attention/word-weights', 'Skip to the stage'],
  ['zh', '#basics/context', '跳到当前阶段'],
])
  test(`the skip link (${lang}) moves focus to the stage and keeps the walkthrough, stage and URL`, async (t) => {
    const { page, stage } = await openPage(t, `?lang=${lang}${hash}`);
    const before = { stage: await stage(), url: page.url() };
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), text);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'stages');
    assert.deepEqual({ stage: await stage(), url: page.url() }, before);
    assert.equal(before.stage, hash.slice(1));
  });
