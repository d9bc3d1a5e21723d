// A tutorial's page on another origin embedding the package from a CDN, as the README shows, both
// answered from this checkout's build, and what such a page loads before its first figure: the
// browser tests' embeds and bench/embed.js share them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { root } from '../pack.js';

const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
export const CDN = `https://cdn.jsdelivr.net/npm/attention-stepper@${version}/`;
export const HOST = 'https://tutorial.example.org/';

/** The checkout's file a URL names: the package's from the CDN, the page's own from the server. */
export function fileOf(url) {
  const { pathname } = new URL(url);
  const path = pathname.includes(`@${version}/`) ? pathname.split(`@${version}/`)[1] : pathname;
  return join(root, path.endsWith('/') ? `${path}index.html` : path);
}

/**
 * Answers the CDN's requests in `context` from the checkout, with CORS headers as CDNs send;
 * `answer(route, serve)`, if given, answers each instead (and may call serve).
 */
export async function routeCdn(context, answer = (route, serve) => serve(route)) {
  const serve = (route) =>
    route.fulfill({ path: fileOf(route.request().url()), headers: { 'access-control-allow-origin': '*' } });
  await context.route(`${CDN}**`, (route) => answer(route, serve));
}

/** Answers `url` (default: HOST's embed.html) in `context` with a page embedding the bundle and `body`. */
export async function routeTutorial(context, body, url = `${HOST}embed.html`) {
  await context.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
        <script type="module" src="${CDN}dist/components/attention-stepper.js"></script>
        ${body}</body></html>`,
    }),
  );
  return url;
}

/**
 * An init script recording, in window.firstFigure, when the first figure whose values the engine
 * computed is on screen (through the elements' shadow roots too): the first animation frame that
 * finds a heatmap's cell with a value, a picture it drew (the captioning tab's scene), or a model
 * or head view's drawing.
 */
export const FIRST_FIGURE = () => {
  const ELEMENTS = 'attention-stepper, attention-model-view, attention-head-view';
  const find = () => {
    const roots = [document, ...[...document.querySelectorAll(ELEMENTS)].map((e) => e.shadowRoot)];
    return roots.some((r) =>
      r?.querySelector('.hm-cell[data-value], canvas.picture-image, canvas.mv-thumb, .hv-lines line'),
    );
  };
  const look = () => (find() ? (window.firstFigure = performance.now()) : requestAnimationFrame(look));
  requestAnimationFrame(look);
};

/**
 * Waits for the first figure of a page that ran FIRST_FIGURE: { ms, requests }, the time from
 * navigation and every request whose response ended before it, with its bytes raw as served and
 * gzip at level 9, as a server sends them (a page a route made counts 0).
 */
export async function firstFigure(page) {
  await page.waitForFunction(() => window.firstFigure, null, { timeout: 60_000 });
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
  const requests = urls
    .filter((url) => !url.startsWith('data:'))
    .map((url) => {
      const bytes = contents(fileOf(url));
      return { url, raw: bytes.length, gzip: bytes.length ? gzipSize(url, bytes) : 0 };
    });
  return { ms, requests };
}

function contents(path) {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0); // a page made by a route
  }
}

const gzipped = new Map(); // url -> gzip size
function gzipSize(url, bytes) {
  if (!gzipped.has(url)) gzipped.set(url, gzipSync(bytes, { level: 9 }).length);
  return gzipped.get(url);
}
