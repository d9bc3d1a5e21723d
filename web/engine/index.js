// Browsers and bundlers: the generated loader finds the .wasm next to itself (import.meta.url),
// or wherever options.locateFile says. On cross-origin-isolated pages the threaded module runs
// instead, one Web Worker per extra thread; its files are named here with literal URLs so that
// bundlers copy them.
import createAttentionModule from './wasm/attention-engine.mjs';
import { makeLoader } from './engine.js';
import { Seq2seqTrainer } from './seq2seq-training.js';

export { toMatrix } from './checks.js';
export { SHIPPED_MODELS } from './models.js';
export { TRAINING_DEFAULTS } from './seq2seq-training.js';
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
 * Trains a seq2seq model from scratch in a Web Worker (the page stays responsive) → a
 * Seq2seqTrainer: progress events as it goes, then `done` with the model's bytes (loadSeq2seq).
 */
export function trainSeq2seq(options) {
  const worker = new Worker(new URL('./seq2seq-worker.js', import.meta.url), { type: 'module' });
  const send = (type) => () => worker.postMessage({ type });
  const trainer = new Seq2seqTrainer({ pause: send('pause'), resume: send('resume'), stop: send('stop') });
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
