// A checkpoint from a reader's folder (files, as picked or dropped) and from a folder's URL
// (issue 45): the fixtures' files found by Hugging Face's names, the same model as from the files
// given one by one, errors that name what is missing, the estimate before any weights are asked
// for, download progress, and aborting.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention({ models: true });
const root = new URL('../fixtures/pretrained/', import.meta.url);
const folderFiles = (name, prefix = '') =>
  readdirSync(new URL(name, root)).map((file) => ({
    path: `${prefix}${name}/${file}`,
    file: new File([readFileSync(new URL(`${name}/${file}`, root))], file),
  }));
const ids = [0, 5, 9, 3];

test('a folder of files gives the model its files give one by one, sharded or not', async () => {
  for (const name of ['gpt2', 'gpt2-sharded']) {
    const fromFolder = await attn.loadPretrained({ files: folderFiles(name, 'downloads/') });
    const config = readFileSync(new URL(`${name}/config.json`, root), 'utf8');
    assert.equal(fromFolder.family, 'gpt2');
    assert.equal(fromFolder.config.layers, JSON.parse(config).n_layer);
    assert.deepEqual(fromFolder.tokenize('hello').ids.length > 0, true);
    const whole = await attn.loadPretrained({ files: folderFiles('gpt2') });
    assert.deepEqual(fromFolder.run(ids).logits, whole.run(ids).logits, name);
    fromFolder.dispose();
    whole.dispose();
  }
  // File objects of their own (picked one by one) are found by name
  const picked = folderFiles('llama').map(({ file }) => file);
  const llama = await attn.loadPretrained({ files: picked });
  assert.equal(llama.family, 'llama');
  llama.dispose();
});

test('files that are not one checkpoint are refused by name, before any weights are read', async () => {
  const gpt2 = folderFiles('gpt2');
  const without = (name) => gpt2.filter(({ path }) => !path.endsWith(`/${name}`));
  await assert.rejects(attn.loadPretrained({ files: without('config.json') }), {
    argument: 'files',
    message: /^the files have no config\.json \(4 files given\)/,
  });
  const pickle = { path: 'gpt2/pytorch_model.bin', file: new File([new Uint8Array(8)], 'pytorch_model.bin') };
  await assert.rejects(attn.loadPretrained({ files: [...without('model.safetensors'), pickle] }), {
    argument: 'files',
    message: /^the files have pytorch_model\.bin \(PyTorch pickles\) but no model\.safetensors .*safetensors only/,
  });
  await assert.rejects(attn.loadPretrained({ files: [...gpt2, ...folderFiles('llama')] }), {
    argument: 'files',
    message: /^the files hold 2 checkpoints \(gpt2\/config\.json, llama\/config\.json\): give one folder/,
  });
  const shards = folderFiles('gpt2-sharded').filter(({ path }) => !path.endsWith('00002-of-00002.safetensors'));
  await assert.rejects(attn.loadPretrained({ files: shards }), { message: /model-00002-of-00002\.safetensors/ });
  await assert.rejects(attn.loadPretrained({ files: [{ path: 'config.json' }] }), {
    argument: 'files',
    message: /^files\[0\] must be a File or \{ path, file \}/,
  });
  await assert.rejects(attn.loadPretrained({ files: gpt2, config: '{}' }), {
    argument: 'config',
    message: /^options give files and config/,
  });
  await assert.rejects(attn.loadPretrained({ url: 'http://x/', tokenizer: '{}' }), {
    argument: 'tokenizer',
    message: /^tokenizer is read from url/,
  });
  // the estimate comes from the config, before the weights: throwing in onEstimate refuses them
  let estimate = null;
  await assert.rejects(
    attn.loadPretrained({
      files: gpt2,
      onEstimate: (e) => {
        estimate = e;
        throw new Error('too big for this device');
      },
      onProgress: () => assert.fail('no weights are read once refused'),
    }),
    { message: 'too big for this device' },
  );
  assert.equal(estimate.family, 'gpt2');
  assert.ok(estimate.bytes > 0 && estimate.fits);
});

