// The published package through a bundler: a Vite app that imports 'attention-stepper' from the
// `npm pack` tarball, built by Vite and opened in Chromium.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { build } from 'vite';

import { installPackedPackage } from '../pack.js';
import { serve } from '../../scripts/serve.js';
import { collectErrors, launchChromium } from './chromium.js';

let browser;
let server;
after(async () => {
  await browser?.close();
  server?.close();
});

test('a Vite build of an app importing the tarball computes the seed numbers in Chromium', async () => {
  const app = installPackedPackage('vite-app');
  writeFileSync(
    join(app, 'index.html'),
    '<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="./main.js"></script></head><body><output id="result">loading</output></body></html>',
  );
  writeFileSync(
    join(app, 'main.js'),
    `import { loadAttention } from 'attention-stepper';
const attn = await loadAttention();
const trace = attn.walkthrough('self-attention');
document.getElementById('result').textContent = JSON.stringify({
  scores: Array.from(attn.dotScores([5, 1, 20], [[3, 12, 45], [59, 2, 5], [1, 43, 5], [4, 3, 45.3]])),
  word1: Array.from(trace.output.data.slice(0, 3)),
});
`,
  );
  mkdirSync(join(app, 'dist'));
  await build({ root: app, logLevel: 'warn', build: { outDir: join(app, 'dist'), target: 'es2022' } });

  browser = await launchChromium();
  server = await serve(join(app, 'dist'));
  const page = await browser.newPage();
  const errors = collectErrors(page);
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => document.getElementById('result').textContent !== 'loading');
  const result = JSON.parse(await page.textContent('#result'));
  assert.deepEqual(result.scores, [927, 397, 148, 929]);
  result.word1.forEach((value, i) => assert.ok(Math.abs(value - [0.98522025, 1.74174051, 0.75652026][i]) < 1e-8));
  assert.deepEqual(errors, []);
});
