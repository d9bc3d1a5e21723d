// What a reader's browser loads before the first figure (issue 33), measured in Chromium with the
// cache off (a new browser context a load): the Attention Basics walkthrough embedded in a page of
// another origin with the package from a CDN (as the README shows), and each tab of the page.
// For each, the median of 5 cold loads of the time from navigation to the first heatmap whose
// values the engine computed (a cell with data-value, drawn on screen), and every request made
// before it with its bytes: raw as served, and gzip level 9 (as a server sends them; localhost
// sends them raw). Writes bench/results/embed.json.
//   node bench/embed.js
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { launchChromium } from '../tests/browser/chromium.js';
import { serve } from '../scripts/serve.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const CDN = `https://cdn.jsdelivr.net/npm/attention-stepper@${version}/`;
const HOST = 'https://tutorial.example.org/';
const LOADS = 5;
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await serve(root);
const local = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();

// Records, on every page, when the first engine-computed heatmap cell is on screen (through the
// element's shadow root too): the first animation frame that finds one.
const FIRST_FIGURE = () => {
  const find = () => {
    const roots = [document, ...[...document.querySelectorAll('attention-stepper')].map((e) => e.shadowRoot)];
    // a heatmap the engine's values painted, or a picture it drew (the captioning tab's scene)
    return roots.some((r) => r?.querySelector('.hm-cell[data-value], canvas.picture-image'));
  };
  const look = () => (find() ? (window.firstFigure = performance.now()) : requestAnimationFrame(look));
  requestAnimationFrame(look);
};

const gzipped = new Map(); // path -> gzip size
const gzipSize = (path) => {
  if (!gzipped.has(path)) gzipped.set(path, gzipSync(readFileSync(path), { level: 9 }).length);
  return gzipped.get(path);
};
const fileOf = (url) => {
  const { pathname } = new URL(url);
  const path = pathname.includes(`@${version}/`) ? pathname.split(`@${version}/`)[1] : pathname;
  return join(root, path.endsWith('/') ? `${path}index.html` : path);
};

// One cold load of `url` in a new context (`route` serves what it must): { ms, requests }.
async function load(url, route) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (route) await route(context);
  await context.addInitScript(FIRST_FIGURE);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.firstFigure, null, { timeout: 60_000 });
  // the resources whose responses ended before the figure was on screen
  const { ms, urls } = await page.evaluate(() => ({
    ms: window.firstFigure,
    urls: [
      location.href,
      ...performance
        .getEntriesByType('resource')
        .filter((entry) => entry.responseEnd <= window.firstFigure)
        .map((entry) => entry.name),
    ],
  }));
  await context.close();
  return {
    ms,
    requests: urls
      .filter((url) => !url.startsWith('data:'))
      .map((url) => {
        const path = fileOf(url);
        const shown = url.replace(CDN, 'cdn/').replace(local, '').replace(HOST, 'host/');
        return { url: shown, raw: readSize(path), gzip: readSize(path) ? gzipSize(path) : 0 };
      }),
  };
}
const readSize = (path) => {
  try {
    return readFileSync(path).length;
  } catch {
    return 0; // a page made by the route
  }
};

// The basics embed: a page on HOST, the package from CDN (CORS headers, as CDNs send).
const embedRoute = async (context) => {
  await context.route(`${CDN}**`, (route) =>
    route.fulfill({ path: fileOf(route.request().url()), headers: { 'access-control-allow-origin': '*' } }),
  );
  await context.route(`${HOST}embed.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
        <script type="module" src="${CDN}dist/components/attention-stepper.js"></script>
        <attention-stepper walkthrough="basics"></attention-stepper></body></html>`,
    }),
  );
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
