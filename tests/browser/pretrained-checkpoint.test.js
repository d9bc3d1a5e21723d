// The reader's own checkpoint on the pretrained walkthrough (issue 45) in Debian's Chromium: a
// folder picked in the file dialog (through the file input, webkitdirectory), files picked one by
// one and kept on this device (listed with their size after a reload, opened, deleted), a folder's
// URL from another origin with CORS (the page's ?model-src and the element's model-src) and
// without it, files that are not a checkpoint, a checkpoint too large for the engine refused
// before its weights are read; and back to the shipped model. At 390 px in Chinese too.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const fixtures = fileURLToPath(new URL('../fixtures/pretrained/', import.meta.url));
// the fixtures' tiny tokenizers make more tokens of the default text than their 32 positions
const SHORT = `inputs=${encodeURIComponent(JSON.stringify({ pretrained: { sentence: 'the cat sat' } }))}`;

const shown = (page) => page.locator('section.stage:not([hidden])');
const columnLabels = (page) =>
  shown(page).evaluate((stage) => [...stage.querySelectorAll('.hm-col-label')].map((label) => label.textContent));
const panelStatus = (page) => page.textContent('.model-panel .model-status');

// A server of the fixtures' folders on another origin (localhost, the page being on 127.0.0.1):
// below /cors/ with Access-Control-Allow-Origin, below /plain/ without. Started for each test that
// asks, closed after it.
async function modelServer(t) {
  const server = createServer((request, response) => {
    const [, mode, ...rest] = decodeURIComponent(new URL(request.url, 'http://x').pathname).split('/');
    const headers = mode === 'cors' ? { 'access-control-allow-origin': '*' } : {};
    let body;
    try {
      body = readFileSync(`${fixtures}${rest.join('/')}`);
    } catch {
      return response.writeHead(404, headers).end();
    }
    response.writeHead(200, headers).end(body);
  });
  await new Promise((resolve) => server.listen(0, 'localhost', resolve));
  t.after(() => server.close());
  return `http://localhost:${server.address().port}/`;
}

test('a folder picked in the file dialog takes the shipped model’s place, and back', async (t) => {
  const page = await openPage(session, t, `dist/site/?lang=en&${SHORT}#pretrained/tokens`);
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  assert.match(await page.textContent('.model-checkpoint-note'), /never leave this device/);
  assert.equal(await page.getAttribute('.model-checkpoint-folder', 'webkitdirectory'), '');
  await page.setInputFiles('.model-checkpoint-folder', `${fixtures}llama`);
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  assert.match(await panelStatus(page), /Your checkpoint, a llama of 2 layers of 4 heads/);
  assert.match(await page.textContent('.model-checkpoint-current'), /On screen: llama\./);
  assert.match(await page.textContent('.model-checkpoint-status'), /A llama of [\d,]+ parameters: it needs about/);
  // the stages read the reader's model: its tokenizer's pieces, its layers in the model view
  const pieces = await columnLabels(page);
  assert.equal(pieces[0], '<s>', pieces.join(' '));
  assert.ok(pieces.length > 2);
  await page.goto(`${session.base}dist/site/?lang=en&${SHORT}#pretrained/tokens`);
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  // a page loaded again opens on the shipped model: the reader's files were not kept
  assert.equal(await page.locator('.model-checkpoint-entry').count(), 0);
  await page.setInputFiles('.model-checkpoint-folder', `${fixtures}llama`);
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  await page.screenshot({ path: `${SCREENSHOTS}/pretrained-checkpoint--desktop--llama.png`, fullPage: true });
  await page.click('.model-checkpoint-back');
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  assert.equal((await columnLabels(page))[0], '<|endoftext|>');
  assert.ok(await page.locator('.model-checkpoint-back').isHidden());
});

test('files kept on this device are listed with their size after a reload, opened and deleted', async (t) => {
  const page = await openPage(session, t, `dist/site/?lang=en&${SHORT}#pretrained/model-view`);
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  await page.check('.model-checkpoint-keep');
  const folder = `${fixtures}gpt2-sharded/`;
  const files = readdirSync(folder).filter((name) => name !== 'reference.safetensors');
  await page.setInputFiles(
    '.model-checkpoint-files',
    files.map((name) => folder + name),
  );
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  await page.waitForSelector('.model-checkpoint-entry');
  const size = files.reduce((sum, name) => sum + readFileSync(folder + name).length, 0);
  const entry = await page.textContent('.model-checkpoint-entry');
  assert.match(entry, /\(gpt2\), [\d.]+ (KB|MB)/);
  assert.match(entry, new RegExp(`${(size / 1000).toFixed(size < 9950 ? 1 : 0)} KB`));
  // the fixture has 2 layers of 4 heads
  assert.equal(await shown(page).locator('.mv-head').count(), 8);
  await page.reload();
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  await page.waitForSelector('.model-checkpoint-entry');
  await page.click('.model-checkpoint-open');
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  assert.equal(await shown(page).locator('.mv-head').count(), 8);
  await page.click('.model-checkpoint-delete');
  await page.waitForSelector('.model-checkpoint-entry', { state: 'detached' });
  await page.reload();
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  assert.equal(await page.locator('.model-checkpoint-entry').count(), 0);
});

