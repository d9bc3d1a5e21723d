// Embedding, as tutorial authors and app developers do it: the plain-HTML tutorial page in
// examples/, the README's snippets run verbatim, a Vite app built from the `npm pack` tarball, an
// iframe that sizes itself, and every export of a heatmap.
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { build } from 'vite';

import { installPackedPackage, root } from '../pack.js';
import { assertSeedNumbers, SEEDS } from '../seeds.js';
import { serve } from '../../scripts/serve.js';
import { collectErrors, launchChromium } from './chromium.js';
import { FIRST_FIGURE, firstFigure, routeCdn, routeTutorial } from './embeds.js';

let browser;
let server;
let base;
const servers = [];

before(async () => {
  browser = await launchChromium();
  server = await serve(root);
  servers.push(server);
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(async () => {
  await browser?.close();
  servers.forEach((s) => s.close());
});

async function open(t, url, contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...contextOptions });
  const page = await context.newPage();
  const errors = collectErrors(page);
  const wasm = [];
  const requested = [];
  page.on('request', (request) => {
    requested.push(request.url());
    if (request.url().endsWith('.wasm')) wasm.push(request.url());
  });
  t.after(async () => {
    assert.deepEqual(errors, [], 'console errors');
    await context.close();
  });
  await page.goto(url);
  return { page, wasm, requested };
}

const ready = (page, selector) => page.waitForFunction((s) => document.querySelector(s)?.stage, selector);

test('the tutorial page: two independent steppers and a heatmap, one shared WebAssembly instance', async (t) => {
  const { page, wasm, requested } = await open(t, `${base}examples/tutorial/index.html`);
  await ready(page, '#basics');
  await ready(page, '#self');
  assert.equal(wasm.length, 1, `one .wasm request: ${wasm}`);
  assert.match(wasm[0], /attention-core\.wasm$/, 'the core module: no walkthrough here shows a model');
  assert.equal(await page.locator('#basics [aria-current="step"]').getAttribute('data-stage'), 'basics/scores');
  assertSeedNumbers({
    scores: await page.locator('#basics .hm-cell').evaluateAll((cells) => cells.map((cell) => cell.dataset.value)),
  });
  assert.equal(await page.locator('attention-heatmap .hm-cell').count(), 16);
  assert.deepEqual(
    await page.locator('#weights .hm-cell').evaluateAll((cells) => cells.map((cell) => cell.textContent)),
    ['0.119', '7.9e-232', '0', '0.881'],
  );

  // stepping one stepper leaves the other alone, and emits stagechange
  await page.locator('#basics .as-next').click();
  assert.equal(await page.evaluate(() => document.querySelector('#basics').stage), 'softmax');
  assert.equal(await page.evaluate(() => document.querySelector('#self').stage), 'embeddings');
  assert.equal(await page.textContent('#log'), 'basics: softmax (6/9)');
  await page.evaluate(() => document.querySelector('#self').goTo('word-output'));
  assert.equal(await page.textContent('#log'), 'self: word-output (7/10)');
  await page.evaluate(() => document.querySelector('#self').prev());
  assert.equal(await page.getAttribute('#self', 'stage'), 'word-weights');
  assert.equal(await page.evaluate(() => document.querySelector('#basics').stage), 'softmax');

  // keyboard inside a stepper: the page's keys, from the one controller
  await page.locator('#basics .as-next').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.querySelector('#basics').stage), 'applied');
  for (const [key, stage] of [
    ['End', 'attentional-state'],
    ['PageUp', 'context'],
    ['Home', 'decoder-state'],
    ['PageDown', 'annotation'],
  ]) {
    await page.keyboard.press(key);
    assert.equal(await page.evaluate(() => document.querySelector('#basics').stage), stage, key);
  }
  await page.evaluate(() => document.querySelector('#basics').goTo('applied'));

  // inline inputs (seed 7) and editing them, in Chinese
  await page.evaluate(() => document.querySelector('#self').goTo('weight-matrices'));
  const weights = () => page.locator('#self .hm-cell').evaluateAll((cells) => cells.map((c) => c.dataset.value).join());
  const seeded7 = await weights();
  const firstCell = await page.locator('#self .hm-cell').first().elementHandle();
  await page.locator('#self #input-seed').fill('42');
  assert.notEqual(await weights(), seeded7);
  assert.equal(await firstCell.evaluate((cell) => cell.isConnected), true); // redrawn in place
  assertSeedNumbers({ W_Q: (await weights()).split(',').slice(0, 9) }, 'seed 42 typed in');
  assert.match(await page.locator('#self .as-next').textContent(), /下一步/);
  await page.locator('#self #input-embeddings').fill('1, 0\n1');
  assert.match(await page.locator('#self #input-embeddings-error').textContent(), /第 2 行/);

  // styles stay on their side of the shadow boundary; custom properties theme the inside
  const colours = await page.evaluate(() => {
    const inside = (host, selector) =>
      getComputedStyle(document.querySelector(host).shadowRoot.querySelector(selector));
    return {
      hostH2: getComputedStyle(document.querySelector('h2')).color,
      stageTitle: inside('#basics', '.stage-title').color,
      button: inside('#basics', '.as-next').backgroundColor,
      accent: inside('#basics', '.as-walkthrough').color,
      hostBody: getComputedStyle(document.body).fontFamily,
    };
  });
  assert.equal(colours.hostH2, 'rgb(176, 0, 32)');
  assert.notEqual(colours.stageTitle, 'rgb(176, 0, 32)');
  assert.notEqual(colours.button, 'rgb(255, 105, 180)');
  assert.equal(colours.accent, 'rgb(10, 110, 92)');
  assert.match(colours.hostBody, /Georgia/);
  await page.screenshot({ path: join(root, 'test-results/screenshots/examples--tutorial.png'), fullPage: true });
  const models = requested.filter((url) => /attention-engine/.test(url));
  assert.deepEqual(models, [], "the models' module is never requested");
  assert.deepEqual(
    requested.filter((url) => /model-(panel|walkthroughs)/.test(url)),
    [],
    "nor the model panel's code, nor the walkthroughs of trained models'",
  );
  // the Chinese texts come once, for the one stepper in Chinese, and each stepper's walkthrough's
  // texts in its language: none of the others'
  assert.deepEqual(
    requested.filter((url) => /locale-/.test(url)).map((url) => url.split('/').pop()),
    ['locale-zh.js'],
  );
  assert.deepEqual(
    requested
      .filter((url) => /texts-/.test(url))
      .map((url) => url.split('/').pop())
      .sort(),
    ['texts-en-basics.js', 'texts-zh-self-attention.js'],
  );
});

