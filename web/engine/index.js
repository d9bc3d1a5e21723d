// Browsers and bundlers (browser.js says how a module loads there): the core's loader when
// loadAttention() is first called (a page that draws attention it was given, such as a model view
// fed JSON, never loads it), the engine's when loadModels() first needs it.
import { browserPlatform } from './browser.js';
import { makeLoader } from './engine.js';
import { ModelTrainer, runOptions } from './training.js';

export { toMatrix } from './checks.js';
export { fieldsThat, identityDefaults, modelFile, modelIdentity } from './models.js';
export { MODEL_KINDS, SHIPPED_MODELS } from './kinds.js';
export { TRAINING_DEFAULTS } from './training.js';
export { writeNpy, writeNpz } from './tensors.js';

/** Loads the engine: `const attn = await loadAttention()` (then `await attn.loadModels()` for models). */
export const loadAttention = makeLoader(
  browserPlatform({
    core: async () => (await import('./wasm/attention-core.mjs')).default,
    engine: async () => (await import('./wasm/attention-engine.mjs')).default,
  }),
);

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
  worker.postMessage({ type: 'start', options: runOptions(options) });
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
