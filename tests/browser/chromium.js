// Debian's Chromium driven by playwright-core: the flags this machine kind needs (no sandbox as
// root, no background connections to a closed network). playwright gives each launch a fresh
// profile of its own.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { serve } from '../../scripts/serve.js';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/** Collects console errors and uncaught exceptions of a page. */
export function collectErrors(page) {
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Where the browser tests save their screenshots. */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots', import.meta.url));

/**
 * One Chromium and a static server of `root` for a test file, started before its tests and closed
 * after them: { browser, base } (base is the server's URL, ending in /) once the tests run.
 */
export function chromiumServing(root) {
  const session = { browser: null, base: null };
  let server;
  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    session.browser = await launchChromium();
    server = await serve(root);
    session.base = `http://127.0.0.1:${server.address().port}/`;
  });
  after(async () => {
    await session.browser?.close();
    server?.close();
  });
  return session;
}

/**
 * A page of `session` (chromiumServing's) at `path`, in a context of its own that closes after the
 * test `t`, which fails if the page logged an error (but those `expected` matches: a missing
 * file's 404 that the test asks for).
 */
export async function openPage(
  session,
  t,
  path,
  contextOptions = { viewport: { width: 1280, height: 900 } },
  expected = null,
) {
  const context = await session.browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors = collectErrors(page);
  t.after(async () => {
    assert.deepEqual(
      errors.filter((error) => !expected?.test(error)),
      [],
      'console errors',
    );
    await context.close();
  });
  await page.goto(session.base + path);
  return page;
}

/**
 * The longest task of a page's main thread while `run()` runs, in ms of that thread's own time
 * (a trace's `tdur`): the page's work, which other processes on a busy machine do not lengthen
 * as they lengthen its wall-clock time (for the tiny tasks Chromium writes without it, their
 * wall-clock time). `browser` traces every renderer: the test's page is the one open.
 */
export async function longestMainThreadTask(browser, page, run) {
  await browser.startTracing(page, { categories: ['toplevel', '__metadata'] });
  let trace;
  try {
    await run();
  } finally {
    trace = JSON.parse(await browser.stopTracing());
  }
  const events = trace.traceEvents ?? trace;
  const main = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const tasks = events.filter(
    (event) =>
      event.ph === 'X' && event.name === 'ThreadControllerImpl::RunTask' && main.has(`${event.pid}:${event.tid}`),
  );
  assert.ok(tasks.length > 0, "the trace has the main thread's tasks");
  // a task of a microsecond or two comes without its thread time (tdur): its wall time stands in,
  // which is never shorter
  return Math.max(...tasks.map((event) => (event.tdur ?? event.dur) / 1000));
}
