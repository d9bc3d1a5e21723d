// The model view and the head view of attention computed elsewhere, in Debian's Chromium:
// <attention-model-view> and <attention-head-view> fed JSON (a file, a child) load no WebAssembly;
// a head opens by pointer and keyboard (one Tab stop, arrow keys), its heatmap holds the file's
// weights; a pair of sentences' filters; the head view's layer menu keeps a pressed head; files
// numpy wrote (.npz, 5-D .npz, safetensors) with tokens-src; errors that name what is wrong;
// renderModelView's update and dispose; 390 px without sideways scrolling; axe-core.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const fixtures = new URL('../fixtures/tensors/', import.meta.url);
const json = JSON.parse(readFileSync(new URL('attentions.json', fixtures), 'utf8'));
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

// the values of the heatmap in `root` (a locator), row by row
const cells = (root) => root.locator('.hm-cell').evaluateAll((all) => all.map((cell) => Number(cell.dataset.value)));
// a head's weights in the fixture, as the heatmap's float64 values of its float32 numbers
const weightsOf = (layer, head) => json.attentions[layer][0][head].flat();

test('fed JSON: no WebAssembly, a head opens by pointer and keyboard, the pair filters, the head view', async (t) => {
  const page = await openPage(session, t, 'tests/browser/attention-views.html');
  const model = page.locator('#model');
  await model.locator('.mv-head').first().waitFor();
  // 3 layers × 4 heads, a row per layer; layer 1, head 2 open from the attributes
  assert.equal(await model.locator('.mv-head').count(), 12);
  const pressed = model.locator('.mv-head[aria-pressed="true"]');
  assert.equal(await pressed.getAttribute('data-name'), 'attention-1-2');
  assert.match(await pressed.getAttribute('aria-label'), /^L1 H2: Attention, layer 1, head 2; open it$/);
  assert.equal(await model.locator('.av-opened-title').textContent(), 'Layer 1, head 2');
  assert.deepEqual(await cells(model.locator('.av-opened')), weightsOf(1, 2));
  // one Tab stop for the grid: the open head
  assert.deepEqual(
    await model.locator('.mv-head').evaluateAll((all) => all.map((button) => button.tabIndex).filter((i) => i === 0)),
    [0],
  );
  assert.equal(await pressed.getAttribute('tabindex'), '0');

  // the pointer opens another head; the arrow keys move, Enter opens
  await model.locator('.mv-head[data-name="attention-0-0"]').click();
  assert.equal(await model.locator('.av-opened-title').textContent(), 'Layer 0, head 0');
  assert.deepEqual(await cells(model.locator('.av-opened')), weightsOf(0, 0));
  await model.locator('.mv-head[data-name="attention-0-0"]').focus();
  // (the third ArrowDown is past the last layer: the focus stays)
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'ArrowDown']) await page.keyboard.press(key);
  const focused = () => model.evaluate((element) => element.shadowRoot.activeElement?.dataset.name);
  assert.equal(await focused(), 'attention-2-2');
  await page.keyboard.press('End');
  assert.equal(await focused(), 'attention-2-3');
  await page.keyboard.press('Enter');
  assert.equal(await model.locator('.av-opened-title').textContent(), 'Layer 2, head 3');
  assert.equal(await focused(), 'attention-2-3', 'the focus stays on the head opened');
  assert.deepEqual(await cells(model.locator('.av-opened')), weightsOf(2, 3));

  // the file's second sentence starts at token 5: A → B is tokens 0–4 asking 5–7
  const sentences = model.locator('.av-choice select');
  assert.deepEqual(await sentences.locator('option').allTextContents(), [
    'All',
    'Sentence A → sentence A',
    'Sentence A → sentence B',
    'Sentence B → sentence A',
    'Sentence B → sentence B',
  ]);
  await sentences.selectOption('ab');
  const ab = json.attentions[2][0][3].slice(0, 5).flatMap((row) => row.slice(5));
  assert.deepEqual(await cells(model.locator('.av-opened')), ab);
  assert.deepEqual(
    await model
      .locator('.mv-thumb')
      .first()
      .evaluate((canvas) => [canvas.width, canvas.height]),
    [3, 5],
  );

  // the head view: layer 1 of three tokens from its child; a head pressed stays pressed on layer 0
  const head = page.locator('#head');
  await head.locator('.hv-head').first().waitFor();
  assert.deepEqual(await head.locator('.hv-head').allTextContents(), ['Head 0', 'Head 1', 'Head 2']);
  assert.equal(await head.locator('.av-choice select').inputValue(), '1');
  const visible = () =>
    head
      .locator('.hv-lines line')
      .evaluateAll((lines) => [
        ...new Set(lines.filter((line) => getComputedStyle(line).display !== 'none').map((line) => line.dataset.head)),
      ]);
  assert.deepEqual(await visible(), ['0', '1', '2']);
  await head.locator('.hv-head').nth(1).click();
  await page.mouse.move(0, 0);
  assert.deepEqual(await visible(), ['1']);
  await head.locator('.av-choice select').selectOption('0');
  assert.equal(await head.locator('.hv-head').nth(1).getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await visible(), ['1']);
  // layer 0, head 1 is (1 + 0) % 3's rows: the first query's line to key 1 is the most opaque
  const opacity = await head
    .locator('.hv-lines line[data-head="1"][data-query="0"]')
    .evaluateAll((lines) => lines.map((line) => [line.dataset.key, Number(line.getAttribute('stroke-opacity'))]));
  assert.deepEqual(opacity, [
    ['0', 0.1],
    ['1', 0.8],
    ['2', 0.1],
  ]);

  await page.screenshot({ path: `${SCREENSHOTS}/attention-views--desktop.png`, fullPage: true });
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
  assert.ok(loaded.some((url) => url.endsWith('attentions.json')));
  assert.deepEqual(
    loaded.filter((url) => url.endsWith('.wasm')),
    [],
    'a view fed JSON loads no WebAssembly',
  );
});

