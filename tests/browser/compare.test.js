// Models as they are and compared as the reader chooses (issue 19, item 5): a bidirectional model's
// encoder stage shows each direction's states and says so; the comparison sets one-way and
// bidirectional encoders, or free and guided training, side by side with their AER and exact match,
// in the seq2seq walkthrough and the scoring one. The models are small ones made here and loaded
// from files, as a reader loads a model: nothing trains.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention } from 'attention-stepper';

import { chromiumServing, collectErrors, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));
const attn = await loadAttention({ threads: 1, models: true });

// a model file as the panel's "Load" takes it
function modelFile(options, guide) {
  const model = attn.createSeq2seq({ task: 'en-fr', embedding: 8, hidden: 16, ...options });
  if (guide) model.train({ steps: 1, batch: 2, guide });
  const file = { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from(model.save()) };
  model.dispose();
  return file;
}

const inputs = (given) => `?inputs=${encodeURIComponent(JSON.stringify(given))}`;
const stage = (id) => `[data-stage="${id}"][aria-current="step"]`;
/** A panel's captions, and the row and column labels of the panel named `name`, of the stage on screen. */
async function panels(page, id, name) {
  const figure = page.locator(`${stage(id)} figure`, {
    has: page.locator('.hm-name', { hasText: new RegExp(`^${name}$`) }),
  });
  return {
    names: await page.locator(`${stage(id)} .hm-name`).allTextContents(),
    rows: name ? await figure.locator('.hm-row-label').allTextContents() : [],
    cols: name ? await figure.locator('.hm-col-label').allTextContents() : [],
  };
}

for (const [name, viewport] of Object.entries({
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
}))
  test(`${name}: one-way and bidirectional encoders, their stages and their comparison`, async (t) => {
    const page = await openPage(
      session,
      t,
      `dist/site/${inputs({ seq2seq: { comparison: 'encoder' }, scoring: { scoring: 'dot', comparison: 'encoder' } })}#seq2seq/encoder`,
      { viewport },
    );
    const errors = collectErrors(page);
    await page.waitForSelector('.model-panel[data-origin="shipped"]');
    // Luong dot read one way, then both ways: the walkthrough follows each model loaded
    await page.setInputFiles('.model-load', modelFile({ scoring: 'dot', encoder: 'forward' }));
    await page.waitForFunction(() => document.querySelector('select[name="scoring"]').value === 'dot');
    await page.setInputFiles('.model-load', modelFile({ scoring: 'dot', encoder: 'bidirectional' }));
    await page.waitForFunction(() => document.querySelector('select[name="encoder"]').value === 'bidirectional');

    const encoder = await panels(page, 'seq2seq/encoder');
    assert.deepEqual(encoder.names, ['forward_states', 'backward_states', 'encoder_states', 'decoder_start']);
    const text = await page.locator(`${stage('seq2seq/encoder')}`).textContent();
    assert.match(text, /The encoder reads both ways/);
    assert.match(text, /This encoder is bidirectional/);
    assert.match(text, /bidirectional=True/);
    await page.screenshot({ path: `${SCREENSHOTS}/compare--${name}--bidirectional-encoder.png`, fullPage: true });

    await page.goto(`${page.url().split('#')[0]}#seq2seq/compare`);
    await page.waitForSelector(stage('seq2seq/compare'));
    const compared = await panels(page, 'seq2seq/compare', 'metrics');
    assert.deepEqual(compared.names, ['forward', 'bidirectional', 'metrics']);
    assert.deepEqual(compared.rows, ['one-way', 'bidirectional']);
    for (const column of ['exact match', 'AER (alignment error rate)'])
      assert.ok(compared.cols.includes(column), column);
    assert.equal(
      await page.locator(`${stage('seq2seq/compare')} .stage-title`).textContent(),
      'One-way and bidirectional encoders side by side',
    );
    await page.screenshot({ path: `${SCREENSHOTS}/compare--${name}--encoders.png`, fullPage: true });

    // the scoring walkthrough sets the same two models side by side
    await page.goto(`${page.url().split('#')[0]}#scoring/encoder-states`);
    await page.waitForSelector(stage('scoring/encoder-states'));
    assert.deepEqual((await panels(page, 'scoring/encoder-states')).names, ['forward', 'bidirectional']);
    assert.match(
      await page.locator(`${stage('scoring/encoder-states')} .stage-title`).textContent(),
      /One scoring function, two encoders/,
    );
    assert.deepEqual(errors, [], 'console errors');
  });

test('free and guided training side by side, in Chinese too', async (t) => {
  const page = await openPage(session, t, `dist/site/${inputs({ seq2seq: { comparison: 'guide' } })}#seq2seq`);
  await page.waitForSelector('.model-panel[data-origin="shipped"]');
  // guided alignment, λ = 1: the model on screen is the guided one, the shipped one learnt freely
  await page.setInputFiles('.model-load', modelFile({ scoring: 'additive' }, 1));
  await page.waitForFunction(() => document.querySelector('select[name="guide"]').value === '1');
  await page.goto(`${page.url().split('#')[0]}#seq2seq/compare`);
  await page.waitForSelector(stage('seq2seq/compare'));
  const { names, rows, cols } = await panels(page, 'seq2seq/compare', 'metrics');
  assert.deepEqual(names, ['guide=0', 'guide=1', 'metrics']);
  assert.match(rows[0], /free \(λ=0\)/);
  assert.match(rows[1], /guided \(λ=1\)/);
  assert.ok(cols.includes('exact match') && cols.includes('AER (alignment error rate)'), cols.join());
  await page.selectOption('#language', 'zh');
  await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
  assert.equal(await page.locator(`${stage('seq2seq/compare')} .stage-title`).textContent(), '自由训练与引导训练并排');
  assert.match((await panels(page, 'seq2seq/compare', 'metrics')).rows[1], /引导（λ=1）/);
});