// Issue 33's goal for a tutorial's figure on a phone's slow connection; bench/embed.js times it.
const BASICS_EMBED_BUDGET = 200 * 1024; // bytes, gzip, before the first figure

test("the README's basics embed transfers at most 200 KB gzip before its first figure: no models' module, KaTeX, model panel, walkthroughs of models or other walkthrough's texts", async (t) => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  t.after(() => context.close());
  await routeCdn(context);
  const url = await routeTutorial(context, '<attention-stepper walkthrough="basics"></attention-stepper>');
  await context.addInitScript(FIRST_FIGURE);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url);
  const { requests } = await firstFigure(page);
  const files = requests.map((request) => request.url.split('/').pop());
  const gzip = requests.reduce((sum, request) => sum + request.gzip, 0);
  const list = requests.map((r) => `${(r.gzip / 1024).toFixed(1)} KB ${r.url}`).join('\n');
  assert.ok(gzip <= BASICS_EMBED_BUDGET, `${(gzip / 1024).toFixed(1)} KB gzip before the first figure:\n${list}`);
  assert.ok(files.includes('attention-core.wasm'), list);
  for (const unwanted of [/attention-engine/, /katex/, /model-/, /locale-/, /texts-(?!en-basics)/])
    assert.ok(!files.some((file) => unwanted.test(file)), `${unwanted} before the first figure:\n${list}`);
  assert.deepEqual(errors, []);
});

// Issue 45's goal for a model view fed JSON, from a CDN: bench/embed.js times it.
const MODEL_VIEW_EMBED_BUDGET = 80 * 1024; // bytes, gzip, before the first figure

test('a model view fed JSON from a CDN loads no WebAssembly and at most 80 KB gzip before its first figure', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  t.after(() => context.close());
  await routeCdn(context);
  const data = readFileSync(join(root, 'tests/fixtures/tensors/attentions.json'), 'utf8');
  const url = await routeTutorial(
    context,
    `<attention-model-view><script type="application/json">${data}</script></attention-model-view>`,
  );
  await context.addInitScript(FIRST_FIGURE);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url);
  const { requests } = await firstFigure(page);
  const gzip = requests.reduce((sum, request) => sum + request.gzip, 0);
  const list = requests.map((r) => `${(r.gzip / 1024).toFixed(1)} KB ${r.url}`).join('\n');
  assert.ok(gzip <= MODEL_VIEW_EMBED_BUDGET, `${(gzip / 1024).toFixed(1)} KB gzip before the first figure:\n${list}`);
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
  assert.deepEqual(
    loaded.filter((file) => /\.wasm$|attention-core|katex/.test(file)),
    [],
    list,
  );
  assert.equal(await page.locator('attention-model-view .mv-head').count(), 12);
  assert.deepEqual(errors, []);
});

