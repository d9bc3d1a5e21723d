// What a reader's browser loads before the first figure (issue 33), measured in Chromium with the
// cache off (a new browser context a load): the Attention Basics walkthrough embedded in a page of
// another origin with the package from a CDN (as the README shows), and each tab of the page.
// For each, the median of 5 cold loads of the time from navigation to the first heatmap whose
// values the engine computed (a cell with data-value, drawn on screen), and every request made
// before it with its bytes: raw as served, and gzip level 9 (as a server sends them; localhost
// sends them raw). Writes bench/results/embed.json.
//   node bench/embed.js
import { writeFileSync } from 'node:fs';
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

const targets = {
  'basics embed (another origin)': [`${HOST}embed.html`, embedRoute],
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
await browser.close();
server.close();

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
writeFileSync(
  new URL('results/embed.json', import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), cpu, cores: os.availableParallelism(), loads: LOADS, results }, null, 2)}\n`,
);
