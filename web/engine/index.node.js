// Node: Emscripten 3.1.6's web loader cannot fetch a file path, so the .wasm is read from disk
// and handed over as wasmBinary. The threaded module is the CommonJS build in wasm/node/ (its
// .wasm is the same file as the browsers' threaded module).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';

import createCoreModule from './wasm/attention-core.mjs';
import { makeLoader } from './engine.js';
import { ModelTrainer, runControls, runOptions, runTraining } from './training.js';

export { toMatrix } from './checks.js';
export { fieldsThat, identityDefaults, modelFile, modelIdentity } from './models.js';
export { MODEL_KINDS, SHIPPED_MODELS } from './kinds.js';
export { TRAINING_DEFAULTS } from './training.js';
export { writeNpy, writeNpz } from './tensors.js';

const require = createRequire(import.meta.url);
const wasm = (name) => readFile(new URL(`./wasm/${name}`, import.meta.url));
const singleLoaders = {
  core: async () => createCoreModule,
  engine: async () => (await import('./wasm/attention-engine.mjs')).default,
};

/** Loads the engine: `const attn = await loadAttention()` (then `await attn.loadModels()` for models). */
export const loadAttention = makeLoader({
  readModel: async (file) => new Uint8Array(await readFile(new URL(`./models/${file}`, import.meta.url))),
  canThread: () => true,
  cores: availableParallelism,
  single: async ({ wasmBinary, locateFile }, which) =>
    (await singleLoaders[which]())({ wasmBinary: wasmBinary ?? (await wasm(`attention-${which}.wasm`)), locateFile }),
  async threaded(threads, files, which) {
    const createThreadedModule = require(`./wasm/node/attention-${which}-threads.cjs`);
    const module = await createThreadedModule({
      wasmBinary: await wasm(`attention-${which}-threads.wasm`),
      threadWorkers: threads - 1,
    });
    // idle workers must not keep Node running once the program is done
    for (const worker of [...module.PThread.unusedWorkers, ...module.PThread.runningWorkers]) worker.unref();
    return module;
  },
});

/**
 * Trains a model from scratch → a ModelTrainer, as in browsers; in Node the run shares the
 * process's thread, yielding to the event loop between chunks, and the default engine's threads.
 */
export function trainModel(options) {
  const controls = runControls(() => new Promise((resolve) => setImmediate(resolve)));
  const trainer = new ModelTrainer(controls);
  const receive = (message) => trainer.receive(message);
  loadAttention({ models: true })
    .then((attn) => runTraining(attn, runOptions(options), receive, controls.proceed))
    .catch((error) => receive({ type: 'error', message: error.message, argument: error.argument }));
  return trainer;
}