// A server of the fixtures' folders on a local port: each request logged, `missing` answered 404,
// `/broken/` 500.
async function fixtureServer(missing = []) {
  const requests = [];
  const server = createServer((request, response) => {
    requests.push(request.url);
    const path = decodeURIComponent(request.url.slice(1));
    if (path.startsWith('broken/')) return response.writeHead(500).end();
    if (missing.some((name) => path.endsWith(name))) return response.writeHead(404).end();
    try {
      const bytes = readFileSync(new URL(path, root));
      response.writeHead(200, { 'content-length': bytes.length }).end(bytes);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  return { base, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

test("a folder's URL gives the model its files give, asked for in order, with download progress", async () => {
  const server = await fixtureServer();
  try {
    const whole = await attn.loadPretrained({ files: folderFiles('gpt2') });
    for (const name of ['gpt2', 'gpt2-sharded']) {
      server.requests.length = 0;
      const seen = [];
      const model = await attn.loadPretrained({ url: `${server.base}${name}`, onProgress: (p) => seen.push(p) });
      assert.deepEqual(model.run(ids).logits, whole.run(ids).logits, name);
      const asked = server.requests.map((url) => url.slice(name.length + 2));
      const weights =
        name === 'gpt2'
          ? ['model.safetensors.index.json', 'model.safetensors']
          : ['model.safetensors.index.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
      assert.deepEqual(asked, ['config.json', ...weights, 'tokenizer.json', 'tokenizer_config.json']);
      const downloads = seen.filter((p) => p.phase === 'download');
      assert.ok(downloads.length > 0);
      assert.equal(downloads.at(-1).bytesRead, downloads.at(-1).totalBytes);
      assert.equal(seen.at(-1).phase, 'read');
      assert.equal(seen.at(-1).bytesRead, seen.at(-1).totalBytes);
      model.dispose();
    }
    whole.dispose();
  } finally {
    await server.close();
  }
});

test("a folder's URL: the estimate before the weights, missing files and a server's errors by name", async () => {
  const server = await fixtureServer(['gpt2/tokenizer.json', 'gpt2/tokenizer_config.json']);
  try {
    // without tokenizer.json the model reads ids only
    const idsOnly = await attn.loadPretrained({ url: `${server.base}gpt2/` });
    assert.throws(() => idsOnly.tokenize('hello'), {
      argument: 'tokenizer',
      message: /^this model was loaded without a tokenizer/,
    });
    idsOnly.dispose();
    server.requests.length = 0;
    await assert.rejects(
      attn.loadPretrained({
        url: `${server.base}gpt2`,
        onEstimate: () => {
          throw new Error('refused');
        },
      }),
      { message: 'refused' },
    );
    assert.deepEqual(server.requests, ['/gpt2/config.json']);
    await assert.rejects(attn.loadPretrained({ url: `${server.base}nothing-here/` }), {
      argument: 'url',
      message: new RegExp(`^${server.base}nothing-here/config\\.json answered 404`),
    });
    await assert.rejects(attn.loadPretrained({ url: `${server.base}broken/` }), {
      argument: 'url',
      message: /^.* answered 500/,
    });
    await assert.rejects(attn.loadPretrained({ url: 'ftp://example.org/model' }), {
      argument: 'url',
      message: /^url must be http/,
    });
    await assert.rejects(attn.loadPretrained({ url: '' }), { argument: 'url', message: /^url must be a folder's URL/ });
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(attn.loadPretrained({ url: `${server.base}gpt2`, signal: aborted.signal }), {
      name: 'AbortError',
    });
  } finally {
    await server.close();
  }
  // nothing listens there any more
  await assert.rejects(attn.loadPretrained({ url: `${server.base}gpt2` }), {
    argument: 'url',
    message: /^could not fetch .*config\.json .*Access-Control-Allow-Origin/,
  });
});
