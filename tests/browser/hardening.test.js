// Hardening in the browser: a strict Content-Security-Policy, links and embedding pages that
// carry script payloads, a .wasm that cannot load, and memory over many recomputes and
// connect/disconnect cycles.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { root } from '../pack.js';
import { SEEDS } from '../seeds.js';
import { CROSS_ORIGIN_ISOLATED, serve } from '../../scripts/serve.js';
import { collectErrors, launchChromium } from './chromium.js';

const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
const TOKEN = '<img/src=x/onerror=window.__pwned=1>'; // tokens are whitespace-separated words
let browser;
let strict;
let plain;
let isolated;
const url = (server, path) => `http://127.0.0.1:${server.address().port}/${path}`;

before(async () => {
  browser = await launchChromium();
  strict = await serve(root, 0, { 'content-security-policy': STRICT_CSP });
  plain = await serve(root);
  isolated = await serve(root, 0, { 'content-security-policy': STRICT_CSP, ...CROSS_ORIGIN_ISOLATED });
});
after(async () => {
  await browser?.close();
  strict?.close();
  plain?.close();
  isolated?.close();
});

async function open(t, address, { expectErrors = false, route } = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  if (route) await context.route(...route);
  const page = await context.newPage();
  const errors = collectErrors(page);
  const dialogs = [];
  page.on('dialog', (dialog) => dialogs.push(dialog.message()) && dialog.dismiss());
  t.after(async () => {
    if (!expectErrors) assert.deepEqual(errors, [], 'console errors (CSP violations show up here)');
    assert.deepEqual(dialogs, []);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'a payload ran');
    await context.close();
  });
  await page.goto(address);
  return page;
}

test('the page works under a strict Content-Security-Policy: stages, inputs, exports', async (t) => {
  const page = await open(t, url(strict, 'dist/site/#basics/softmax'));
  await page.waitForSelector('body[data-ready]');
  assert.equal(
    await page.locator('[data-stage="basics/softmax"] .hm-cell[data-col="2"]').getAttribute('data-value'),
    SEEDS.tiny,
  );
  assert.ok((await page.locator('[aria-current="step"] math').count()) > 0, 'the formula rendered');
  await page.fill('#input-decoderState', '1, 0, 0');
  await page.click('.as-next');
  await page.click('.as-previous');
  await page.click('[aria-current="step"] .hm-export summary');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[aria-current="step"] .hm-export-button[data-format="png"]'),
  ]);
  assert.equal(download.suggestedFilename(), 'attention_weights.png');
  const background = await page.evaluate(() => getComputedStyle(document.querySelector('.hm-cell')).backgroundColor);
  assert.notEqual(background, 'rgba(0, 0, 0, 0)', 'cell colours applied');
});

test('cross-origin isolated, the page and the components run the threaded module, under the same policy', async (t) => {
  for (const path of ['dist/site/#basics/softmax', 'tests/browser/components-page.html']) {
    const requests = [];
    const page = await open(t, url(isolated, path), {
      route: ['**/*', (route) => requests.push(route.request().url()) && route.continue()],
    });
    await page.locator(`[data-value="${SEEDS.tiny}"]`).first().waitFor(); // into shadow roots too
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    assert.ok(
      requests.some((request) => /attention-core-threads[.\w-]*\.worker[\w-]*\.js$/.test(request)),
      `${path}: no worker script of the threaded core was requested`,
    );
    const single = requests.filter(
      (request) => /attention-(core|engine)(-\w+)?\.wasm$/.test(request) && !/threads/.test(request),
    );
    assert.deepEqual(single, [], 'no single-threaded module');
  }
});

test('the components work under the same policy', async (t) => {
  const page = await open(t, url(strict, 'tests/browser/components-page.html'));
  await page.waitForFunction(() => document.getElementById('one')?.stage === 'softmax');
  assert.equal(await page.locator('#one .hm-cell').count(), 4);
  assert.equal(await page.locator('#map .hm-cell').count(), 4);
  await page.locator('#one .as-next').click();
  assert.equal(await page.evaluate(() => document.getElementById('one').stage), 'applied');
  const styled = await page.evaluate(
    () => getComputedStyle(document.getElementById('one').shadowRoot.querySelector('.stage-title')).fontWeight,
  );
  assert.equal(styled, '700', 'the shared stylesheet applied inside the shadow root');
});

test('links with script payloads in every field run nothing, and the page still works', async (t) => {
  const inputs = {
    basics: { decoderState: PAYLOAD, annotations: PAYLOAD, seed: PAYLOAD },
    'self-attention': { embeddings: [[PAYLOAD]], seed: -1, word: PAYLOAD },
    scoring: { sentence: [TOKEN, 'car'], step: PAYLOAD },
    [PAYLOAD]: { [PAYLOAD]: PAYLOAD },
  };
  const query = new URLSearchParams({
    lang: PAYLOAD,
    theme: PAYLOAD,
    palette: PAYLOAD,
    exercise: PAYLOAD,
    inputs: JSON.stringify(inputs),
  });
  const page = await open(
    t,
    url(plain, `dist/site/?${query}#${encodeURIComponent(PAYLOAD)}/${encodeURIComponent(PAYLOAD)}`),
  );
  await page.waitForSelector('body[data-ready]');
  assert.equal(
    await page.locator('[data-stage][aria-current="step"]').getAttribute('data-stage'),
    'basics/decoder-state',
  );
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.getAttribute('#input-decoderState', 'aria-invalid'), 'true');
  assert.equal(await page.inputValue('#input-decoderState'), PAYLOAD);
  // words are shown as text wherever they appear: the engine names the unknown one
  await page.click('.walkthrough-tab[href="#scoring"]');
  await page.click('.stage-link[href="#scoring/compare-weights"]');
  assert.ok((await page.textContent('#input-sentence-error')).includes(TOKEN));
  assert.equal(await page.inputValue('#input-sentence'), `${TOKEN} car`);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  // meanwhile the default sentence: its five words and <eos>
  assert.ok((await page.locator('[aria-current="step"] .hm-cell').count()) >= 6);
  // the embed code quotes what it carries
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('#copy-embed');
  const embed = await page.evaluate(() => navigator.clipboard.readText());
  assert.doesNotMatch(embed.split('\n')[0], /<img|<script>window/);
});

