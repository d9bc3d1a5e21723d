// A checkpoint's files as Hugging Face writes them, fetched from a folder's URL, or found among the
// files a reader gives (a folder picked or dropped, or files picked one by one): the options
// loadPretrained reads (config, weights or the index and its shards, tokenizer and its config).
import { abortError, describe, fail } from './checks.js';

const CONFIG = 'config.json';
const WEIGHTS = 'model.safetensors';
const INDEX = 'model.safetensors.index.json';
const TOKENIZER = 'tokenizer.json';
const TOKENIZER_CONFIG = 'tokenizer_config.json';

const SUPPORTED = `${CONFIG}, then ${WEIGHTS} (or ${INDEX} and its shards), ${TOKENIZER} and ${TOKENIZER_CONFIG}`;

// Weights in a format the engine does not read, and what to do instead.
const UNREAD = [
  [/^pytorch_model.*\.bin$/, 'PyTorch pickles'],
  [/^tf_model\.h5$/, "TensorFlow's HDF5"],
  [/^flax_model\.msgpack$/, "Flax's msgpack"],
  [/\.gguf$/, 'GGUF'],
  [/\.onnx$/, 'ONNX'],
];
const unreadWeights = (names, where) => {
  const found = names.find((name) => UNREAD.some(([pattern]) => pattern.test(name)));
  const format = found && UNREAD.find(([pattern]) => pattern.test(found))[1];
  const subject = where === 'files' ? 'the files have' : 'the folder has';
  return fail(
    `${subject} ${found ? `${found} (${format}) but ` : ''}no ${WEIGHTS} nor ${INDEX}: the engine reads safetensors only (transformers' save_pretrained writes them)`,
    where,
  );
};

const baseName = (path) => path.slice(path.lastIndexOf('/') + 1);
const folderOf = (path) => path.slice(0, path.lastIndexOf('/') + 1);
const text = (blob) => blob.text();

/**
 * The checkpoint among `files`: File objects (a folder's keep their webkitRelativePath) or
 * { path, file } (a dropped folder's). Those of the one folder holding config.json count, so a
 * folder above the checkpoint's works too. → loadPretrained's options, the JSON as text.
 */
export async function checkpointFromFiles(files) {
  if (
    files === null ||
    typeof files !== 'object' ||
    (typeof files[Symbol.iterator] !== 'function' && typeof files.length !== 'number')
  )
    fail(`files must be a list of File objects, got ${describe(files)}`, 'files');
  const entries = Array.from(files, (item, i) => {
    if (typeof Blob !== 'undefined' && item instanceof Blob && typeof item.name === 'string')
      return { path: item.webkitRelativePath || item.name, file: item };
    if (item && typeof item.path === 'string' && typeof Blob !== 'undefined' && item.file instanceof Blob) return item;
    return fail(`files[${i}] must be a File or { path, file }, got ${describe(item)}`, 'files');
  });
  const configs = entries.filter(({ path }) => baseName(path) === CONFIG);
  if (configs.length === 0)
    fail(
      `the files have no ${CONFIG} (${entries.length} files given): a checkpoint's folder holds ${SUPPORTED}`,
      'files',
    );
  if (configs.length > 1)
    fail(
      `the files hold ${configs.length} checkpoints (${configs.map(({ path }) => path).join(', ')}): give one folder`,
      'files',
    );
  const folder = folderOf(configs[0].path);
  const own = new Map(
    entries.filter(({ path }) => folderOf(path) === folder).map(({ path, file }) => [baseName(path), file]),
  );
  const optionalText = (name) => (own.has(name) ? text(own.get(name)) : undefined);
  const [config, index, tokenizer, tokenizerConfig] = await Promise.all(
    [CONFIG, INDEX, TOKENIZER, TOKENIZER_CONFIG].map(optionalText),
  );
  if (index !== undefined) {
    const shards = Object.fromEntries([...own].filter(([name]) => name.endsWith('.safetensors')));
    return { config, index, weights: shards, tokenizer, tokenizerConfig };
  }
  if (!own.has(WEIGHTS)) unreadWeights([...own.keys()], 'files');
  return { config, weights: own.get(WEIGHTS), tokenizer, tokenizerConfig };
}

