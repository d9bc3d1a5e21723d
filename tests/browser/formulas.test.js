// KaTeX is a chunk of its own (dist/components/katex.js), loaded when a formula is first drawn:
// an embed that draws no formula never requests it, a stepper does (beside the bundle, from the
// CDN it came from) and renders its formula; a formula drawn before KaTeX came keeps its place
// and is filled in place when it comes; without KaTeX it shows its LaTeX source.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { collectErrors, launchChromium } from './chromium.js';
import { CDN, routeCdn, routeTutorial } from './embeds.js';

const KATEX = `${CDN}dist/components/katex.js`;
const SOFTMAX = '\\alpha_j = \\frac{\\exp(e_j)}{\\sum_k \\exp(e_k)}';

let browser;
before(async () => (browser = await launchChromium()));
after(() => browser?.close());

/**
 * A tutorial's page embedding `body` with the bundle from the CDN (embeds.js): { page, requests, errors }. `katex`
 * answers the request for KaTeX's chunk (default: serve it).
 */
async function embed(t, body, { katex } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(() => context.close());
  await routeCdn(context, (route, serve) =>
    katex && route.request().url() === KATEX ? katex(route, serve) : serve(route),
  );
  const url = await routeTutorial(context, body);
  const page = await context.newPage();
  const errors = collectErrors(page);
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  const scripts = []; // the text of every script the page received
  page.on('response', (response) => response.url().endsWith('.js') && scripts.push(response.text()));
  await page.goto(url);
  return { page, requests, errors, scripts };
}

// the formula of the stepper's stage on screen, as the page sees it
const formulaState = (page) =>
  page.evaluate(() => {
    const formula = document
      .querySelector('attention-stepper')
      .shadowRoot.querySelector('[aria-current="step"] .stage-formula');
    return {
      busy: formula.getAttribute('aria-busy'),
      latex: formula.dataset.latex ?? null,
      label: formula.getAttribute('aria-label'),
      role: formula.getAttribute('role'),
      tex: formula.querySelector('math annotation[encoding="application/x-tex"]')?.textContent ?? null,
      source: formula.querySelector('.formula-source')?.textContent ?? null,
      height: formula.getBoundingClientRect().height,
    };
  });

test('a lone <attention-heatmap> never requests KaTeX', async (t) => {
  const { page, requests, errors, scripts } = await embed(
    t,
    '<attention-heatmap name="w" colour-role="weights" matrix="[[0.1, 0.9], [0.5, 0.5]]"></attention-heatmap>',
  );
  await page.locator('attention-heatmap .hm-cell').first().waitFor();
  assert.equal(await page.locator('attention-heatmap .hm-cell').count(), 4);
  await page.waitForLoadState('networkidle');
  assert.ok(requests.includes(`${CDN}dist/components/attention-stepper.js`), requests.join('\n'));
  assert.deepEqual(
    requests.filter((url) => /katex/i.test(url)),
    [],
  );
  // nor is KaTeX inside what it loads
  for (const text of await Promise.all(scripts)) assert.doesNotMatch(text, /KaTeX parse error/);
  assert.deepEqual(errors, []);
});

test('a stepper requests KaTeX beside the bundle, from the CDN, and renders its formula', async (t) => {
  const { page, requests, errors } = await embed(
    t,
    '<attention-stepper walkthrough="basics" stage="softmax"></attention-stepper>',
  );
  await page.evaluate(() => document.querySelector('attention-stepper').ready);
  assert.deepEqual(
    requests.filter((url) => /katex/i.test(url)),
    [KATEX],
  );
  assert.deepEqual(await formulaState(page), {
    ...(await formulaState(page)),
    busy: null,
    latex: null,
    label: 'Formula',
    role: 'group',
    tex: SOFTMAX,
    source: null,
  });
  // the next stage's formula renders at once, from the KaTeX already loaded
  await page.evaluate(() => document.querySelector('attention-stepper').next());
  assert.equal((await formulaState(page)).tex, '\\alpha_j h_j');
  assert.equal(requests.filter((url) => /katex/i.test(url)).length, 1);
  assert.deepEqual(errors, []);
});

// Issue 33: KaTeX takes none of the bandwidth the first figure needs: it is asked for once the
// first stage, its heatmap drawn, is on screen.
test('KaTeX is requested only once the first stage and its heatmap are on screen; an English one loads no other language', async (t) => {
  let figureFirst;
  const asked = new Promise((resolve) => (figureFirst = resolve));
  let page, requests;
  ({ page, requests } = await embed(t, '<attention-stepper walkthrough="basics" stage="softmax"></attention-stepper>', {
    katex: async (route, serve) => {
      figureFirst(
        await page.evaluate(
          () => !!document.querySelector('attention-stepper').shadowRoot.querySelector('.hm-cell[data-value]'),
        ),
      );
      return serve(route);
    },
  }));
  assert.equal(await asked, true);
  // in English: no other language's texts either
  assert.deepEqual(
    requests.filter((url) => /locale-/.test(url)),
    [],
  );
});

test('a formula drawn before KaTeX comes keeps its place, then fills in place, focus kept', async (t) => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const { page, errors } = await embed(
    t,
    '<attention-stepper walkthrough="basics" stage="softmax"></attention-stepper>',
    {
      katex: (route, serve) => held.then(() => serve(route)),
    },
  );
  // the stage is drawn, its heatmap's numbers too, while KaTeX is held back
  await page.locator('attention-stepper [aria-current="step"] .hm-cell').first().waitFor();
  const waiting = await formulaState(page);
  assert.equal(waiting.busy, 'true');
  assert.equal(waiting.latex, SOFTMAX);
  assert.equal(waiting.tex, null);
  assert.ok(waiting.height >= 25, `a formula's place is kept: ${waiting.height} px`);
  const ready = page.evaluate(() =>
    document
      .querySelector('attention-stepper')
      .ready.then(() => 'ready')
      .catch(String),
  );
  await page.evaluate(() => {
    const formula = document
      .querySelector('attention-stepper')
      .shadowRoot.querySelector('[aria-current="step"] .stage-formula');
    formula.dataset.mark = 'before';
    formula.focus();
  });
  assert.equal(await Promise.race([ready, new Promise((resolve) => setTimeout(() => resolve('waits'), 200))]), 'waits');
  release();
  assert.equal(await ready, 'ready');
  const filled = await formulaState(page);
  assert.equal(filled.tex, SOFTMAX);
  assert.equal(filled.busy, null);
  assert.equal(filled.latex, null);
  assert.deepEqual(
    await page.evaluate(() => {
      const shadow = document.querySelector('attention-stepper').shadowRoot;
      return [
        shadow.querySelector('[aria-current="step"] .stage-formula').dataset.mark,
        shadow.activeElement.className,
      ];
    }),
    ['before', 'stage-formula'],
    'the same element, filled in place, keeps focus',
  );
  assert.deepEqual(errors, []);
});

test('without KaTeX (its chunk fails to load) a formula shows its LaTeX source', async (t) => {
  const { page } = await embed(t, '<attention-stepper walkthrough="basics" stage="softmax"></attention-stepper>', {
    katex: (route) => route.abort(),
  });
  await page.evaluate(() => document.querySelector('attention-stepper').ready);
  const state = await formulaState(page);
  assert.equal(state.source, SOFTMAX);
  assert.equal(state.busy, null);
  assert.ok((await page.locator('attention-stepper [aria-current="step"] .hm-cell').count()) > 0);
});
