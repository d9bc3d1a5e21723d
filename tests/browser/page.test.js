// The step-through page in Debian's Chromium, served from dist/site as any static host would.
// Saves a screenshot of every stage to test-results/screenshots/.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { assertSeedNumbers, SEEDS } from '../seeds.js';
import { chromiumServing, collectErrors, SCREENSHOTS as shots } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../../dist/site', import.meta.url)));

/** Opens the page at `path`; every test checks afterwards that nothing reached the console. */
async function open(t, path, viewport = { width: 1360, height: 900 }) {
  const context = await session.browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const errors = collectErrors(page);
  const elsewhere = [];
  page.on('request', (request) => request.url().startsWith(session.base) || elsewhere.push(request.url()));
  t.after(async () => {
    assert.deepEqual(errors, [], 'console errors');
    assert.deepEqual(elsewhere, [], 'requests outside the page origin');
    await context.close();
  });
  await page.goto(session.base + path);
  await page.waitForSelector('body[data-ready]');
  return page;
}

/** Same-document navigation to a stage's hash, waiting until that stage is on screen. */
async function go(page, hash) {
  await page.goto(session.base + hash);
  await page.waitForSelector(`[data-stage="${hash.split('#')[1]}"][aria-current="step"]`);
}

/**
 * Waits for `walkthrough` to open (a walkthrough of models once their code is in) and, on the
 * seq2seq walkthrough, for the trained model the page ships (its stages follow it).
 */
async function shippedModel(page, walkthrough = 'seq2seq') {
  await page.waitForSelector(`[data-stage^="${walkthrough}/"][aria-current="step"]`);
  if (walkthrough === 'seq2seq') await page.waitForSelector('.model-panel[data-origin="shipped"]');
}

const current = (page) => page.getAttribute('[data-stage][aria-current="step"]', 'data-stage');
const cellValues = (page, stage, panel = 0) =>
  page.$$eval(`[data-stage="${stage}"] .panel:nth-child(${panel + 1}) .hm-cell`, (cells) =>
    cells.map((cell) => cell.dataset.value),
  );

test('opens on the Attention Basics walkthrough with the notebook numbers', async (t) => {
  const page = await open(t, '');
  assert.equal(await current(page), 'basics/decoder-state');
  assert.deepEqual(await cellValues(page, 'basics/decoder-state'), SEEDS.decoderState.map(String));
  assert.equal(await page.locator('[data-stage]').count(), 9);
});

test('steps through every stage of every walkthrough with the buttons, one screenshot each', async (t) => {
  const page = await open(t, '');
  for (const walkthrough of ['basics', 'self-attention', 'scoring', 'seq2seq', 'numerics']) {
    await page.click(`.walkthrough-tab[href="#${walkthrough}"]`);
    await shippedModel(page, walkthrough);
    const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
    for (const [i, id] of ids.entries()) {
      assert.equal(await current(page), id);
      assert.equal(await page.locator('[aria-current="step"][data-stage]').count(), 1);
      assert.ok((await page.locator(`[data-stage="${id}"] .hm-cell`).count()) > 0, `${id} has cells`);
      assert.equal(await page.isDisabled('.as-next'), i === ids.length - 1);
      await page.screenshot({ path: `${shots}/${id.replace('/', '--')}.png`, fullPage: true });
      if (i < ids.length - 1) await page.click('.as-next');
    }
    for (let i = ids.length - 1; i > 0; i--) await page.click('.as-previous');
    assert.equal(await current(page), ids[0]);
  }
});