test('files that are not a checkpoint, and one too large, are refused by name before any weights are read', async (t) => {
  const page = await openPage(session, t, `dist/site/?lang=en&${SHORT}#pretrained/tokens`);
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  await page.setInputFiles('.model-checkpoint-files', [
    `${fixtures}gpt2/config.json`,
    `${fixtures}gpt2/tokenizer.json`,
  ]);
  await page.waitForFunction(() => /no model\.safetensors/.test(document.querySelector('.model-status').textContent));
  assert.match(await panelStatus(page), /^Could not open your checkpoint: the files have no model\.safetensors nor/);
  assert.ok(await page.locator('.model-status.as-error').isVisible());
  // a GPT-2 of 48 layers 6,400 wide: some 24 G parameters, refused from its config alone
  const config = {
    model_type: 'gpt2',
    architectures: ['GPT2LMHeadModel'],
    n_layer: 48,
    n_head: 50,
    n_embd: 6400,
    n_positions: 1024,
    vocab_size: 50257,
  };
  await page.setInputFiles('.model-checkpoint-files', [
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(config)) },
    { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.alloc(16) },
  ]);
  await page.waitForFunction(() => /does not fit/.test(document.querySelector('.model-status').textContent));
  assert.match(await panelStatus(page), /it needs about [\d.]+ GB and this engine can take at most [\d.]+ GB/);
  assert.equal(await page.getAttribute('.model-panel', 'data-origin'), 'shipped');
});

test("a folder's URL on another origin: loaded with CORS (?model-src, kept in the link), refused without", async (t) => {
  const models = await modelServer(t);
  // a browser logs each file a folder lacks (the index, here) and each fetch CORS refuses
  const page = await openPage(
    session,
    t,
    `dist/site/?lang=en&${SHORT}&model-src=${encodeURIComponent(`${models}cors/qwen2/`)}#pretrained/tokens`,
    { viewport: { width: 1280, height: 900 } },
    /Access-Control-Allow-Origin|status of 404|net::ERR_FAILED/,
  );
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  assert.match(await panelStatus(page), /a qwen2 of/);
  assert.match(await page.textContent('.model-checkpoint-current'), /On screen: qwen2\./);
  assert.equal(await page.inputValue('.model-checkpoint-url'), `${models}cors/qwen2/`);
  await page.click('.as-next');
  await page.waitForFunction(() => location.hash.endsWith('/embeddings'));
  assert.ok(new URL(page.url()).searchParams.get('model-src') === `${models}cors/qwen2/`);
  // a server that does not let this page read it
  await page.fill('.model-checkpoint-url', `${models}plain/gpt2/`);
  await page.press('.model-checkpoint-url', 'Enter');
  await page.waitForFunction(() => /could not fetch/.test(document.querySelector('.model-status').textContent));
  assert.match(
    await panelStatus(page),
    /^Could not open gpt2: could not fetch http:\/\/localhost:\d+\/plain\/gpt2\/config\.json .*Access-Control-Allow-Origin/,
  );
  // the model on screen stays the one that loaded
  assert.match(await page.textContent('.model-checkpoint-current'), /On screen: qwen2\./);
});

test('an element’s model-src loads the folder in place of the shipped model', async (t) => {
  const models = await modelServer(t);
  const page = await openPage(session, t, 'tests/browser/components-page.html', undefined, /status of 404/);
  await page.evaluate((source) => {
    document.body.insertAdjacentHTML(
      'beforeend',
      `<attention-stepper id="checkpoint" walkthrough="pretrained" stage="model-view" sentence="the cat sat" model-src="${source}"></attention-stepper>`,
    );
  }, `${models}cors/bert/`);
  const host = page.locator('#checkpoint');
  await host.locator('.model-panel[data-origin="trained"]').waitFor();
  assert.match(await host.locator('.model-status').textContent(), /a bert of 2 layers/);
  // not editable: the reader's controls are not offered, the element's own source loaded all the same
  assert.ok(await host.locator('.model-checkpoint-controls').isHidden());
  assert.ok((await host.locator('.mv-head').count()) > 0);
});

test('390 px, Chinese: the checkpoint part fits the phone', async (t) => {
  const page = await openPage(session, t, `dist/site/?lang=zh&${SHORT}#pretrained/tokens`, {
    viewport: { width: 390, height: 844 },
  });
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  await page.setInputFiles('.model-checkpoint-folder', `${fixtures}distilbert`);
  await page.waitForSelector('.model-panel[data-origin="trained"]');
  assert.match(await panelStatus(page), /你的检查点：distilbert/);
  assert.match(await page.textContent('.model-checkpoint-note'), /不会离开这台设备/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  await page.locator('.model-checkpoint').screenshot({ path: `${SCREENSHOTS}/pretrained-checkpoint--phone--zh.png` });
});
