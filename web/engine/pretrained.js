// Pretrained checkpoints' own part (models.js serves what every kind has): a checkpoint read from
// the files Hugging Face writes (config.json, model.safetensors or its shards and index,
// tokenizer.json), its weights a slice at a time from the reader's bytes or files into the
// engine's model, and its forward pass, one head's steps and its key/value cache.
import { abortError, describe, fail, options } from './checks.js';

// The model's methods, the tokenizers and the finding of a folder's files (pretrained-model.js, with
// @huggingface/tokenizers and pretrained-files.js inside: scripts/build.sh) are a module of its own, which a page without a checkpoint never loads: named
// by its URL, so that bundlers copy the file rather than split it (a training worker, bundled as
// one file, then bundles alike).
const MODEL_MODULE = new URL('./pretrained-model.js', import.meta.url).href;
const modelModule = () => import(/* @vite-ignore */ MODEL_MODULE);

// The bytes read and written at once: a slice of a tensor, whole values of any dtype.
const CHUNK_BYTES = 8 << 20;

// JSON given as text or as a parsed object, as the engine reads it (text).
const jsonText = (value, name) => {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
  return fail(`${name} must be JSON text or an object, got ${describe(value)}`, name);
};

// The bytes of a file given as an ArrayBuffer, a Uint8Array or a Blob (a File): its size and
// read(begin, end) → a promise of a Uint8Array, read slice by slice from a Blob.
function fileBytes(value, name) {
  if (value instanceof ArrayBuffer) value = new Uint8Array(value);
  if (value instanceof Uint8Array)
    return { size: value.length, read: async (begin, end) => value.subarray(begin, end) };
  if (typeof Blob !== 'undefined' && value instanceof Blob)
    return {
      size: value.size,
      read: async (begin, end) => new Uint8Array(await value.slice(begin, end).arrayBuffer()),
    };
  return fail(`${name} must be an ArrayBuffer, a Uint8Array or a Blob, got ${describe(value)}`, name);
}

// A safetensors file's first bytes that hold all its header: its 8-byte length, then that many
// (the engine checks the length against the file and its own limit).
async function headerOf(file) {
  const first = await file.read(0, Math.min(8, file.size));
  if (first.length < 8) return first;
  const length = new DataView(first.buffer, first.byteOffset, 8).getBigUint64(0, true);
  return file.read(0, Math.min(file.size, 8 + Number(length > 2n ** 40n ? 2n ** 40n : length)));
}

// The options `names` of `o` that are functions where given.
function callbacks(o, names) {
  for (const name of names)
    if (o[name] !== undefined && typeof o[name] !== 'function')
      fail(`${name} must be a function, got ${describe(o[name])}`, name);
}

// The options that give a checkpoint's files one by one (else files or url gives them all).
const FILE_OPTIONS = ['config', 'weights', 'index', 'tokenizer', 'tokenizerConfig'];

// The files of a checkpoint the package ships (models/<name>/), as Hugging Face writes them.
const SHIPPED_FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'];

/**
 * The pretrained kind's part over `call`, `platform` (reads the files of a shipped checkpoint) and
 * `modelOf(info)`, the model object of an engine's model.
 */
