// What a reader's browser loads before the first figure (issue 33), measured in Chromium with the
// cache off (a new browser context a load): the Attention Basics walkthrough embedded in a page of
// another origin with the package from a CDN (as the README shows), and each tab of the page.
// For each, the median of 5 cold loads of the time from navigation to the first heatmap whose
// values the engine computed (a cell with data-value, drawn on screen), and every request made
// before it with its bytes: raw as served, and gzip level 9 (as a server sends them; localhost
// sends them raw). Then the model view of attention computed elsewhere: fed JSON from a CDN (its
// first figure as the basics embed's), and drawn for GPT-2 small's 144 heads over 128 tokens (the
// median of 5 of the time from the call to the frame after it, as the head view's 12 heads of one
// layer). Writes bench/results/embed.json.
//   node bench/embed.js
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../tests/browser/chromium.js';
import { CDN, FIRST_FIGURE, firstFigure, HOST, routeCdn, routeTutorial } from '../tests/browser/embeds.js';
import { serve } from '../scripts/serve.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const LOADS = 5;
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await serve(root);
const local = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();

// One cold load of `url` in a new context (`route` serves what it must): { ms, requests }.
async function load(url, route) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (route) await route(context);
  await context.addInitScript(FIRST_FIGURE);
  const page = await context.newPage();
  await page.goto(url);
  const { ms, requests } = await firstFigure(page);
  await context.close();
  const shown = (url) => url.replace(CDN, 'cdn/').replace(local, '').replace(HOST, 'host/');
  return { ms, requests: requests.map((request) => ({ ...request, url: shown(request.url) })) };
}

// The basics embed: a page on HOST, the package from CDN.
const embedRoute = async (context) => {
  await routeCdn(context);
  await routeTutorial(context, '<attention-stepper walkthrough="basics"></attention-stepper>');
};

// The model view fed a pair of sentences' attention (3 layers, 4 heads, 8 tokens) as JSON.
const attentions = readFileSync(new URL('../tests/fixtures/tensors/attentions.json', import.meta.url), 'utf8');
const modelViewRoute = async (context) => {
  await routeCdn(context);
  await routeTutorial(
    context,
    `<attention-model-view><script type="application/json">${attentions}</script></attention-model-view>`,
    `${HOST}model-view.html`,
  );
};

const targets = {
  'basics embed (another origin)': [`${HOST}embed.html`, embedRoute],
  'model view embed fed JSON (another origin)': [`${HOST}model-view.html`, modelViewRoute],
  'page: basics': [`${local}dist/site/#basics`],
  'page: seq2seq': [`${local}dist/site/#seq2seq`],
  'page: captioning': [`${local}dist/site/#captioning`],
  'page: transformer': [`${local}dist/site/#transformer`],
};

const results = {};
for (const [name, [url, route]] of Object.entries(targets)) {
  const loads = [];
  for (let i = 0; i < LOADS; i++) loads.push(await load(url, route));
  const { requests } = loads.at(-1);
  results[name] = {
    medianMs: median(loads.map((l) => l.ms)),
    ms: loads.map((l) => Math.round(l.ms)),
    gzipKB: requests.reduce((sum, r) => sum + r.gzip, 0) / 1024,
    rawKB: requests.reduce((sum, r) => sum + r.raw, 0) / 1024,
    requests,
  };
  console.log(
    `${name}: first figure ${results[name].medianMs.toFixed(0)} ms (median of ${LOADS}), ` +
      `${results[name].gzipKB.toFixed(1)} KB gzip (${results[name].rawKB.toFixed(1)} KB raw) in ${requests.length} requests`,
  );
  for (const r of requests) console.log(`  ${(r.gzip / 1024).toFixed(1).padStart(7)} KB  ${r.url}`);
}
// Drawing GPT-2 small's shape of attention: 12 layers × 12 heads over 128 tokens (softmax rows of
// seeded scores), the model view and one layer's head view, in ms from the call to the next frame.
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${local}tests/browser/attention-views.html`);
await page.waitForFunction(() => window.attentionViews);
const draws = await page.evaluate(async (loads) => {
  const [layers, heads, tokens] = [12, 12, 128];
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const attentions = Array.from({ length: layers }, () => {
    const data = new Float32Array(heads * tokens * tokens);
    for (let row = 0; row < heads * tokens; row++) {
      let sum = 0;
      for (let j = 0; j < tokens; j++) sum += data[row * tokens + j] = Math.exp(4 * random());
      for (let j = 0; j < tokens; j++) data[row * tokens + j] /= sum;
    }
    return { shape: [1, heads, tokens, tokens], data };
  });
  const words = Array.from({ length: tokens }, (_, i) => `t${i}`);
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const time = async (draw) => {
    const ms = [];
    for (let i = 0; i < loads; i++) {
      const holder = document.createElement('div');
      document.body.append(holder);
      const start = performance.now();
      const view = draw(holder);
      await frame();
      ms.push(performance.now() - start);
      view.dispose();
      holder.remove();
    }
    return ms.sort((a, b) => a - b);
  };
  const { renderModelView, renderHeadView } = window.attentionViews;
  return {
    'model view: 144 heads, 128 tokens': await time((holder) => renderModelView(holder, attentions, words)),
    'head view: 12 heads, 128 tokens': await time((holder) => renderHeadView(holder, attentions, words)),
  };
}, LOADS);
for (const [name, ms] of Object.entries(draws)) {
  results[name] = { medianMs: median(ms), ms: ms.map(Math.round) };
  console.log(`${name}: drawn in ${median(ms).toFixed(0)} ms (median of ${LOADS})`);
}
await browser.close();
server.close();

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
writeFileSync(
  new URL('results/embed.json', import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), cpu, cores: os.availableParallelism(), loads: LOADS, results }, null, 2)}\n`,
);
