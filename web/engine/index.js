// Browsers and bundlers: the generated loader finds the .wasm next to itself (import.meta.url),
// or wherever options.locateFile says. On cross-origin-isolated pages the threaded module runs
// instead, one Web Worker per extra thread; its files are named here with literal URLs so that
// bundlers copy them.
import createAttentionModule from './wasm/attention-engine.mjs';
import { makeLoader } from './engine.js';
import { ModelTrainer } from './training.js';

export { toMatrix } from './checks.js';
export { fieldsThat, identityDefaults, modelFile, modelIdentity } from './models.js';
export { MODEL_KINDS, SHIPPED_MODELS } from './kinds.js';
export { TRAINING_DEFAULTS } from './training.js';
export { writeNpy, writeNpz } from './tensors.js';

const threadedFiles = () => ({
  'attention-engine-threads.mjs': new URL('./wasm/attention-engine-threads.mjs', import.meta.url).href,
  'attention-engine-threads.wasm': new URL('./wasm/attention-engine-threads.wasm', import.meta.url).href,
  'attention-engine-threads.worker.js': new URL('./wasm/attention-engine-threads.worker.js', import.meta.url).href,
});

/** Loads the engine: `const attn = await loadAttention()`. */
export const loadAttention = makeLoader({
  async readModel(file) {
    const response = await fetch(new URL(`./models/${file}`, import.meta.url));
    if (!response.ok) throw new Error(`the shipped model ${file} could not be fetched (HTTP ${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  },
  canThread: () => globalThis.crossOriginIsolated === true,
  cores: () => navigator.hardwareConcurrency ?? 1,
  single: (files) => createAttentionModule(files),
  async threaded(threads, { locateFile }) {
    const files = threadedFiles();
    const locate = locateFile ?? ((path) => files[path]);
    const loader = locate('attention-engine-threads.mjs', '');
    const { default: createThreadedModule } = await import(/* @vite-ignore */ loader);
    // mainScriptUrlOrBlob: what each worker imports to run the module
    const module = { locateFile: locate, mainScriptUrlOrBlob: loader, threadWorkers: threads - 1 };
    const ready = createThreadedModule(module);
    // A worker that cannot start (blocked by a policy, not found) would leave `ready` pending
    // for ever; its error event ends the wait instead. The factory made the workers already.
    const failed = new Promise((_, reject) => {
      const fail = () =>
        reject(new Error('a worker of the threaded module could not start (blocked by a policy, or not found)'));
      for (const worker of module.PThread.unusedWorkers) worker.addEventListener('error', fail, { once: true });
    });
    return Promise.race([ready, failed]);
  },
});

/**
 * Trains a model from scratch in a Web Worker (the page stays responsive) → a ModelTrainer:
 * progress events as it goes, then `done` with the model's bytes (loadModel).
 */
export function trainModel(options) {
  const worker = trainingWorker();
  const send = (type) => () => worker.postMessage({ type });
  const trainer = new ModelTrainer({ pause: send('pause'), resume: send('resume'), stop: send('stop') });
  worker.onmessage = ({ data }) => {
    if (data.type === 'done' || data.type === 'error') worker.terminate();
    trainer.receive(data);
  };
  worker.onerror = (event) => {
    worker.terminate();
    trainer.receive({ type: 'error', message: event.message || 'the training worker could not start' });
  };
  worker.postMessage({ type: 'start', options });
  return trainer;
}

// A page cannot start a worker from another origin's script (a package served from a CDN): a
// same-origin blob that imports the script can (the CDN answers with CORS headers, as module
// scripts need anyway). The literal `new Worker(new URL('…', import.meta.url))` lets bundlers
// bundle the worker; the blob names the file through a constant, which they leave alone.
const WORKER_SCRIPT = './training-worker.js';
function trainingWorker() {
  try {
    return new Worker(new URL('./training-worker.js', import.meta.url), { type: 'module' });
  } catch (error) {
    if (error.name !== 'SecurityError') throw error;
    const script = `import ${JSON.stringify(new URL(WORKER_SCRIPT, import.meta.url).href)};`;
    return new Worker(URL.createObjectURL(new Blob([script], { type: 'text/javascript' })), { type: 'module' });
  }
}
