// The reader's own sentence pairs (issue 30): pasted, opened as a file or taken from a sample, read
// into a task with the engine's message next to the text when they cannot be, and a model of them
// trained in the tab and stepped through.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromiumServing, openPage, SCREENSHOTS } from './chromium.js';

const session = chromiumServing(fileURLToPath(new URL('../..', import.meta.url)));

/** The task entries this browser keeps (reader-store.js's IndexedDB): each one's id, its bytes' type and data. */
const keptTasks = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const opened = indexedDB.open('attention-stepper-reader');
        opened.onerror = reject;
        opened.onsuccess = () => {
          const all = opened.result.transaction('tasks').objectStore('tasks').getAll();
          all.onsuccess = () =>
            resolve(all.result.map(({ id, bytes, data }) => ({ id, bytes: bytes?.constructor.name, data })));
        };
      }),
  );

test('pairs that cannot be read say why next to the text, which stays; a file is read and previewed', async (t) => {
  const page = await openPage(session, t, 'dist/site/#seq2seq', { viewport: { width: 390, height: 844 } });
  const data = page.locator('.model-data');
  await data.waitFor();
  const text = data.locator('textarea');
  await text.fill('Go.\tVa !\nno tab on this line\n');
  await data.locator('.model-data-read').click();
  assert.match(await data.locator('.field-error').textContent(), /line 2 without a tab/);
  assert.equal(await text.getAttribute('aria-invalid'), 'true');
  assert.equal(await text.inputValue(), 'Go.\tVa !\nno tab on this line\n');
  assert.equal(await page.locator('#input-task').inputValue(), 'en-fr');
  // a file as eng-fra.txt holds its lines: English, French, attribution; one pair twice, one
  // without its English
  const lines = [
    ...['Go.\tVa !', 'Run!\tCours !', 'Wait!\tAttends !', 'Go on.\tPoursuis.', 'I see.\tJe comprends.'],
    ...['Hello!\tBonjour !', 'I won!\tJ’ai gagné !', 'Stop!\tArrête-toi !', 'Jump.\tSaute.', 'Thanks.\tMerci.'],
    ...[
      'Relax.\tDétends-toi.',
      'Get up.\tLève-toi.',
      'Sit down.\tAssieds-toi !',
      'Hurry!\tDépêche-toi !',
      'Help!\tÀ l’aide !',
    ],
    'Go.\tVa !',
    '\tVide.',
  ];
  const file = lines.map((line, i) => `${line}\tCC-BY 2.0 (France) #${i}`).join('\r\n');
  await data
    .locator('input[type=file]')
    .setInputFiles({ name: 'eng-fra.txt', mimeType: 'text/plain', buffer: Buffer.from(file) });
  await page.waitForFunction(() => /pairs kept/.test(document.querySelector('.model-data-stats').textContent));
  assert.equal(await text.getAttribute('aria-invalid'), 'false');
  assert.match(
    await data.locator('.model-data-stats').textContent(),
    /^eng-fra-[0-9a-f]{8}: 15 pairs kept .* Dropped: 1 repeating an earlier pair, 1 with an empty side\.$/,
  );
  assert.match(await data.locator('.model-data-preview li').first().textContent(), / · |→/);
  assert.match(await page.locator('#input-task').inputValue(), /^eng-fra-[0-9a-f]{8}$/);
  await data.screenshot({ path: `${SCREENSHOTS}/data--phone--file.png` });
  // a word the pairs never had is read as <unk>, and the source stage says so
  await page.locator('#input-sentence').fill('Run zzz !');
  await page.goto(page.url().replace(/#.*/, '#seq2seq/source'));
  await page.waitForFunction(() =>
    /lacks .*“zzz”: each is read as <unk>/.test(
      document.querySelector('section.stage:not([hidden])')?.textContent ?? '',
    ),
  );
  // kept in this browser as the task's bytes, not its text: a later visit reads no text
  const task = await page.locator('#input-task').inputValue();
  await page.waitForFunction(() => /15 pairs/.test(document.querySelector('.model-data-saved')?.textContent ?? ''));
  const kept = await keptTasks(page);
  assert.deepEqual(kept, [{ id: task, bytes: 'Uint8Array', data: undefined }]);
  // after a reload the task is there again, listed with its size
  await page.reload();
  await page.waitForFunction(() => /15 pairs/.test(document.querySelector('.model-data-saved')?.textContent ?? ''));
  assert.equal(await page.locator('#input-task').inputValue(), task);
  await page.waitForFunction(() => document.querySelector('#input-task-error')?.textContent === '');
  // deleted, it is gone from the list, and from the screen: the walkthrough shows its own task again
  const link = page.url();
  await page.locator('.model-data-delete').first().click();
  await page.waitForFunction(() => document.querySelector('.model-data-saved').childElementCount === 0);
  await page.waitForFunction(() => document.querySelector('#input-task').value === 'en-fr');
  assert.equal(await page.locator(`#input-task option[value="${task}"]`).count(), 0);
  assert.equal(await page.locator('#input-task-error').textContent(), '');
  // a link to it, opened where its pairs are not kept (another browser), says why the task cannot be shown
  const elsewhere = await openPage(session, t, link.slice(session.base.length), {
    viewport: { width: 390, height: 844 },
  });
  await elsewhere.waitForFunction(
    (id) => document.querySelector('.model-data .field-error')?.textContent.includes(`names “${id}”`),
    task,
  );
  assert.match(await elsewhere.locator('#input-task-error').textContent(), /unknown task/);
});

test('the same pairs pasted, then opened as a file, are one task, kept once', async (t) => {
  const page = await openPage(session, t, 'dist/site/#seq2seq', { viewport: { width: 1280, height: 900 } });
  const data = page.locator('.model-data');
  await data.waitFor();
  const lines = [
    'Go.\tVa !',
    'Run!\tCours !',
    'Wait!\tAttends !',
    'Hello!\tBonjour !',
    'Thanks.\tMerci.',
    'Jump.\tSaute.',
  ];
  const text = `${lines.join('\n')}\n`;
  await data.locator('textarea').fill(text);
  await data.locator('.model-data-read').click();
  await page.waitForFunction(() =>
    /with its models|pairs, /.test(document.querySelector('.model-data-saved')?.textContent ?? ''),
  );
  const pasted = await page.locator('#input-task').inputValue();
  assert.match(pasted, /^pairs-[0-9a-f]{8}$/);
  await data
    .locator('input[type=file]')
    .setInputFiles({ name: 'mine.tsv', mimeType: 'text/plain', buffer: Buffer.from(text) });
  // read once the panel has let the file go
  await page.waitForFunction(() => document.querySelector('.model-data input[type=file]').value === '');
  await page.waitForFunction(() => /6 pairs/.test(document.querySelector('.model-data-stats')?.textContent ?? ''));
  assert.equal(await page.locator('#input-task').inputValue(), pasted);
  assert.equal(await page.locator('.model-data-saved li').count(), 1);
  assert.deepEqual(
    (await keptTasks(page)).map(({ id }) => id),
    [pasted],
  );
});

test('a sample read as pairs trains in the tab, and the walkthrough steps through its model', async (t) => {
  const page = await openPage(session, t, 'dist/site/#seq2seq', { viewport: { width: 1280, height: 900 } });
  // what each run's worker is sent as its task: the page's task as bytes, its text not read again there
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    window.runTasks = [];
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message?.type === 'start') window.runTasks.push(message.options.task?.constructor.name ?? 'none');
      return post.call(this, message, ...rest);
    };
  });
  await page.reload();
  const data = page.locator('.model-data');
  await data.waitFor();
  await data.locator('.model-data-sample[data-task="en-fr"]').click();
  await page.waitForFunction(() => /2400 pairs kept/.test(document.querySelector('.model-data-stats').textContent));
  // the gold links came with the sample; the model of the reader's task trains by itself
  assert.match(await page.locator('#input-task').inputValue(), /^en-fr-[0-9a-f]{8}$/);
  await page.waitForSelector('.model-run[data-state="running"]');
  assert.deepEqual(await page.evaluate(() => window.runTasks), ['Uint8Array']);
  assert.match(await page.textContent('.model-goal'), /validation loss has not improved for 3 evaluations/);
  // while it trains: validation BLEU, the pace, and held-out sentences beside their references
  await page.waitForFunction(() => / pairs a second/.test(document.querySelector('.model-numbers').textContent), null, {
    timeout: 60_000,
  });
  assert.match(
    await page.locator('.model-numbers').textContent(),
    /validation BLEU [\d.–]+ · epoch [\d.]+ · \d+ pairs a second/,
  );
  assert.match(await page.locator('.model-samples li').first().textContent(), /→ .*\(reference: /);
  assert.match(await page.locator('.training-chart').textContent(), /BLEU \(validation\)/);
  await page.locator('.model-run').screenshot({ path: `${SCREENSHOTS}/data--desktop--training.png` });
  await page.waitForSelector('.model-panel[data-origin="trained"]', { timeout: 150_000 });
  // a run that ended says how, its bar full: no time left to promise
  await page.waitForFunction(() => /· finished/.test(document.querySelector('.model-numbers').textContent));
  assert.match(
    await page.locator('.model-numbers').textContent(),
    /· finished (at step \d+ of \d+: the validation loss had stopped improving|at step \d+: it reached the goal|: every one of its \d+ steps)$/,
  );
  assert.equal(await page.locator('.model-progress').evaluate((bar) => bar.value), 1);
  // after a reload the model trained on the reader's pairs is there again, not trained anew
  await page.waitForFunction(() =>
    /with its models/.test(document.querySelector('.model-data-saved')?.textContent ?? ''),
  );
  await page.reload();
  await page.waitForSelector('.model-panel[data-origin="trained"]', { timeout: 30_000 });
  assert.match(await page.locator('#input-task').inputValue(), /^en-fr-[0-9a-f]{8}$/);
  // the stages show the reader's model: its translation of a held-out sentence
  await page.goto(page.url().replace(/#.*/, '#seq2seq/alignment'));
  const stage = page.locator('section.stage:not([hidden])');
  await stage.waitFor();
  assert.equal((await stage.locator('.heatmap, attention-heatmap, table').count()) > 0, true);
});

test('a task kept by an earlier version as its text is read once more, then kept as its bytes', async (t) => {
  const page = await openPage(session, t, 'dist/site/#seq2seq', { viewport: { width: 390, height: 844 } });
  await page.locator('.model-data').waitFor();
  // the entry as versions before 0.5 kept it: the options that read the text, the text among them
  const lines = ['Go.\tVa !', 'Run!\tCours !', 'Wait!\tAttends !', 'Go on.\tPoursuis.', 'I see.\tJe comprends.'];
  const text = [...lines, ...lines].join('\n');
  const id = await page.evaluate(async (text) => {
    const { loadAttention } = await import('/dist/engine/index.js');
    const attn = await loadAttention({ models: true, threads: 1 });
    const data = { text, name: 'old' };
    const task = attn.createTranslationTask(data);
    const entry = { id: task.id, name: 'old', reader: 'createTranslationTask', data, size: text.length, lines: 10 };
    await new Promise((resolve, reject) => {
      const opened = indexedDB.open('attention-stepper-reader');
      opened.onerror = reject;
      opened.onsuccess = () => {
        const tx = opened.result.transaction('tasks', 'readwrite');
        tx.objectStore('tasks').put(entry);
        tx.oncomplete = resolve;
        tx.onerror = reject;
      };
    });
    return task.id;
  }, text);
  await page.reload();
  await page.waitForFunction(() => /10 pairs/.test(document.querySelector('.model-data-saved')?.textContent ?? ''));
  // made again of its text, the walkthrough shows it
  await page.locator('.model-data-use').click();
  assert.equal(await page.locator('#input-task').inputValue(), id);
  await page.waitForFunction(() => document.querySelector('#input-task-error')?.textContent === '');
  const kept = await keptTasks(page);
  assert.deepEqual(kept, [{ id, bytes: 'Uint8Array', data: undefined }]);
});

test('<attention-stepper pairs-src> reads the pairs (or labelled sentences) of a file, trains on them, and says why when it cannot', async (t) => {
  const page = await openPage(session, t, 'tests/browser/pairs-element.html', {
    viewport: { width: 1280, height: 900 },
  });
  // its gold links (a third column) came with it: the model of those pairs trains by itself
  await page.waitForFunction(
    () =>
      /^pairs-[0-9a-f]{8}$/.test(document.querySelector('#pairs').shadowRoot.querySelector('#input-task')?.value ?? ''),
    null,
    { timeout: 30_000 },
  );
  await page.waitForFunction(
    () => document.querySelector('#pairs').shadowRoot.querySelector('.model-panel')?.dataset.origin === 'trained',
    null,
    { timeout: 120_000 },
  );
  await page.waitForFunction(() =>
    /favicon\.svg cannot be read: pairs: lines? [\d, ]+.* without a tab/.test(
      document.querySelector('#missing').shadowRoot.textContent,
    ),
  );
  // the sentiment walkthrough reads labelled sentences (UDHR articles by language) the same way
  await page.waitForFunction(() =>
    /^udhr_languages-[0-9a-f]{8}$/.test(
      document.querySelector('#sentences').shadowRoot.querySelector('#input-task')?.value ?? '',
    ),
  );
  await page.waitForFunction(
    () => document.querySelector('#sentences').shadowRoot.querySelector('.model-panel')?.dataset.origin === 'trained',
    null,
    { timeout: 60_000 },
  );
  // and says why the pairs' file is no labelled sentences: too many labels in its label column
  await page.waitForFunction(() =>
    /The labelled sentences of pairs\.tsv cannot be read: .*labels/.test(
      document.querySelector('#unlabelled').shadowRoot.textContent,
    ),
  );
});

test('<attention-stepper pairs-src> on a server that does not allow the page says so (CORS), and names an HTTP error', async (t) => {
  // another origin (localhost; the page is on 127.0.0.1) that sends its file without
  // Access-Control-Allow-Origin, and its 404 with it (a 404 without it the page could not read)
  const pairs = readFileSync(fileURLToPath(new URL('pairs.tsv', import.meta.url)));
  const server = createServer((request, response) =>
    request.url === '/pairs.tsv'
      ? response.writeHead(200).end(pairs)
      : response.writeHead(404, { 'access-control-allow-origin': '*' }).end(),
  );
  await new Promise((resolve) => server.listen(0, 'localhost', resolve));
  t.after(() => server.close());
  const elsewhere = `http://localhost:${server.address().port}`;
  // the browser logs the blocked request and the 404 itself
  const page = await openPage(
    session,
    t,
    'tests/browser/components-page.html',
    { viewport: { width: 1280, height: 900 } },
    /CORS policy|Failed to load resource|net::ERR_FAILED/,
  );
  await page.evaluate((origin) => {
    for (const [id, file, lang] of [
      ['blocked', 'pairs.tsv', 'en'],
      ['absent', 'gone.tsv', 'en'],
      ['blocked-zh', 'pairs.tsv', 'zh'],
    ]) {
      const stepper = document.createElement('attention-stepper');
      Object.entries({ id, walkthrough: 'seq2seq', lang, 'pairs-src': `${origin}/${file}` }).forEach(([name, value]) =>
        stepper.setAttribute(name, value),
      );
      document.body.append(stepper);
    }
  }, elsewhere);
  const said = (id, pattern) =>
    page.waitForFunction(
      ([id, source]) => new RegExp(source).test(document.getElementById(id).shadowRoot.textContent),
      [id, pattern.source],
    );
  await said(
    'blocked',
    /The sentence pairs of http:\/\/localhost:\d+\/pairs\.tsv cannot be read: the server is not there, or it does not let this page read the file: it must send Access-Control-Allow-Origin \(CORS\)/,
  );
  await said('absent', /gone\.tsv cannot be read: the server answered 404 Not Found/);
  await said('blocked-zh', /Access-Control-Allow-Origin（CORS）/);
});
