// The engine in Debian's Chromium, served as static files, with and without a strict
// Content-Security-Policy (the module must not need eval).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { CROSS_ORIGIN_ISOLATED, serve } from '../../scripts/serve.js';
import { assertSeedNumbers } from '../seeds.js';
import { collectErrors, launchChromium } from './chromium.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
let browser;
const servers = [];

before(async () => {
  browser = await launchChromium();
  servers.push(
    await serve(root),
    await serve(root, 0, { 'content-security-policy': STRICT_CSP }),
    await serve(root, 0, { 'content-security-policy': STRICT_CSP, ...CROSS_ORIGIN_ISOLATED }),
    await serve(root, 0, { 'content-security-policy': `${STRICT_CSP}; worker-src 'none'`, ...CROSS_ORIGIN_ISOLATED }),
  );
});
after(async () => {
  await browser?.close();
  servers.forEach((server) => server.close());
});

// What each server shows of threads: none where pages cannot share memory, threads where they
// can (trainModel's worker trains on them), and one thread, without hanging, where a policy blocks
// the threads' workers (and trainModel's worker with them).
const NOT_ISOLATED = /options\.threads: 2 needs a cross-origin-isolated page/;
const WORKERS_BLOCKED = /a worker of the threaded module could not start/;
for (const [index, label, threadsError] of [
  [0, 'served as static files', NOT_ISOLATED],
  [1, 'under a strict Content-Security-Policy', NOT_ISOLATED],
  [2, 'cross-origin isolated (threads), under the strict policy', null],
  [3, 'cross-origin isolated with workers blocked: one thread', WORKERS_BLOCKED],
]) {
  test(`the seed numbers in Chromium, ${label}`, async () => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`http://127.0.0.1:${servers[index].address().port}/tests/browser/engine.html`);
    await page.waitForFunction(() => document.getElementById('result').textContent !== 'loading');
    const result = JSON.parse(await page.textContent('#result'));
    assert.equal(result.failed, undefined, result.failed);
    if (threadsError) {
      assert.equal(result.threads, 1);
      assert.match(result.threadsError, threadsError);
    } else {
      assert.equal(result.threads, await page.evaluate(() => Math.min(navigator.hardwareConcurrency, 8)));
      assert.ok(result.threads > 1, 'this machine has one core: the threaded module was not exercised');
      assert.equal(result.threadedSame, true);
    }
    // a seq2seq model of the reader's pairs and a classifier of the reader's labelled sentences,
    // each task made again in the worker
    for (const training of [result, result.classifierTraining])
      if (threadsError === WORKERS_BLOCKED) assert.match(training.trainingError, /training worker could not start/);
      else {
        assert.equal(training.trainingError, undefined);
        assert.equal(training.trainedThreads, result.threads, 'the training worker runs as many threads as the page');
        assert.equal(training.trainedSame, true, 'trained to the bytes one thread trains');
      }
    const { scores, context, tiny, word1, afterError } = result;
    assertSeedNumbers({ scores, context, tiny, word1 }, `Chromium, ${label}`);
    assert.equal(result.stages, 9);
    assert.match(result.error, /query length \(2, from \[2\]\) must equal keys columns \(3, from \[4x3\]\)/);
    assertSeedNumbers({ score: afterError }, 'after the error');
    // the only errors: the policy refusing the workers
    assert.deepEqual(
      errors.filter((error) => !(threadsError === WORKERS_BLOCKED && /worker-src/.test(error))),
      [],
    );
    await page.close();
  });
}
