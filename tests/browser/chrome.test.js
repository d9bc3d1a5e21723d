// The page's chrome as the walkthrough changes: on a phone the active tab scrolls into view in the
// tabs' row; on a desktop the settings row keeps its layout on every tab (a setting the walkthrough
// has no use for stays, disabled, and says why).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../../dist/site', import.meta.url)));

test('phone: the active tab is in view, opened on #seq2seq and after switching tabs', async (t) => {
  const page = await openPage(session, t, '#seq2seq', { viewport: { width: 390, height: 844 }, isMobile: true });
  await page.waitForSelector('body[data-ready]');
  const inView = () =>
    page.evaluate(() => {
      const row = document.querySelector('#walkthrough-nav').getBoundingClientRect();
      const tab = document.querySelector('.walkthrough-tab[aria-current]').getBoundingClientRect();
      return tab.left >= row.left - 0.5 && tab.right <= row.right + 0.5;
    });
  assert.equal(await page.getAttribute('.walkthrough-tab[aria-current]', 'href'), '#seq2seq');
  assert.ok(await inView(), '#seq2seq');
  for (const hash of ['#numerics', '#basics']) {
    await page.evaluate((target) => (location.hash = target), hash);
    await page.waitForSelector(`.walkthrough-tab[aria-current][href="${hash}"]`);
    assert.ok(await inView(), hash);
  }
});

test('desktop: the tabs are one row of one-line names, each with its whole title', async (t) => {
  for (const lang of ['en', 'zh']) {
    const page = await openPage(session, t, `?lang=${lang}#basics`, { viewport: { width: 1280, height: 900 } });
    await page.waitForSelector('body[data-ready]');
    const tabs = await page.$$eval('.walkthrough-tab', (links) =>
      links.map((link) => ({ top: link.getBoundingClientRect().top, height: link.offsetHeight, title: link.title })),
    );
    assert.equal(tabs.length, 9);
    assert.ok(
      tabs.every(({ top, height }) => top === tabs[0].top && height === tabs[0].height && height < 48),
      JSON.stringify(tabs),
    );
    assert.ok(tabs.every(({ title }) => title.length > 0));
  }
});

test('desktop: the settings row is the same on every tab; exercise mode is disabled, with its reason, where nothing is asked', async (t) => {
  const page = await openPage(session, t, '#basics', { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready]');
  const row = () =>
    page.$$eval('.settings > *', (items) =>
      items
        .filter((item) => item.id !== 'copy-status')
        .map((item) => [item.id || item.localName, item.getBoundingClientRect().toJSON()]),
    );
  const basics = await row();
  assert.equal(await page.isDisabled('#exercise'), false);
  for (const hash of ['#seq2seq', '#numerics', '#self-attention']) {
    await page.evaluate((target) => (location.hash = target), hash);
    await page.waitForSelector(`.walkthrough-tab[aria-current][href="${hash}"]`);
    assert.deepEqual(await row(), basics, hash);
    assert.equal(await page.isDisabled('#exercise'), true, hash);
    const reason = await page.evaluate(() => {
      const id = document.querySelector('#exercise').getAttribute('aria-describedby');
      return document.getElementById(id).textContent;
    });
    assert.equal(reason, 'This walkthrough asks no questions.');
  }
});