test('<attention-stepper walkthrough="seq2seq" task=… sentence=…> shows the shipped model\'s translation; walkthrough="scoring" takes sentence and step', async (t) => {
  const { page, wasm } = await open(t, `${base}tests/browser/seq2seq-element.html`);
  const stepper = page.locator('#translation');
  await stepper.locator('.model-panel[data-origin="shipped"]').waitFor();
  // steppers of models load the engine's module (here, and in the worker that trains scoring's
  // missing models), never the core's first
  const modules = wasm.map((url) => url.split('/').pop());
  assert.ok(modules.includes('attention-engine.wasm'), modules.join());
  assert.ok(!modules.some((name) => /attention-core/.test(name)), modules.join());
  assert.equal(await stepper.evaluate((element) => element.stage), 'alignment');
  const rows = await stepper.evaluate((element) => element.trace.labels.target);
  assert.deepEqual(rows, ['我', '今天', '在', '家', '吃', '饭', '<eos>']);
  assert.ok((await stepper.locator('[data-stage="seq2seq/alignment"] .hm-cell').count()) >= 2 * 7 * 7);
  // the scoring walkthrough's sentence and step as attributes: step 3 writes "voiture", from "car"
  const scoring = page.locator('#scoring');
  await page.waitForFunction(() => document.getElementById('scoring').trace?.labels.target.length === 7);
  assert.equal(await scoring.evaluate((element) => element.stage), 'compare-weights');
  assert.deepEqual(await scoring.evaluate((element) => element.trace.labels.target), [
    'la',
    'petite',
    'voiture',
    'rouge',
    'est',
    'mouillée',
    '<eos>',
  ]);
  const gold = await scoring
    .locator('[data-stage="scoring/compare-weights"] .panel:last-child .hm-cell')
    .evaluateAll((cells) => cells.map((cell) => cell.dataset.value));
  assert.deepEqual(gold, ['0', '0', '0', '1', '0', '0', '0']);
});

