// Accessibility and phones, in Debian's Chromium: axe-core audits every stage of every
// walkthrough (light and dark, English and Chinese, both palettes, exercise mode) and the embedded
// elements; at 390 px wide the page and the elements show the stage first and never scroll
// sideways. Screenshots go to test-results/screenshots/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention } from 'attention-stepper';

import { chromiumServing, openPage as openServed, SCREENSHOTS as shots } from './chromium.js';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const { walkthroughNames } = await loadAttention({ threads: 1 });

const open = (t, path, contextOptions) => openServed(session, t, path, contextOptions);

const openPage = async (t, query, contextOptions) => {
  const page = await open(t, `dist/site/${query}`, contextOptions);
  await page.waitForSelector('body[data-ready]');
  return page;
};

/** axe-core's serious and critical violations on the page (shadow roots included), one line each. */
async function seriousViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const { violations } = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Audits every stage of every walkthrough in the page as `query` sets it up. */
async function auditEveryStage(t, query) {
  const page = await openPage(t, query);
  const found = [];
  for (const walkthrough of walkthroughNames) {
    await page.goto(`${session.base}dist/site/${query}#${walkthrough}`);
    // a fresh document: models an earlier walkthrough queued for training (scoring's) would
    // otherwise finish mid-audit and redraw this walkthrough's stages under the test
    await page.reload();
    // the seq2seq, captioning and transformer stages are a trained model's translation (caption):
    // the shipped one once it has loaded, else (the Chinese edition's en-zh Transformer) the one the
    // page trains
    if (['seq2seq', 'captioning', 'transformer'].includes(walkthrough))
      await page.waitForSelector('.model-panel:is([data-origin="shipped"], [data-origin="trained"])', {
        timeout: 120_000,
      });
    const stages = await page.$$eval('.stage-link', (links) => links.map((link) => link.getAttribute('href')));
    for (const hash of stages) {
      await page.goto(`${session.base}dist/site/${query}${hash}`);
      await page.waitForSelector(
        `[data-stage="${hash.slice(1)}"][aria-current="step"] :is(.heatmap, .picture, .head-view, .model-view), .question`,
      );
      for (const violation of await seriousViolations(page)) found.push(`${hash}: ${violation}`);
    }
  }
  assert.ok(found.length === 0, found.join('\n'));
}

test('axe-core: every stage, light, English, notebook palette', (t) => auditEveryStage(t, '?lang=en&theme=light'));

test('axe-core: every stage, dark, Chinese, colourblind palette', (t) =>
  auditEveryStage(t, '?lang=zh&theme=dark&palette=colourblind'));

test('axe-core: exercise mode, its questions and their answers', async (t) => {
  const page = await openPage(t, '?lang=en&exercise=1#basics/scores');
  await page.waitForSelector('.question');
  assert.deepEqual(await seriousViolations(page), []);
  await page.click('.question-choice >> nth=3');
  await page.waitForSelector('.question-feedback');
  assert.deepEqual(await seriousViolations(page), []);
});

test('axe-core: the embedded elements (tutorial page: light and dark, editable, zh, a heatmap)', async (t) => {
  const page = await open(t, 'examples/tutorial/index.html');
  await page.evaluate(() => Promise.all([...document.querySelectorAll('attention-stepper')].map((s) => s.ready)));
  await page.waitForFunction(() => document.querySelector('attention-heatmap').shadowRoot.querySelector('.hm-cell'));
  assert.deepEqual(await seriousViolations(page), []);
  // exercise mode inside an element
  await page.evaluate(() => {
    const stepper = document.getElementById('basics');
    stepper.setAttribute('exercise', '');
    stepper.goTo('scores');
  });
  await page.waitForFunction(() => document.getElementById('basics').shadowRoot.querySelector('.question'));
  assert.deepEqual(await seriousViolations(page), []);
  // a page written for the old `role` attribute: read as the colour role, and taken off the host;
  // deprecated, it says so once however many heatmaps use it
  const warnings = [];
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  const old = await page.evaluate(() =>
    ['scores', 'weights'].map((role) => {
      const heatmap = document.createElement('attention-heatmap');
      heatmap.setAttribute('role', role);
      heatmap.setAttribute('matrix', '[[1, 2]]');
      document.body.append(heatmap);
      return { role: heatmap.getAttribute('role'), colourRole: heatmap.getAttribute('colour-role') };
    }),
  );
  assert.deepEqual(old, [
    { role: null, colourRole: 'scores' },
    { role: null, colourRole: 'weights' },
  ]);
  assert.deepEqual(
    warnings.filter((text) => text.includes('deprecated')),
    ['attention-stepper: <attention-heatmap role> is deprecated and goes in 0.5.0: use colour-role.'],
  );
  assert.deepEqual(await seriousViolations(page), []);
});