export function pretrainedParts({ call, platform, modelOf }) {
  // The files of `weights` in the order the engine takes them: the one file, or the index's shards.
  function weightFiles(weights, indexText) {
    if (indexText === undefined) {
      if (weights !== null && typeof weights === 'object' && Object.getPrototypeOf(weights) === Object.prototype)
        fail('weights is an object of shards: give the index (model.safetensors.index.json) too', 'index');
      return [{ name: 'model.safetensors', bytes: fileBytes(weights, 'weights') }];
    }
    if (weights === null || typeof weights !== 'object' || Object.getPrototypeOf(weights) !== Object.prototype)
      fail(`weights must be an object of the index's shards by file name, got ${describe(weights)}`, 'weights');
    return call('pretrainedIndexFiles', indexText).map((name) =>
      Object.hasOwn(weights, name)
        ? { name, bytes: fileBytes(weights[name], `weights["${name}"]`) }
        : fail(`the index names ${name}, which weights lacks (it has ${Object.keys(weights).join(', ')})`, 'weights'),
    );
  }

  async function loadPretrained(opts) {
    const o = options(opts, 'options', [
      ...FILE_OPTIONS,
      'files',
      'url',
      'precision',
      'onEstimate',
      'onProgress',
      'signal',
    ]);
    const precision = o.precision ?? 'float32';
    callbacks(o, ['onEstimate', 'onProgress']);
    const { signal } = o;
    if (signal !== undefined && typeof signal?.aborted !== 'boolean')
      fail(`signal must be an AbortSignal, got ${describe(signal)}`, 'signal');
    const givenBy = ['files', 'url', 'config'].filter((name) => o[name] !== undefined);
    if (givenBy.length > 1)
      fail(`options give ${givenBy.join(' and ')}: give one of config (with weights), files or url`, givenBy[1]);
    if (givenBy[0] !== 'config' && givenBy.length) {
      const given = FILE_OPTIONS.filter((name) => o[name] !== undefined);
      if (given.length) fail(`${given[0]} is read from ${givenBy[0]}: give one or the other`, given[0]);
    }
    // the memory the config asks for, told (onEstimate may refuse it by throwing) and checked
    // before any weights are read
    const checkFits = (config) => {
      const estimate = pretrainedEstimate(config, precision);
      o.onEstimate?.(estimate);
      if (!estimate.fits)
        fail(
          `a ${estimate.family} model of ${estimate.parameters} parameters needs ${estimate.bytes} bytes at ${precision} and room to run, more than the engine's memory (at most ${estimate.limit} bytes, other models included) can take`,
          'config',
        );
    };
    const progress = (phase) => (report) => o.onProgress?.({ phase, ...report });
    const module = givenBy[0] === 'config' ? null : await modelModule();
    const files = module
      ? await module.checkpointFromFiles(
          o.files ??
            (await module.checkpointFromUrl(o.url, { onConfig: checkFits, onBytes: progress('download'), signal })),
        )
      : o;
    const configText = jsonText(files.config, 'config');
    const indexText = files.index === undefined ? undefined : jsonText(files.index, 'index');
    if (o.url === undefined) checkFits(configText);
    const { createPretrainedTokenizer, pretrainedMethods } = module ?? (await modelModule());
    const tokenizer =
      files.tokenizer === undefined ? null : await createPretrainedTokenizer(files.tokenizer, files.tokenizerConfig);
    const weights = weightFiles(files.weights, indexText);
    const headers = [];
    for (const { name, bytes } of weights) headers.push({ name, header: await headerOf(bytes), size: bytes.size });
    if (signal?.aborted) throw abortError();
    const info = call('pretrainedCreate', configText, headers, indexText ?? '', precision);
    try {
      const sources = call('pretrainedSources', info.handle);
      const totalBytes = sources.reduce((sum, source) => sum + source.end - source.begin, 0);
      let bytesRead = 0;
      for (const [tensor, source] of sources.entries())
        for (let at = source.begin; at < source.end; at += CHUNK_BYTES) {
          const bytes = await weights[source.file].bytes.read(at, Math.min(source.end, at + CHUNK_BYTES));
          if (signal?.aborted) throw abortError();
          call('pretrainedWrite', info.handle, tensor, at - source.begin, bytes);
          bytesRead += bytes.length;
          progress('read')({ bytesRead, totalBytes });
        }
      // the tokens as the tokenizer shows them, which a walkthrough labels its panels with
      if (tokenizer) call('pretrainedSetTokenTexts', info.handle, tokenizer.everyToken());
      return modelOf(info, {
        methods: (engineInfo, live) => pretrainedMethods(call, engineInfo, live, tokenizer),
      });
    } catch (error) {
      call('modelDispose', info.handle);
      throw error;
    }
  }

  // fits: the parameters and a forward pass's working memory within what the module can still take
  function pretrainedEstimate(config, precision = 'float32') {
    const { inUse, working, ...estimate } = call('pretrainedEstimate', jsonText(config, 'config'), precision);
    return Object.freeze({ ...estimate, fits: estimate.bytes + working <= estimate.limit - inUse });
  }

  // a folder's files from its URL (to keep them, or load them later): onConfig(text) may refuse
  // the weights before they are asked for
  async function fetchCheckpoint(url, opts) {
    const o = options(opts, 'options', ['onConfig', 'onProgress', 'signal']);
    callbacks(o, ['onConfig', 'onProgress']);
    const onBytes = (report) => o.onProgress?.({ phase: 'download', ...report });
    return (await modelModule()).checkpointFromUrl(url, { onConfig: o.onConfig, onBytes, signal: o.signal });
  }

  // a checkpoint the package ships: its folder's files, read as the platform reads shipped models
  async function loadShipped({ files }) {
    const [config, weights, tokenizer, tokenizerConfig] = await Promise.all(files.map(platform.readModel));
    const text = (bytes) => new TextDecoder().decode(bytes);
    return loadPretrained({ config: text(config), weights, tokenizer, tokenizerConfig: text(tokenizerConfig) });
  }

  return {
    api: { loadPretrained, pretrainedEstimate, fetchCheckpoint },
    loadShipped,
    // the model's methods, from the module loadPretrained imported, with its tokenizer
    methods: (info, live, { methods }) => methods(info, live),
  };
}

/**
 * The pretrained kind's entry in the kinds' table (kinds.js): models only loaded, by loadPretrained;
 * the package ships, as the default identity's model (a GPT-2 of no name), a small GPT-2 trained by
 * scripts/train_demo_checkpoint.py: Hugging Face's files in models/demo-gpt2/ (config, weights,
 * tokenizer and its config, in that order), the script's steps.
 */
export const pretrainedKind = {
  facts: 'pretrainedFacts',
  walkthroughs: ['pretrained'],
  shipped: [{ files: SHIPPED_FILES.map((file) => `demo-gpt2/${file}`), steps: 4000 }],
  parts: pretrainedParts,
};
