// The JavaScript face of the engine: loads the WebAssembly module and composes the API of its
// domains (numeric.js, random.js, walkthroughs.js, models.js with each kind's part from kinds.js,
// translation-tasks.js, files.js), each of which validates and converts its arguments, calls the module,
// and hands back plain values the caller owns.
// Nothing here needs .delete(). index.js (browsers, bundlers) and index.node.js (Node) only differ
// in how they load the .wasm.
import { describe, fail, integer } from './checks.js';
import { filesApi } from './files.js';
import { numericApi } from './numeric.js';
import { randomApi } from './random.js';
import { modelsApi } from './models.js';
import { KINDS, SHIPPED_MODELS } from './kinds.js';
import { walkthroughApi } from './walkthroughs.js';
import { translationTasksApi } from './translation-tasks.js';
import { taskStore } from './text-tasks.js';

// The names of the models' functions (createModel, each kind's alias, facts and own functions),
// known before the module that computes them loads.
const MODEL_FUNCTIONS = [
  'modelFacts',
  'createModel',
  'loadModel',
  'loadShippedModel',
  ...Object.values(KINDS).flatMap((kind) =>
    [kind.create, kind.facts, ...Object.keys(kind.parts({}).api)].filter(Boolean),
  ),
  ...Object.keys(translationTasksApi().api),
];
const NEEDS_MODELS = 'needs the models: call `await attn.loadModels()` first (or loadAttention({ models: true }))';

// Every domain's functions over one instantiated module; the models' where the module has them
// (the engine's, not the core's).
function apiOf(module, platform) {
  const call = (name, ...args) => {
    const result = module[name](...args);
    if (result instanceof Error) throw result;
    return result;
  };
  // the reader's tasks of every kind, by their objects, which createModel({ task }) takes
  const store = taskStore();
  const tasks = module.modelKinds && translationTasksApi(call, store);
  const models = tasks && modelsApi(module, call, platform, { kinds: KINDS, shipped: SHIPPED_MODELS, tasks: store });
  const elsewhere = models ? '' : `; the walkthroughs of trained models ${NEEDS_MODELS}`;
  return {
    ...numericApi(module, call),
    ...randomApi(module, call),
    ...walkthroughApi(call, (model) => models?.handleOf(model), elsewhere),
    ...models?.api,
    ...tasks?.api,
    ...filesApi(module),
  };
}

/**
 * The public API over an instantiated module, the core's or the engine's: its functions, and the
 * models' once loadModels() has loaded the engine (`loadEngine()` → its module), from when on
 * every function runs on the engine. What a function returned before keeps its own module.
 */
function createEngine(module, threads, platform, loadEngine) {
  let current = module; // the core's, until loadModels() brings the engine's
  let api = apiOf(current, platform);
  let loading = null;
  const loaded = () => Boolean(current.modelKinds);
  const engine = { threads };
  for (const name of new Set([...Object.keys(api), ...MODEL_FUNCTIONS])) {
    if (typeof api[name] === 'function' || !(name in api))
      engine[name] = (...args) => (api[name] ?? fail(`${name}() ${NEEDS_MODELS}`, 'models')).apply(undefined, args);
    else Object.defineProperty(engine, name, { get: () => api[name], enumerable: true });
  }
  Object.defineProperty(engine, 'modelsLoaded', { get: loaded, enumerable: true });
  /** Loads the models' code, once: after it every model function works, synchronously. */
  engine.loadModels = () =>
    (loading ??= loaded()
      ? Promise.resolve()
      : loadEngine().then(
          (engineModule) => {
            current = engineModule;
            api = apiOf(current, platform);
          },
          (error) => {
            loading = null;
            throw error;
          },
        ));
  return Object.freeze(engine);
}

// Threads used when options.threads is not given: the platform's cores, at most this many.
const AUTO_THREADS_MAX = 8;

function threadCount(options, platform) {
  if (options.threads === undefined)
    return options.wasmBinary || !platform.canThread() ? 1 : Math.min(platform.cores(), AUTO_THREADS_MAX);
  const threads = integer(options.threads, 'options.threads', 1, 64);
  if (threads > 1 && options.wasmBinary)
    fail(
      'options.wasmBinary holds the single-threaded module (attention-engine.wasm): pass threads: 1 with it',
      'options.wasmBinary',
    );
  if (threads > 1 && !platform.canThread())
    throw Object.assign(
      new Error(
        `options.threads: ${threads} needs a cross-origin-isolated page (served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp), where WebAssembly threads can share memory`,
      ),
      { argument: 'threads' },
    );
  return threads;
}

/**
 * Makes loadAttention over a platform: single(files, which) instantiates the single-threaded
 * module `which` ('core': no models, or 'engine': everything), threaded(threads, files, which)
 * the threaded one; canThread() says whether the threaded one can run
 * here and cores() how many cores there are; readModel(file) reads a shipped model's bytes. Calls that pass no wasmBinary or locateFile share
 * one instance per thread count; a failed load is not cached, so a later call can retry.
 */
export function makeLoader(platform) {
  const shared = new Map();
  // Threads the caller did not ask for are worth trying, not failing for: when the threaded
  // module cannot start (a policy that blocks workers, say), the single-threaded one loads.
  // `which`: 'core' (no models) or 'engine' (everything) → { module, running (threads) }.
  const instantiate = async (threads, files, asked, which) => {
    if (threads > 1) {
      try {
        const module = await platform.threaded(threads, files, which);
        const running = module.setThreads(threads);
        if (running instanceof Error) throw running;
        return { module, running };
      } catch (error) {
        if (asked) throw error;
        console.warn(`attention-stepper: computing on one thread, as threads could not start: ${error.message}`);
      }
    }
    return { module: await platform.single(files, which), running: 1 };
  };
  // The core, or the engine for wasmBinary (it holds the engine's .wasm) or for a caller who
  // wants the models at once (the core would be loaded for nothing); loadModels() then loads the
  // engine, if the core came, on as many threads as the core runs.
  const start = async (threads, files, asked, models) => {
    const which = files.wasmBinary || models ? 'engine' : 'core';
    const { module, running } = await instantiate(threads, files, asked, which);
    const loadEngine = async () => (await instantiate(running, files, true, 'engine')).module;
    return createEngine(module, running, platform, loadEngine);
  };
  const withModels = async (engine, models) => {
    if (models) await engine.loadModels();
    return engine;
  };
  // async, so that bad options reject the promise rather than throw
  return async function loadAttention(options) {
    const given = options ?? {};
    const { wasmBinary, locateFile } = given;
    const threads = threadCount(given, platform);
    const asked = given.threads !== undefined;
    if (given.models !== undefined && typeof given.models !== 'boolean')
      fail(`options.models must be true or false, got ${describe(given.models)}`, 'options.models');
    if (wasmBinary || locateFile)
      return withModels(await start(threads, { wasmBinary, locateFile }, asked, given.models), given.models);
    if (!shared.has(threads))
      shared.set(
        threads,
        start(threads, {}, asked, given.models).catch((error) => {
          shared.delete(threads);
          throw error;
        }),
      );
    const engine = await shared.get(threads);
    // a shared instance that fell back to one thread does not answer a request for more
    return withModels(
      asked && engine.threads !== threads ? await start(threads, {}, true, given.models) : engine,
      given.models,
    );
  };
}
