// Tensor files in Chromium: files numpy wrote (tests/fixtures/tensors/) dropped on the page's
// fields and on the page, an attention tensor's head picker, the walkthrough saved as .npz and a
// heatmap as .npy (both read back by the engine in Node), and <attention-heatmap src>.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { root } from '../pack.js';
import { assertSeedNumbers, SEEDS } from '../seeds.js';
import { chromiumServing, collectErrors, SCREENSHOTS as shots } from './chromium.js';

const session = chromiumServing(root);
const attn = await loadAttention();
const fixture = (name) => readFileSync(new URL(`../fixtures/tensors/${name}`, import.meta.url));
const expected = JSON.parse(fixture('expected.json'));

async function open(t, path) {
  const context = await session.browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = collectErrors(page);
  t.after(async () => {
    // a missing file's 404 is the one error a test asks for
    assert.deepEqual(
      errors.filter((error) => !error.includes('404')),
      [],
      'console errors',
    );
    await context.close();
  });
  await page.goto(session.base + path);
  return page;
}

/** Drops the fixture `name` on the element `selector` matches, as a file dragged from the desktop. */
async function drop(page, selector, name) {
  await page.evaluate(
    ({ selector, name, bytes }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name));
      const target = document.querySelector(selector);
      for (const type of ['dragover', 'drop'])
        target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { selector, name, bytes: [...fixture(name)] },
  );
}

const note = (page, selector) => page.locator(`${selector} .as-file-status p`).textContent();
const values = (page, selector) =>
  page.locator(`${selector} .hm-cell`).evaluateAll((cells) => cells.map((cell) => Number(cell.dataset.value)));

test('a file dropped on a field fills it, or says why not next to it and keeps the text', async (t) => {
  const page = await open(t, 'dist/site/?lang=en#self-attention/embeddings');
  await page.waitForSelector('body[data-ready]');
  const field = page.locator('#input-embeddings');
  const typed = await field.inputValue();
  const wrapper = '.field:has(#input-embeddings)';

  await drop(page, '#input-embeddings', 'complex.npy');
  await page.waitForSelector(`${wrapper} .as-file-problem`);
  assert.match(await note(page, wrapper), /complex\.npy could not be read: .*dtype '<c16' is not supported/);
  assert.equal(await field.inputValue(), typed);

  await drop(page, '#input-embeddings', 'int8.npy');
  await page.waitForFunction(
    (w) => /does not fit/.test(document.querySelector(`${w} .as-file-status`).textContent),
    wrapper,
  );
  assert.match(await note(page, wrapper), /arr_0 in int8\.npy has shape \[3\], which does not fit Word embeddings/i);
  assert.equal(await field.inputValue(), typed);

  await drop(page, '#input-embeddings', 'int64.npy');
  await page.waitForFunction(
    (w) => /now holds/.test(document.querySelector(`${w} .as-file-status`).textContent),
    wrapper,
  );
  assert.equal(await field.inputValue(), '2, 0, 2\n2, 0, 0\n2, 1, 2');
  assert.deepEqual(await values(page, '[aria-current="step"]'), expected['int64.npy'].arr_0.data);
  await page.screenshot({ path: `${shots}/files-field.png` });
});

test("a file of W_Q, W_K, W_V dropped on the page fills self-attention's weights", async (t) => {
  const page = await open(t, 'dist/site/?lang=en#self-attention/weight-matrices');
  await page.waitForSelector('body[data-ready]');
  await drop(page, '#stages', 'self_attention_weights.npz');
  await page.waitForSelector('.as-files-list li');
  assert.deepEqual(
    await page.locator('.as-files-list li').evaluateAll((items) => items.map((li) => li.firstChild.textContent)),
    ['W_Q [3, 3] int64', 'W_K [3, 3] float32', 'W_V [3, 3] float64'],
  );
  await page.click('.as-files-actions button');
  await page.waitForFunction(() =>
    document.querySelector('.as-files .as-file-status').textContent.startsWith('Filled'),
  );
  // the code now writes the file's weights out, and the numbers are the notebook's
  const code = await page.locator('[aria-current="step"] code').textContent();
  assert.match(code, /W_Q = np\.array\(\[\[2,0,2\], \[2,0,0\], \[2,1,2\]\]\)/);
  const figures = page.locator('[aria-current="step"] figure.heatmap');
  const cells = (figure) =>
    figure.locator('.hm-cell').evaluateAll((all) => all.map((cell) => Number(cell.dataset.value)));
  assert.deepEqual(await cells(figures.nth(1)), expected['self_attention_weights.npz'].W_K.data);
  for (let i = 0; i < 5; i++) await page.click('.as-next');
  assert.equal(
    await page.locator('section[aria-current="step"]').getAttribute('data-stage'),
    'self-attention/word-output',
  );
  assertSeedNumbers({ word1: await cells(page.locator('[aria-current="step"] figure.heatmap').last()) });

  // 2-wide words do not fit the 3x3 weights now given: refused, and the field keeps its text
  const typed = await page.locator('#input-embeddings').inputValue();
  await drop(page, '#input-embeddings', 'uint8.npy');
  const wrapper = '.field:has(#input-embeddings)';
  await page.waitForSelector(`${wrapper} .as-file-problem`);
  assert.match(
    await note(page, wrapper),
    /does not fit Word embeddings, which keeps its text: W_Q \[3x3\] must be 2x2/,
  );
  assert.equal(await page.locator('#input-embeddings').inputValue(), typed);
  assertSeedNumbers({ word1: await cells(page.locator('[aria-current="step"] figure.heatmap').last()) });

  // a file with no tensor named after an input offers no filling, only its tensors to look at
  await drop(page, '#stages', 'positional.npz');
  await page.waitForSelector('.as-files-list li');
  assert.equal(await page.locator('.as-files-actions button').count(), 0);
});