test('embedding pages that pass script payloads in attributes and inputs run nothing', async (t) => {
  const given = {
    attributes: { walkthrough: 'scoring', stage: PAYLOAD, lang: PAYLOAD, theme: PAYLOAD, palette: PAYLOAD },
    inputs: { sentence: ['the', TOKEN], step: PAYLOAD },
  };
  const page = await open(
    t,
    url(plain, `tests/browser/components-page.html#${encodeURIComponent(JSON.stringify(given))}`),
  );
  await page.waitForFunction(() => document.getElementById('given')?.stage === 'encoder-states');
  assert.ok((await page.locator('#given .as-error').textContent()).includes(TOKEN));
  assert.match(await page.locator('#given .as-error').textContent(), /Enter a whole number/);
  // inputs that are not JSON at all
  const broken = await open(
    t,
    url(plain, `tests/browser/components-page.html#${encodeURIComponent(JSON.stringify({ inputs: `{${PAYLOAD}` }))}`),
  );
  await broken.waitForFunction(() => document.getElementById('given')?.stage === 'decoder-state');
  assert.match(await broken.locator('#given .as-error').textContent(), /inputs are not valid JSON/);
});

test('when the .wasm cannot load, the page and the components say so instead of staying blank', async (t) => {
  const missing = ['**/*.wasm', (route) => route.fulfill({ status: 404, body: 'not found' })];
  const page = await open(t, url(plain, 'dist/site/'), { expectErrors: true, route: missing });
  await page.waitForFunction(() => document.getElementById('status').classList.contains('error'));
  assert.match(await page.textContent('#status'), /The attention engine could not be loaded/);
  assert.equal(await page.isVisible('#status'), true);
  const components = await open(t, url(plain, 'tests/browser/components-page.html'), {
    expectErrors: true,
    route: missing,
  });
  await components.waitForSelector('#one .as-error');
  assert.match(await components.locator('#one .as-error').textContent(), /could not be loaded/);
});

async function counters(page) {
  // the page's own work done first: what its queued frames and tasks hold is not a leak, and on a
  // busy machine they run later
  await page.evaluate(
    () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(resolve)))),
  );
  const cdp = await page.context().newCDPSession(page);
  // Detached DOM is reclaimed over more than one collection, and later still on a busy machine:
  // collect until the node count stops falling (at most five rounds).
  let previous = Infinity;
  for (let round = 0; round < 5; round++) {
    await cdp.send('HeapProfiler.collectGarbage');
    await page.waitForTimeout(300);
    const { nodes } = await cdp.send('Memory.getDOMCounters');
    if (nodes >= previous) break;
    previous = nodes;
  }
  const { nodes, jsEventListeners } = await cdp.send('Memory.getDOMCounters');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return { nodes, jsEventListeners, usedSize };
}

// DOM nodes and listeners back where they were (5% slack), the JS heap within 25%.
function assertFlat(before, after) {
  assert.ok(after.nodes <= before.nodes * 1.05, `DOM nodes ${before.nodes} -> ${after.nodes}`);
  assert.ok(
    after.jsEventListeners <= before.jsEventListeners * 1.05,
    `listeners ${before.jsEventListeners} -> ${after.jsEventListeners}`,
  );
  assert.ok(after.usedSize < before.usedSize * 1.25, `JS heap ${before.usedSize} -> ${after.usedSize}`);
}

test('memory stays flat over page recomputes and component connect/disconnect cycles', async (t) => {
  const page = await open(t, url(plain, 'dist/site/#basics/applied'));
  await page.waitForSelector('body[data-ready]');
  // Values are set directly (not typed), so the browser's undo history does not keep the old text.
  const edit = (times) =>
    page.evaluate((n) => {
      const field = document.getElementById('input-decoderState');
      for (let i = 0; i < n; i++) {
        field.value = `${i % 7}, 1, 20`;
        field.dispatchEvent(new Event('input'));
      }
    }, times);
  await edit(20);
  const before = await counters(page);
  await edit(200);
  assertFlat(before, await counters(page));

  const components = await open(t, url(plain, 'tests/browser/components-page.html'));
  await components.waitForFunction(() => document.getElementById('one')?.stage);
  const cycle = (times) =>
    components.evaluate(async (n) => {
      for (let i = 0; i < n; i++) {
        const stepper = document.createElement('attention-stepper');
        stepper.setAttribute('walkthrough', 'self-attention');
        document.body.append(stepper);
        await stepper.ready;
        stepper.next();
        stepper.remove();
        const moved = document.getElementById('one');
        moved.remove();
        document.body.prepend(moved);
      }
    }, times);
  await cycle(10);
  const start = await counters(components);
  await cycle(100);
  assertFlat(start, await counters(components));
});