/** Nothing wider than the screen: the document does not scroll sideways. */
async function assertNoSidewaysScroll(page, where) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= width, `${where}: the page is ${scroll} px wide on a ${width} px screen`);
}

test('at 390 px the page shows the inputs, then the stage, keeps its navigation on screen and never scrolls sideways', async (t) => {
  const page = await openPage(t, '?lang=en#basics/softmax', PHONE);
  for (const hash of [
    '#basics/softmax',
    '#self-attention/all-weights',
    '#scoring/compare-weights',
    '#seq2seq/step-2',
  ]) {
    await page.goto(`${session.base}dist/site/?lang=en${hash}`);
    await page.waitForSelector(`[data-stage="${hash.slice(1)}"][aria-current="step"] .heatmap`);
    await assertNoSidewaysScroll(page, hash);
    const layout = await page.evaluate(() => {
      const box = (element) => element.getBoundingClientRect();
      return {
        stage: box(document.querySelector('[aria-current="step"] .stage-title')).top,
        inputs: box(document.querySelector('#inputs')).bottom,
        stageList: box(document.querySelector('#stage-list')).top,
        next: box(document.querySelector('.as-next')),
        heatmaps: [...document.querySelectorAll('[aria-current="step"] .hm-body')].map((body) => box(body).right),
        settingsOpen: document.getElementById('settings-menu').open,
      };
    });
    assert.ok(layout.stage < layout.stageList, `${hash}: the stage comes before the stage list`);
    assert.ok(layout.inputs <= layout.stage, `${hash}: the inputs sit right above the stage they change`);
    assert.ok(layout.next.bottom <= 844 && layout.next.right <= 390, `${hash}: Next stays on screen`);
    for (const right of layout.heatmaps) assert.ok(right <= 390, `${hash}: a heatmap ends at ${right} px`);
    assert.equal(layout.settingsOpen, false, 'the settings are folded');
    await page.screenshot({ path: `${shots}/phone--${hash.slice(1).replace('/', '--')}.png` });
  }
  // a heatmap wider than the screen scrolls within its own box
  const words = Array.from({ length: 40 }, (_, i) => [i % 2, 1 - (i % 2), i % 3]);
  await page.goto(
    `${session.base}dist/site/?lang=en&inputs=${encodeURIComponent(JSON.stringify({ 'self-attention': { embeddings: words } }))}#self-attention/all-weights`,
  );
  await page.waitForSelector('[data-stage="self-attention/all-weights"][aria-current="step"] .heatmap');
  await assertNoSidewaysScroll(page, 'a 40x40 matrix of weights');
  const body = await page.evaluate(() => {
    const element = document.querySelector('[aria-current="step"] .hm-body');
    return { scroll: element.scrollWidth, width: element.clientWidth, right: element.getBoundingClientRect().right };
  });
  assert.ok(body.right <= 390 && body.scroll >= body.width, JSON.stringify(body));
  // the settings unfold from their summary
  await page.click('#settings-label');
  assert.equal(await page.isVisible('#language'), true);
});

test('at 390 px the embedded elements fit the screen', async (t) => {
  const page = await open(t, 'examples/tutorial/index.html', PHONE);
  await page.evaluate(() => Promise.all([...document.querySelectorAll('attention-stepper')].map((s) => s.ready)));
  await assertNoSidewaysScroll(page, 'tutorial page');
  const rights = await page.evaluate(() =>
    [...document.querySelectorAll('attention-stepper')].map((stepper) => {
      const next = stepper.shadowRoot.querySelector('.as-next').getBoundingClientRect();
      return [stepper.getBoundingClientRect().right, next.right];
    }),
  );
  for (const [stepper, next] of rights) assert.ok(stepper <= 390 && next <= 390, JSON.stringify(rights));
  await page.screenshot({ path: `${shots}/phone--tutorial.png`, fullPage: true });
});