test('renderModelView and renderHeadView: errors name the argument, update keeps the open head, dispose', async (t) => {
  const page = await openPage(session, t, 'tests/browser/attention-views.html');
  await page.waitForFunction(() => window.attentionViews);
  const result = await page.evaluate((data) => {
    const { renderModelView } = window.attentionViews;
    const holder = document.querySelector('#drawn');
    const refused = (call) => {
      try {
        call();
        return null;
      } catch (error) {
        return [error.argument, error.message];
      }
    };
    const errors = [
      refused(() => renderModelView(holder, data.attentions, data.tokens.slice(2))),
      refused(() => renderModelView(holder, data.attentions, data.tokens, { layer: 3 })),
      refused(() => renderModelView(holder, data.attentions, data.tokens, { palette: 'rainbow' })),
      refused(() => renderModelView(null, data.attentions, data.tokens)),
    ];
    const view = renderModelView(holder, data.attentions, data.tokens, { layer: 2, head: 1 });
    const before = holder.querySelector('.av-opened-title').textContent;
    // two layers of the same heads: layer 2 is gone, head 1 stays
    view.update(data.attentions.slice(0, 2), data.tokens);
    const after = [holder.querySelectorAll('.mv-head').length, holder.querySelector('.av-opened-title')?.textContent];
    view.update(data.attentions, data.tokens, { layer: 0, head: 3 });
    const chosen = holder.querySelector('.av-opened-title').textContent;
    view.dispose();
    return { errors, before, after, chosen, left: holder.childElementCount };
  }, json);
  assert.deepEqual(result.errors, [
    ['tokens', 'tokens has 6 entries but the attentions are over 8 tokens'],
    ['layer', 'layer must be a whole number from 0 to 2, got 3'],
    ['palette', 'palette must be one of notebook, colourblind, got rainbow'],
    ['element', 'element must be a DOM element to draw into'],
  ]);
  assert.equal(result.before, 'Layer 2, head 1');
  // the open head's layer is gone from the new data: nothing is open
  assert.deepEqual(result.after, [8, undefined]);
  assert.equal(result.chosen, 'Layer 0, head 3');
  assert.equal(result.left, 0);
});

test("from numpy's files: .npz and tokens-src, safetensors, one 5-D tensor in Chinese, and errors", async (t) => {
  // the missing file's 404 is the one error the page asks for
  const page = await openPage(session, t, 'tests/browser/attention-views-files.html', undefined, /404/);
  const npz = page.locator('#npz');
  await npz.locator('.av-opened .hm-cell').first().waitFor();
  assert.equal(await npz.locator('.mv-head').count(), 12);
  assert.deepEqual(await cells(npz.locator('.av-opened')), weightsOf(2, 3));
  // no second sentence in the file: no pair menu
  assert.equal(await npz.locator('.av-choice').count(), 0);
  const safetensors = page.locator('#safetensors');
  await safetensors.locator('.hv-head').first().waitFor();
  assert.equal(await safetensors.locator('.av-choice select').inputValue(), '2');
  const five = page.locator('#five');
  await five.locator('.mv-head').first().waitFor();
  assert.equal(await five.locator('.mv-head').count(), 12);
  assert.match(
    await five.locator('.mv-head').first().getAttribute('aria-label'),
    /^层0 头0：注意力，第 0 层，第 0 个头；打开$/,
  );
  assert.match(
    await page.locator('#short .as-error').textContent(),
    /^attention-model-view: tokens has 2 entries but the attentions are over 8 tokens$/,
  );
  assert.equal(await page.locator('#short .as-error').getAttribute('role'), 'alert');
  assert.match(
    await page.locator('#missing .as-error').textContent(),
    /^attention-model-view: could not read \.\.\/fixtures\/tensors\/missing\.npz: 404/,
  );
});

test('390 px: the views scroll inside themselves, not the page; axe-core finds nothing serious', async (t) => {
  const page = await openPage(session, t, 'tests/browser/attention-views.html', PHONE);
  await page.locator('#model .av-opened .hm-cell').first().waitFor();
  await page.locator('#head .hv-head').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: `${SCREENSHOTS}/attention-views--phone.png`, fullPage: true });
  await page.addScriptTag({ content: axeSource });
  const { violations } = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  assert.deepEqual(serious, []);
});