test('an attention tensor opens as one heatmap per head with a layer and head picker', async (t) => {
  const page = await open(t, 'dist/site/?lang=en#basics/softmax');
  await page.waitForSelector('body[data-ready]');
  await drop(page, '#stages', 'attention.npy');
  await page.waitForSelector('.as-files-heads .hm-cell');
  const attention = expected['attention.npy'].arr_0.data; // [2, 3, 4, 4]
  const head = (l, h) => attention.slice((l * 3 + h) * 16, (l * 3 + h + 1) * 16);
  assert.deepEqual(await values(page, '.as-files-heads'), head(0, 0));
  await page.selectOption('.as-files-picker:nth-of-type(1) select', '1');
  await page.selectOption('.as-files-picker:nth-of-type(2) select', '2');
  assert.deepEqual(await values(page, '.as-files-heads'), head(1, 2));
  await page.selectOption('.as-files-picker:nth-of-type(2) select', 'all');
  assert.equal(await page.locator('.as-files-heads .as-files-heatmap').count(), 3);
  assert.deepEqual(await values(page, '.as-files-heads .as-files-heatmap:nth-child(2)'), head(1, 1));
  // hover shows the full value
  await page.hover('.as-files-heads .as-files-heatmap:nth-child(2) .hm-cell >> nth=5');
  assert.match(
    await page.locator('.as-files-heads .as-files-heatmap:nth-child(2) .hm-tooltip').textContent(),
    /: 0\.\d+/,
  );
  await page.screenshot({ path: `${shots}/files-heads.png`, fullPage: true });
});

test('the walkthrough saves as one .npz under the notebook names, a heatmap as .npy', async (t) => {
  const page = await open(t, 'dist/site/?lang=en#basics/applied');
  await page.waitForSelector('body[data-ready]');
  const [npz] = await Promise.all([page.waitForEvent('download'), page.click('.as-files-toolbar button >> nth=1')]);
  assert.equal(npz.suggestedFilename(), 'basics.npz');
  const saved = attn.readTensors(new Uint8Array(readFileSync(await npz.path())));
  assert.deepEqual(Object.keys(saved), [
    'dec_hidden_state',
    'annotation',
    'score',
    'annotations',
    'attention_weights_raw',
    'attention_weights',
    'applied_attention',
    'attention_vector',
    'W_c',
    'h_tilde',
  ]);
  assertSeedNumbers({ scores: saved.attention_weights_raw.data, context: saved.attention_vector.data });

  await page.click('[aria-current="step"] .hm-export summary');
  const [npy] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[aria-current="step"] .hm-export-button[data-format="npy"]'),
  ]);
  assert.equal(npy.suggestedFilename(), 'applied_attention.npy');
  const applied = attn.readTensors(new Uint8Array(readFileSync(await npy.path()))).arr_0;
  assert.deepEqual(applied.shape, [3, 4]);
  assert.equal(applied.dtype, 'float64');
  assert.ok(Math.abs(applied.data[0] - 0.35760876606635264) < 1e-15, String(applied.data[0]));
});

test('<attention-heatmap src> draws a .npy, a named tensor of a .safetensors or .npz, and says what went wrong', async (t) => {
  const page = await open(t, 'tests/browser/files-page.html');
  const shadow = (id, selector) => page.locator(`#${id}`).locator(selector);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('attention-heatmap')].every(
      (element) => !element.shadowRoot.querySelector('.as-status'),
    ),
  );
  assert.deepEqual(await values(page, '#npy'), expected['int64.npy'].arr_0.data);
  assert.equal(await shadow('npy', '.hm-name').textContent(), 'W_Q');
  assert.deepEqual(await values(page, '#named'), expected['model.safetensors'].W_V.data);
  assert.equal(await shadow('named', '.hm-name').textContent(), 'W_V');
  assert.deepEqual(await values(page, '#vector'), expected['self_attention_weights.npz'].W_K.data);
  assert.match(
    await shadow('several', '.as-error').textContent(),
    /holds W_Q, W_K, W_V, attention, mask: name one after #/,
  );
  assert.match(await shadow('missing', '.as-error').textContent(), /could not read .*missing\.npy: 404/);
  assert.match(await shadow('unsupported', '.as-error').textContent(), /dtype '<c16' is not supported/);
  assert.equal(await shadow('several', '.as-error').getAttribute('role'), 'alert');
});

test('an editable <attention-stepper> takes tensor files as the page does', async (t) => {
  const page = await open(t, 'examples/tutorial/index.html');
  await page.waitForFunction(() => document.querySelector('#self')?.stage);
  await page.evaluate(() => document.querySelector('#self').goTo('weight-matrices'));
  const cells = () =>
    page
      .locator('#self section[aria-current="step"] figure.heatmap')
      .first()
      .locator('.hm-cell')
      .evaluateAll((all) => all.map((cell) => Number(cell.dataset.value)));
  const seeded = await cells(); // np.random.seed(7)'s W_Q
  await drop(page, '#self', 'self_attention_weights.npz');
  await page.locator('#self .as-files-actions button').click();
  assert.deepEqual(await cells(), expected['self_attention_weights.npz'].W_Q.data);
  assert.notDeepEqual(seeded, expected['self_attention_weights.npz'].W_Q.data);
  // a file with no tensor named after an input is listed and shown, and fills nothing
  await drop(page, '#self', 'bool.npy');
  await page.waitForSelector('#self .as-files-list li');
  assert.equal(await page.locator('#self .as-files-actions button').count(), 0);
  assert.deepEqual(await cells(), expected['self_attention_weights.npz'].W_Q.data);
});
