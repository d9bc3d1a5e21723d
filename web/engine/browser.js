// What loading a module takes in browsers and bundlers: the generated loaders find their .wasm
// next to themselves (import.meta.url), or wherever options.locateFile says. On
// cross-origin-isolated pages the threaded modules run instead, one Web Worker per extra thread;
// their files are named here with literal URLs so that bundlers copy them.
const threadedFiles = {
  core: () => ({
    'attention-core-threads.mjs': new URL('./wasm/attention-core-threads.mjs', import.meta.url).href,
    'attention-core-threads.wasm': new URL('./wasm/attention-core-threads.wasm', import.meta.url).href,
    'attention-core-threads.worker.js': new URL('./wasm/attention-core-threads.worker.js', import.meta.url).href,
  }),
  engine: () => ({
    'attention-engine-threads.mjs': new URL('./wasm/attention-engine-threads.mjs', import.meta.url).href,
    'attention-engine-threads.wasm': new URL('./wasm/attention-engine-threads.wasm', import.meta.url).href,
    'attention-engine-threads.worker.js': new URL('./wasm/attention-engine-threads.worker.js', import.meta.url).href,
  }),
};

/**
 * makeLoader's platform in browsers; `single` maps 'core' and 'engine' to an async function giving
 * that single-threaded module's factory (index.js imports the engine's only when loadModels()
 * needs it; the training worker, which always trains, has it from the start).
 */
export const browserPlatform = (single) => ({
  async readModel(path) {
    // a shipped checkpoint's file is in its folder: each pattern a bundler can list (models/*, models/*/*)
    const [folder, file] = path.includes('/') ? path.split('/') : [null, path];
    const url = folder
      ? new URL(`./models/${folder}/${file}`, import.meta.url)
      : new URL(`./models/${file}`, import.meta.url);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the shipped model ${path} could not be fetched (HTTP ${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  },
  canThread: () => globalThis.crossOriginIsolated === true,
  cores: () => navigator.hardwareConcurrency ?? 1,
  single: async (files, which) => (await single[which]())(files),
  async threaded(threads, { locateFile }, which) {
    const files = threadedFiles[which]();
    const locate = locateFile ?? ((path) => files[path]);
    const loader = locate(`attention-${which}-threads.mjs`, '');
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