test('steps through every stage of every walkthrough by keyboard', async (t) => {
  const page = await open(t, '');
  for (const walkthrough of ['basics', 'self-attention', 'scoring', 'seq2seq', 'numerics']) {
    await page.locator(`.walkthrough-tab[href="#${walkthrough}"]`).focus();
    await page.keyboard.press('Enter');
    await shippedModel(page, walkthrough);
    await page.locator('#stages').focus();
    const ids = await page.$$eval('[data-stage]', (sections) => sections.map((s) => s.dataset.stage));
    for (const id of ids) {
      assert.equal(await current(page), id);
      await page.keyboard.press('ArrowRight');
    }
    assert.equal(await current(page), ids.at(-1)); // stays on the last stage
    for (const id of ids.slice().reverse()) {
      assert.equal(await current(page), id);
      await page.keyboard.press('ArrowLeft');
    }
  }
});

test('numerics: hovering a cell shows its bits, NaN in float16 and the float128 weight below a double', async (t) => {
  const page = await open(t, '#numerics/naive');
  const panel = '[data-stage="numerics/naive"] .panel:nth-child(3)'; // softmax, a row per precision
  await page.locator(`${panel} .hm-cell`).first().hover(); // float16, x1: inf / inf
  const tip = page.locator(`${panel} .hm-tooltip`);
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.textContent(), /^float16 · x1: NaN/);
  assert.equal(await tip.locator('.hm-bits').textContent(), 'sign 1 · exponent 11111 · mantissa 1000000000');
  await go(page, '#numerics/underflow');
  const weights = await cellValues(page, 'numerics/underflow');
  assert.equal(weights[4 * 4 + 2], '5.7661442e-340'); // float128's row, x3
  assert.equal(weights[3 * 4 + 2], '0'); // float64's
});

test('keyboard details: Home and End, buttons by Enter, arrows inside a heatmap', async (t) => {
  const page = await open(t, '#basics');
  await page.locator('#stages').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await current(page), 'basics/annotation');
  await page.keyboard.press('End');
  assert.equal(await current(page), 'basics/attentional-state');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await current(page), 'basics/context');
  await page.keyboard.press('Home');
  assert.equal(await current(page), 'basics/decoder-state');
  // Tab reaches the next button and Enter presses it
  await page.locator('.as-next').focus();
  await page.keyboard.press('Enter');
  assert.equal(await current(page), 'basics/annotation');
  // arrows inside a heatmap move between cells, not between stages
  await page.locator('[aria-current="step"] .hm-grid').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await current(page), 'basics/annotation');
  assert.match(await page.textContent('[aria-current="step"] .hm-tooltip'), /1 · h1: 12/);
});

test("the seeds' numbers are in the DOM, 5.7661442e-340 included", async (t) => {
  const page = await open(t, '#basics/single-score');
  const [score] = await cellValues(page, 'basics/single-score');
  await go(page, '#basics/scores');
  const scores = await cellValues(page, 'basics/scores');
  await go(page, '#basics/softmax');
  const weights = await cellValues(page, 'basics/softmax'); // the third as its float128 text
  await go(page, '#basics/applied');
  const applied = await cellValues(page, 'basics/applied');
  await go(page, '#basics/context');
  const context = await cellValues(page, 'basics/context');
  await go(page, '#self-attention/weight-matrices');
  const [W_Q, W_K, W_V] = await Promise.all(
    [0, 1, 2].map((panel) => cellValues(page, 'self-attention/weight-matrices', panel)),
  );
  await go(page, '#self-attention/word-output');
  const word1 = await cellValues(page, 'self-attention/word-output', 1);
  assertSeedNumbers(
    {
      score,
      scores,
      weights,
      tiny: weights[2],
      appliedTiny: [applied[2], applied[6], applied[10]],
      context,
      W_Q,
      W_K,
      W_V,
      word1,
    },
    'data-value',
  );
});

test("a page opened on a walkthrough of models loads the engine's module alone; one opened on basics the core's, and the engine's when a tab of models is chosen", async (t) => {
  const modules = (page) =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name.match(/attention-(core|engine)[\w-]*\.wasm$/)?.[1])
        .filter(Boolean),
    );
  const models = await open(t, '#transformer');
  await shippedModel(models, 'transformer');
  assert.deepEqual(await modules(models), ['engine']);
  const basics = await open(t, '#basics');
  assert.deepEqual(await modules(basics), ['core']);
  await basics.click('.walkthrough-tab[href="#seq2seq"]');
  await shippedModel(basics);
  assert.deepEqual(await modules(basics), ['core', 'engine']);
});

