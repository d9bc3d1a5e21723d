// A pretrained checkpoint in Debian's Chromium (issue 44): the gpt2 fixture's files fetched as
// Blobs and read a slice at a time, on the page and in a module worker, under a strict
// Content-Security-Policy (no eval: the tokenizers' module neither), its attention, one head's
// trace and greedy tokens as the Node engine gives them, and as PyTorch's reference.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention } from 'attention-stepper';

import { serve } from '../../scripts/serve.js';
import { collectErrors, launchChromium } from './chromium.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
let browser;
let server;

before(async () => {
  browser = await launchChromium();
  server = await serve(root, 0, { 'content-security-policy': STRICT_CSP });
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('the gpt2 fixture on a page and in a worker: the tokens, attention, trace and generation Node gives', async () => {
  const page = await browser.newPage();
  const errors = collectErrors(page);
  await page.goto(`http://127.0.0.1:${server.address().port}/tests/browser/pretrained.html`);
  await page.waitForFunction(() => document.getElementById('result').textContent !== 'loading', null, {
    timeout: 60_000,
  });
  const result = JSON.parse(await page.textContent('#result'));
  assert.equal(result.failed, undefined, result.failed);
  assert.deepEqual(errors, [], 'console errors (a CSP violation among them)');

  const fixture = (path) => readFileSync(new URL(`../fixtures/pretrained/gpt2/${path}`, import.meta.url));
  const attn = await loadAttention({ models: true });
  const model = await attn.loadPretrained({
    config: fixture('config.json').toString(),
    weights: new Uint8Array(fixture('model.safetensors')),
    tokenizer: fixture('tokenizer.json').toString(),
  });
  const text = 'the cat sat on the mat.';
  const run = model.run(text);
  const expected = {
    progress: 1,
    ids: Array.from(run.ids),
    tokens: run.tokens,
    attention: Array.from(run.attentions[1][1].data),
    weights: Array.from(model.trace(text, { layer: 1, head: 1 }).weights.data),
    logits: Array.from(run.logits.data),
    generated: Array.from((await model.generate(text, { maxTokens: 3, stopAtEnd: false })).ids),
  };
  model.dispose();
  // the reference's ids are the text's (make_pretrained_fixtures.py tokenized it)
  const reference = attn.readTensors(new Uint8Array(fixture('reference.safetensors')));
  assert.deepEqual(expected.ids, Array.from(reference.input_ids.data));
  assert.deepEqual(expected.generated, Array.from(reference['generate.ids'].data).slice(0, 3));
  // the same WebAssembly in the browser as in Node: the same bits
  assert.deepEqual(result.page, expected);
  assert.deepEqual(result.worker, expected);
  await page.close();
});
