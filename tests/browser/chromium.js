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
 * test `t`, which fails if the page logged an error.
 */
export async function openPage(session, t, path, contextOptions = { viewport: { width: 1280, height: 900 } }) {
  const context = await session.browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors = collectErrors(page);
  t.after(async () => {
    assert.deepEqual(errors, [], 'console errors');
    await context.close();
  });
  await page.goto(session.base + path);
  return page;
}