test('loaded from a CDN, a scoring embed trains its missing models in a worker; without editable it shows the runs, not the controls', async (t) => {
  const host = await serve(root, 0, {});
  servers.push(host);
  const hostBase = `http://127.0.0.1:${host.address().port}/`;
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(() => context.close());
  const url = await routeTutorial(
    context,
    '<attention-stepper walkthrough="scoring" sentence="the small red car is wet" step="3"></attention-stepper>',
    `${hostBase}cdn.html`,
  );
  await routeCdn(context);
  const page = await context.newPage();
  const errors = collectErrors(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(url);
  const panel = page.locator('attention-stepper .model-panel');
  await panel.and(page.locator('[data-training="running"]')).waitFor({ timeout: 30_000 });
  // the worker reports: a step past the first chunk
  await page.waitForFunction(
    () =>
      /Step [1-9]/.test(
        document.querySelector('attention-stepper').shadowRoot.querySelector('.model-numbers')?.textContent,
      ),
    null,
    { timeout: 60_000 },
  );
  assert.ok(
    workers.some((url) => url.startsWith('blob:')),
    `the worker starts from a same-origin blob: ${workers}`,
  );
  // what trains and why, above the stage
  assert.equal(await panel.locator('.model-status').isVisible(), true);
  const run = page.locator('attention-stepper .model-run');
  assert.match(await run.locator('.model-run-heading').textContent(), /Training the Luong \w+, English → French model/);
  assert.equal(await run.locator('.model-progress').isVisible(), true);
  for (const hidden of ['.model-controls', '.model-files', '.model-vocabulary'])
    assert.equal(await panel.locator(hidden).isVisible(), false, `${hidden} shows without editable`);
  assert.deepEqual(errors, []);
});

test("the README's embedding snippets work verbatim", async (t) => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split('## Embed it in your tutorial')[1].split('\n## ')[0];
  const snippets = [...section.matchAll(/```html\n([\s\S]*?)```/g)].map((match) => match[1]);
  assert.equal(snippets.length, 6);
  const host = await serve(root, 0, {});
  servers.push(host);
  const hostBase = `http://127.0.0.1:${host.address().port}/`;
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(() => context.close());
  // the CDN and the page's host, served from this checkout's build
  await routeCdn(context);
  await context.route('https://example.org/attention-stepper/**', (route) => {
    const path = new URL(route.request().url()).pathname.replace('/attention-stepper/', '') || 'index.html';
    return route.fulfill({ path: join(root, 'dist/site', path) });
  });
  await context.route(`${hostBase}snippets.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${snippets.join('\n')}</body></html>`,
    }),
  );
  const page = await context.newPage();
  const errors = collectErrors(page);
  const logs = [];
  page.on('console', (message) => logs.push(message.text()));
  await page.goto(`${hostBase}snippets.html`);
  await page.waitForFunction(() => document.querySelector('#mine')?.stage === 'word-weights');
  assert.ok(logs.includes('stage word-weights'), logs.join(' | '));
  assert.equal(
    await page.locator('attention-stepper[walkthrough="basics"] [data-stage="basics/softmax"] .hm-cell').count(),
    4,
  );
  assert.equal(
    await page.locator('attention-stepper[walkthrough="basics"] .hm-cell[data-col="2"]').getAttribute('data-value'),
    SEEDS.tiny,
  );
  assert.equal(await page.locator('#mine [data-stage="self-attention/word-weights"] .hm-cell').count(), 3);
  assert.equal(await page.locator('attention-heatmap .hm-cell').count(), 4);
  assert.equal(await page.locator('attention-heatmap .hm-cell').first().textContent(), '0.119');
  // the model view of two layers of two heads, layer 1's head 0 open
  assert.equal(await page.locator('attention-model-view .mv-head').count(), 4);
  assert.equal(await page.locator('attention-model-view .av-opened-title').textContent(), 'Layer 1, head 0');
  assert.equal(await page.locator('attention-model-view .av-opened .hm-cell').nth(3).getAttribute('data-value'), '0.5');
  // the iframe fits its content: its height changes from 640px to what the page reports
  const frame = page.locator('iframe');
  await frame.scrollIntoViewIfNeeded(); // the snippet's iframe loads lazily, as a reader scrolls to it
  await page.waitForFunction(() => document.querySelector('iframe').style.height !== '640px');
  const reported = await frame.evaluate((element) => parseInt(element.style.height, 10));
  const inner = await page
    .frameLocator('iframe')
    .locator('html')
    .evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
  assert.equal(reported, inner);
  assert.equal(
    await page.frameLocator('iframe').locator('[data-stage="basics/context"][aria-current="step"]').count(),
    1,
  );
  assert.equal(await page.frameLocator('iframe').locator('.topbar').isVisible(), false);
  await page.screenshot({ path: join(root, 'test-results/screenshots/examples--readme-snippets.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

test('a Vite app built from the npm pack tarball imports the engine and the components', async (t) => {
  const app = installPackedPackage('vite-app');
  for (const file of ['index.html', 'main.js']) cpSync(join(root, 'examples/vite-app', file), join(app, file));
  await build({ root: app, logLevel: 'warn', build: { outDir: join(app, 'dist'), target: 'es2022' } });
  const appServer = await serve(join(app, 'dist'));
  servers.push(appServer);
  const { page, wasm } = await open(t, `http://127.0.0.1:${appServer.address().port}/`);
  await page.waitForFunction(() => document.getElementById('result').textContent !== 'loading');
  await ready(page, '#stepper');
  const result = JSON.parse(await page.textContent('#result'));
  assertSeedNumbers({ scores: result.scores, word1: result.word1 }, 'the Vite app');
  assert.equal(await page.locator('#stepper [data-stage="self-attention/all-weights"] .hm-cell').count(), 16);
  assert.equal(wasm.length, 1, 'the app and the components share one instance');
});

test('every export of a heatmap downloads valid PNG, SVG, CSV and JSON, and copies numpy', async (t) => {
  const { page } = await open(t, `${base}dist/site/#basics/applied`, {
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await page.waitForSelector('body[data-ready]');
  await page.click('[aria-current="step"] .hm-export summary');
  const saved = {};
  for (const format of ['png', 'svg', 'csv', 'json']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`[aria-current="step"] .hm-export-button[data-format="${format}"]`),
    ]);
    assert.equal(download.suggestedFilename(), `applied_attention.${format}`);
    saved[format] = readFileSync(await download.path());
  }
  assert.deepEqual([...saved.png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const svg = saved.svg.toString();
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal(svg.match(/<rect class="cell"/g).length, 12);
  assert.match(svg, /h4/);
  assert.match(svg, /5\.8e-340/);
  const csv = saved.csv.toString().trim().split('\n');
  assert.equal(csv.length, 4);
  assert.equal(csv[0], ',h1,h2,h3,h4');
  assert.equal(csv[1].split(',')[3], SEEDS.tiny);
  const json = JSON.parse(saved.json.toString());
  assert.equal(json.rows, 3);
  assert.equal(json.exact[1][2], SEEDS.appliedTiny[1]);
  await page.click('[aria-current="step"] .hm-export-button[data-format="numpy"]');
  await page.waitForFunction(
    () => document.querySelector('[aria-current="step"] .hm-export-status').textContent !== '',
  );
  const numpy = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(numpy, /^np\.array\(\[\[0\.3576087/);
  assert.ok(numpy.includes(`'${SEEDS.tiny}'`), numpy);
  assert.match(numpy, /dtype=np\.float128\)$/);
});