test('deep links open their stage and survive a reload', async (t) => {
  const page = await open(t, '#self-attention/word-weights');
  assert.equal(await current(page), 'self-attention/word-weights');
  await page.reload();
  await page.waitForSelector('body[data-ready]');
  assert.equal(await current(page), 'self-attention/word-weights');
  await page.goto(session.base + '#scoring');
  assert.equal(await current(page), 'scoring/encoder-states');
  await page.click('.stage-link[href="#scoring/compare-weights"]');
  assert.equal(await current(page), 'scoring/compare-weights');
  assert.equal(new URL(page.url()).hash, '#scoring/compare-weights');
});

test('a link to a stage or walkthrough that is not there says so; the last stage leads on to the next walkthrough', async (t) => {
  const page = await open(t, '#self-attention/attention-heads');
  assert.equal(await current(page), 'self-attention/embeddings');
  assert.equal(
    await page.textContent('#stale:not([hidden])'),
    'Self-attention from scratch has no stage “attention-heads”: its first stage is shown instead.',
  );
  // moving on clears it; the last stage links to the next walkthrough, and only the last
  assert.ok(await page.isHidden('#next-walkthrough'));
  await page.keyboard.press('End');
  await page.waitForSelector('#stale', { state: 'hidden' });
  const next = page.locator('#next-walkthrough');
  assert.equal(
    await next.textContent(),
    'Next walkthrough: Scoring functions: Bahdanau and Luong attention, trained →',
  );
  await next.focus();
  await page.keyboard.press('Enter');
  await shippedModel(page, 'scoring');
  assert.match(await current(page), /^scoring\//);
  assert.ok(await page.isHidden('#next-walkthrough'));
  const zh = await open(t, '?lang=zh#reformer');
  assert.equal(await current(zh), 'basics/decoder-state');
  assert.equal(await zh.textContent('#stale:not([hidden])'), '没有名为“reformer”的演练：改为显示注意力基础知识。');
});

test('the stage count fits its bar: in words where there is room, as "8 / 9" on a phone', async (t) => {
  const shownCount = (page) =>
    page.$eval('.as-progress', (bar) => {
      const visible = [...bar.querySelectorAll('.as-progress-text > span')].find((span) => span.offsetWidth > 0);
      return { text: visible.textContent, fits: visible.getBoundingClientRect().width <= bar.clientWidth };
    });
  const desktop = await open(t, '?lang=zh#basics/context');
  assert.deepEqual(await shownCount(desktop), { text: '第 8 阶段，共 9 个阶段', fits: true });
  const phone = await open(t, '?lang=zh#seq2seq/step-3', { width: 390, height: 844 });
  await shippedModel(phone);
  const { text, fits } = await shownCount(phone);
  assert.match(text, /^\d+ \/ \d+$/);
  assert.ok(fits);
  assert.match(await phone.getAttribute('.as-progress', 'aria-valuetext'), /^第 \d+ 阶段，共 \d+ 个阶段：/);
});

test('editing an input recomputes downstream stages; a bad entry is marked and nothing else is lost', async (t) => {
  const page = await open(t, '#basics/scores');
  await page.fill('#input-decoderState', '1, 0, 0');
  assert.deepEqual(await cellValues(page, 'basics/scores'), ['3', '59', '1', '4']);
  await page.fill('#input-decoderState', '1, x, 0');
  assert.equal(await page.getAttribute('#input-decoderState', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#input-decoderState-error'), /“x” is not a number/);
  assert.equal(await page.inputValue('#input-decoderState'), '1, x, 0');
  assert.deepEqual(await cellValues(page, 'basics/scores'), ['3', '59', '1', '4']); // last valid inputs
  // the stage says it is stale, and by which field
  assert.match(
    await page.textContent('[data-stage="basics/scores"] .stage-stale'),
    /Not up to date: this stage shows the last valid inputs until “Decoder hidden state” is fixed/,
  );
  await page.fill('#input-annotations', '1, 2\n3');
  assert.match(await page.textContent('#input-annotations-error'), /Line 2 has 1 numbers, but line 1 has 2/);
  assert.equal(await page.inputValue('#input-decoderState'), '1, x, 0');
  await page.fill('#input-annotations', '3, 12, 45\n59, 2, 5');
  await page.fill('#input-decoderState', '5, 1');
  assert.match(
    await page.textContent('#input-annotations-error'),
    /annotation length \(3, from \[2x3\]\) must equal decoderState length \(2/,
  );
  await page.click('#reset');
  assert.equal(await page.inputValue('#input-decoderState'), '5, 1, 20');
  assertSeedNumbers({ scores: await cellValues(page, 'basics/scores') }, 'after reset');
  assert.equal(await page.locator('.stage-stale').count(), 0);

  await go(page, '#self-attention/weight-matrices');
  await page.fill('#input-seed', '7');
  assert.notDeepEqual(await cellValues(page, 'self-attention/weight-matrices'), SEEDS.W_Q.flat().map(String));
  await go(page, '#seq2seq/alignment');
  await shippedModel(page);
  await page.fill('#input-sentence', 'the car is red');
  await page.waitForFunction(() => document.querySelectorAll('[data-stage^="seq2seq/step-"]').length === 5);
  assert.equal(await page.locator('[data-stage="seq2seq/alignment"] .panel:first-child .hm-cell').count(), 25);
});

test('an edit updates the stage on screen in place: cells, table, legend and the tooltip follow', async (t) => {
  const page = await open(t, '#basics/scores');
  const stage = '[aria-current="step"]';
  const first = await page.$(`${stage} .hm-cell[data-col="0"]`);
  await first.hover();
  assert.ok((await page.textContent(`${stage} .hm-tooltip`)).endsWith(`: ${SEEDS.score}`));
  await page.fill('#input-decoderState', '1, 0, 0');
  assert.equal(await first.evaluate((cell) => cell.isConnected), true); // the same element, not a new one
  assert.deepEqual(await cellValues(page, 'basics/scores'), ['3', '59', '1', '4']);
  assert.equal(await first.textContent(), '3');
  assert.deepEqual(await page.$$eval(`${stage} tbody td`, (cells) => cells.map((cell) => cell.textContent)), [
    '3',
    '59',
    '1',
    '4',
  ]);
  assert.equal(await page.textContent(`${stage} .hm-legend-max`), '59');
  assert.match(await page.textContent(`${stage} .hm-tooltip`), /: 3$/);
});

test('exercise mode asks before it reveals', async (t) => {
  const page = await open(t, '?exercise=1#basics/scores');
  assert.equal(await page.locator('[aria-current="step"] .hm-cell').count(), 0);
  await page.click('.question-choice[value="h4"]');
  assert.match(await page.textContent('.question-feedback'), /h4/);
  assert.equal(await page.locator('[aria-current="step"] .hm-cell').count(), 4);
  await page.click('.as-next');
  assert.equal(await page.locator('[aria-current="step"] .question-choice').count(), 2);
});

test('Simplified Chinese by ?lang=zh and by the language menu; dark theme and colourblind palette', async (t) => {
  const page = await open(t, '?lang=zh#basics/softmax');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hans');
  assert.match(await page.textContent('.as-next'), /下一步/);
  // the stage's title and text from the zh locale, not the English ones
  assert.equal(await page.textContent('[aria-current="step"] .stage-title'), 'softmax 将得分转换为权重');
  assert.match(await page.textContent('[aria-current="step"] .stage-text'), /float128/);
  assert.doesNotMatch(await page.textContent('[aria-current="step"] .stage-text'), /Now that we have our scores/);
  await page.screenshot({ path: `${shots}/zh--basics--softmax.png`, fullPage: true });
  await page.selectOption('#language', 'en');
  // English's words are bundled, the walkthrough's English texts a chunk: the page switches once in
  await page.waitForFunction(() => /Next/.test(document.querySelector('.as-next').textContent));
  assert.equal(await page.textContent('[aria-current="step"] .stage-title'), 'Softmax turns scores into weights');
  assert.match(page.url(), /lang=en/);
  await page.selectOption('#theme', 'dark');
  await page.selectOption('#palette', 'colourblind');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  await page.screenshot({ path: `${shots}/dark-colourblind--basics--softmax.png`, fullPage: true });
  await page.reload();
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
});

test('every heatmap has a table alternative; a 256x256 matrix draws and answers hover', async (t) => {
  const page = await open(t, '#basics/annotations');
  assert.equal(await page.locator('[aria-current="step"] table.hm-table th[scope="col"]').count(), 4);
  await page.click('[aria-current="step"] .hm-table-toggle');
  assert.equal(await page.isVisible('[aria-current="step"] table.hm-table'), true);

  // 256 words, by link (typing 256 lines into the field is the slow part of such a test)
  const words = Array.from({ length: 256 }, (_, i) => [i % 2, (i >> 1) % 2, (i >> 2) % 2]);
  const inputs = encodeURIComponent(JSON.stringify({ 'self-attention': { embeddings: words } }));
  await page.goto(`${session.base}?inputs=${inputs}#self-attention/all-weights`);
  const stage = '[data-stage="self-attention/all-weights"]';
  await page.waitForFunction((selector) => document.querySelectorAll(`${selector} .hm-cell`).length === 65536, stage);
  // a matrix this large is painted on a canvas; the pointer over cell (200, 100) still names it
  const canvas = page.locator(`${stage} .hm-canvas`);
  const { width } = await canvas.boundingBox();
  const cell = width / 256;
  await canvas.hover({ position: { x: 100.5 * cell, y: 200.5 * cell } });
  const expected = await page.getAttribute(`${stage} .hm-cell[data-row="200"][data-col="100"]`, 'data-value');
  assert.equal(await page.textContent('[aria-current="step"] .hm-tooltip'), `word_201 · word_101: ${expected}`);
  await page.screenshot({ path: `${shots}/self-attention--all-weights-256.png` });
});

test('the URL carries the whole state: a copied link reopens the same stage, inputs, language and theme', async (t) => {
  const page = await open(t, '?lang=zh&theme=dark#basics/scores');
  await page.fill('#input-decoderState', '1, 0, 0');
  await page.click('#copy-link');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, page.url());
  assert.match(decodeURIComponent(link), /inputs=\{"basics":\{"decoderState":\[1,0,0\]\}\}/);
  const again = await open(t, link.slice(session.base.length));
  assert.equal(await current(again), 'basics/scores');
  assert.deepEqual(await cellValues(again, 'basics/scores'), ['3', '59', '1', '4']);
  assert.equal(await again.inputValue('#input-decoderState'), '1, 0, 0');
  assert.equal(await again.getAttribute('html', 'lang'), 'zh-Hans');
  assert.equal(await again.getAttribute('html', 'data-theme'), 'dark');

  await again.click('#copy-embed');
  const embed = await again.evaluate(() => navigator.clipboard.readText());
  assert.match(embed, /^<iframe src="[^"]*embed=1[^"]*#basics\/scores" title="attention-stepper: /);
  assert.match(embed, /attention-stepper:resize/);
});

test('a damaged link falls back to the notebook and marks what it could not use', async (t) => {
  const bad = encodeURIComponent(JSON.stringify({ basics: { decoderState: 'five, one', annotations: [[1, 2], [3]] } }));
  const page = await open(t, `?inputs=${bad}#basics/scores`);
  assert.match(await page.textContent('#input-decoderState-error'), /“five” is not a number/);
  assert.match(await page.textContent('#input-annotations-error'), /Line 2 has 1 numbers/);
  assertSeedNumbers({ scores: await cellValues(page, 'basics/scores') }, 'a damaged link');
  const broken = await open(t, '?inputs=%7Bnot-json#self-attention');
  assert.equal(await current(broken), 'self-attention/embeddings');
});

test('seq2seq: the shipped model translates, a typed sentence redraws every stage, an unknown word is named', async (t) => {
  const page = await open(t, '#seq2seq/alignment');
  await shippedModel(page);
  const titles = await page.$$eval('.stage-link', (links) => links.map((link) => link.textContent));
  assert.deepEqual(
    titles.filter((title) => title.includes('Decoder step')).map((title) => title.split('“')[1].slice(0, -1)),
    ['la', 'voiture', 'rouge', 'est', 'petite', '<eos>'],
  );
  // the gold alignment beside the learned one, then the model's measures: AER, and by kind of word
  assert.deepEqual(await page.locator('[data-stage="seq2seq/alignment"] .hm-name').allTextContents(), [
    'alignment',
    'gold',
    'measures',
    'by_category',
  ]);
  // the shipped model's own test split (its seed's: web/models/selection.json)
  assert.deepEqual(
    await page.locator('[data-stage="seq2seq/alignment"] .panel:last-child .hm-row-label').allTextContents(),
    ['article (400) · instead: is', 'noun (400)', 'adjective (1242)', 'verb (400) · instead: big', 'conjunction (248)'],
  );
  // the text reads the numbers on screen: the least aligned kind, and where it looks instead
  assert.match(
    await page.locator('[data-stage="seq2seq/alignment"]').textContent(),
    /the least aligned kind of word is “article”: 69% of its words look at a gold link, and \d+% at “is” instead/,
  );
  const field = page.getByLabel('Sentence to translate');
  await field.fill('the small cars are wet');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.stage-link')].some((link) => link.textContent.includes('“voitures”')),
  );
  // the vocabulary's chips add a word to the sentence
  await page.click('.model-vocabulary summary');
  await page.click('.model-word:text-is("and")');
  await page.click('.model-word:text-is("green")');
  // the grammar's order (size, wetness, age, colour), which the model learned
  assert.equal(await field.inputValue(), 'the small cars are wet and green');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.stage-link')].some((link) => link.textContent.includes('“vertes”')),
  );
  await field.fill('the small cars are gren');
  const error = page.locator('#input-sentence-error');
  await error.waitFor();
  assert.match(await error.textContent(), /"gren".*"green"/);
  // nothing else is lost: the last good translation stays
  assert.ok((await page.$$eval('.stage-link', (links) => links.map((l) => l.textContent))).join().includes('voitures'));
  await page.screenshot({ path: `${shots}/seq2seq--typed.png`, fullPage: true });
});

test('seq2seq: training runs in a worker, the loss falls and the alignment of the sentence is redrawn', async (t) => {
  const page = await open(t, '#seq2seq/step-1');
  await shippedModel(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.getByLabel('Size (embedding/hidden)').selectOption('16/32');
  await page.click('.model-train');
  await page.waitForSelector('.model-panel[data-training="running"]');
  // it says what it waits for, and what happens if that does not come
  assert.match(
    await page.textContent('.model-goal'),
    /^Goal: 98% exact match on the test sentences.*If it does not, it stops after 3000 steps/,
  );
  const stepOf = async () => Number((await page.textContent('.model-numbers')).match(/Step (\d+)/)?.[1] ?? -1);
  // paused after its first chunk (the first evaluation, which may end the run at its target, comes
  // at step 100), it stays where it is
  await page.waitForFunction(() => /Step [1-9]/.test(document.querySelector('.model-numbers').textContent));
  await page.click('.model-pause');
  await page.waitForSelector('.model-panel[data-training="paused"]');
  // once the chunk under way when the pause arrived has reported, and the run holds
  await page.waitForSelector('.model-panel[data-held]');
  const paused = await stepOf();
  assert.ok(paused > 0, `paused at step ${paused}`);
  await page.waitForTimeout(300);
  assert.equal(await stepOf(), paused);
  await page.click('.model-pause');
  // resumed, it runs to the first evaluation at least
  await page.waitForFunction(
    () => /Step ([1-9]\d{2,})/.test(document.querySelector('.model-numbers').textContent),
    null,
    { timeout: 60_000 },
  );
  assert.ok(
    workers.some((url) => url.includes('training-worker')),
    `training ran in a worker: ${workers}`,
  );
  // the curve has both lines, and the sentence's alignment is drawn
  assert.equal(await page.locator('.model-curve polyline').count(), 2);
  assert.ok((await page.locator('.model-alignment .hm-cell').count()) >= 6 * 6);
  await page.screenshot({ path: `${shots}/seq2seq--training.png`, fullPage: true });
  // stopped (unless it reached its target first), its model becomes the one on screen
  if ((await page.getAttribute('.model-panel', 'data-training')) === 'running')
    await page.click('.model-stop', { timeout: 5_000 }).catch(() => {}); // the run may end meanwhile
  await page.waitForSelector('.model-panel[data-origin="trained"]', { timeout: 60_000 });
  // the stages show the new model: its decoder state is 32 wide
  assert.equal((await cellValues(page, 'seq2seq/step-1', 0)).length, 32);
});

test('seq2seq in Chinese opens on the English → Chinese task', async (t) => {
  const page = await open(t, '?lang=zh#seq2seq/alignment');
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  assert.match(await page.textContent('.model-status'), /由本引擎训练 600 步/);
  const titles = await page.$$eval('.stage-link', (links) => links.map((link) => link.textContent).join(' '));
  for (const word of ['我', '今天', '在', '家', '吃', '饭']) assert.ok(titles.includes(`“${word}”`), word);
  await page.screenshot({ path: `${shots}/zh--seq2seq--alignment.png`, fullPage: true });
});

test('scoring: the panel trains the missing models in a worker, then four trained models are compared', async (t) => {
  const page = await open(t, '#scoring/compare-weights');
  const stage = 'scoring/compare-weights';
  // the shipped additive model at once; the panel trains dot, general and concat one after the other
  await page.waitForSelector('.model-panel[data-training="running"]');
  assert.match(
    await page.textContent('.model-status'),
    /Training the Luong (dot|general|concat), English → French model/,
  );
  await page.waitForSelector('.model-panel[data-origin="trained"]', { timeout: 120_000 });
  const names = await page.$$eval(`[data-stage="${stage}"] .hm-name`, (spans) => spans.map((span) => span.textContent));
  assert.deepEqual(names, ['additive', 'dot', 'general', 'concat', 'gold']);
  for (let panel = 0; panel < 4; panel++) {
    const weights = (await cellValues(page, stage, panel)).map(Number);
    assert.equal(weights.length, 6); // the red car is small <eos>
    assert.ok(Math.abs(weights.reduce((sum, weight) => sum + weight, 0) - 1) < 1e-6, `panel ${panel}: ${weights}`);
  }
  await page.screenshot({ path: `${shots}/scoring--trained.png`, fullPage: true });
  // another step: every stage follows it
  await page.getByLabel('Decoding step').fill('3');
  await page.waitForFunction(() => document.querySelector('[aria-current="step"] h2')?.textContent.includes('“rouge”'));
  // rouge translates red (1), and agrees with the noun, its possible link (0.5)
  assert.deepEqual(await cellValues(page, stage, 4), ['0', '1', '0.5', '0', '0', '0']);
});