// The bytes streamed from a response kept as a Blob (which a browser may keep on disk), gathered a
// part at a time so that no more than FOLD bytes wait in memory as arrays.
const FOLD = 64 << 20;
async function blobOf(response, onBytes, signal) {
  const reader = response.body.getReader();
  let blob = new Blob([]);
  let parts = [];
  let waiting = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (signal?.aborted) {
      reader.cancel();
      throw abortError();
    }
    if (done) break;
    parts.push(value);
    waiting += value.length;
    onBytes(value.length);
    if (waiting >= FOLD) {
      blob = new Blob([blob, ...parts]);
      parts = [];
      waiting = 0;
    }
  }
  return new Blob([blob, ...parts]);
}

/**
 * The checkpoint in the folder at `url` (a server that lets this page read it: CORS), fetched in
 * this order: config.json, then model.safetensors.index.json and its shards or model.safetensors,
 * then tokenizer.json and tokenizer_config.json where the folder has them; onConfig(text) runs
 * before any weights are asked for (and may refuse them by throwing). The weights are
 * reported as they arrive: onBytes({ bytesRead, totalBytes }) (totalBytes null where the server does
 * not say). → the files, as checkpointFromFiles takes them ({ path, file }).
 */
export async function checkpointFromUrl(url, { onConfig, onBytes, signal } = {}) {
  if (typeof url !== 'string' || url.trim() === '') fail(`url must be a folder's URL, got ${describe(url)}`, 'url');
  let folder;
  try {
    folder = new URL(url.endsWith('/') ? url : `${url}/`, globalThis.location?.href);
  } catch {
    fail(`url is not a URL: ${describe(url)}`, 'url');
  }
  if (folder.protocol !== 'http:' && folder.protocol !== 'https:')
    fail(`url must be http: or https:, got ${folder.protocol}`, 'url');
  const get = async (name, { optional = false } = {}) => {
    const address = new URL(name, folder).href;
    let response;
    try {
      response = await fetch(address, { signal });
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      return fail(
        `could not fetch ${address} (${error.message}): the server must be up and let this page read it (Access-Control-Allow-Origin, CORS)`,
        'url',
      );
    }
    if (optional && response.status === 404) return undefined;
    if (!response.ok)
      fail(`${address} answered ${response.status} ${response.statusText}: the folder must hold ${SUPPORTED}`, 'url');
    return response;
  };
  const config = await (await get(CONFIG)).text();
  onConfig?.(config);
  const indexResponse = await get(INDEX, { optional: true });
  const index = indexResponse && (await indexResponse.text());
  const names = index === undefined ? [WEIGHTS] : [...new Set(Object.values(JSON.parse(index).weight_map ?? {}))];
  const responses = [];
  for (const name of names) {
    const response = await get(name, { optional: index === undefined });
    if (!response) unreadWeights([], 'url');
    responses.push([name, response]);
  }
  // a length is the body's where the body is not encoded (gzip's is the compressed one)
  const lengths = responses.map(([, response]) =>
    response.headers.get('content-encoding') ? null : Number(response.headers.get('content-length') ?? NaN),
  );
  const totalBytes = lengths.every(Number.isFinite) ? lengths.reduce((sum, length) => sum + length, 0) : null;
  let bytesRead = 0;
  const counted = (length) => {
    bytesRead += length;
    onBytes?.({ bytesRead, totalBytes });
  };
  const files = [
    { path: CONFIG, file: new Blob([config]) },
    ...(index === undefined ? [] : [{ path: INDEX, file: new Blob([index]) }]),
  ];
  for (const [path, response] of responses) files.push({ path, file: await blobOf(response, counted, signal) });
  for (const path of [TOKENIZER, TOKENIZER_CONFIG]) {
    const response = await get(path, { optional: true });
    if (response) files.push({ path, file: await response.blob() });
  }
  return files;
}
