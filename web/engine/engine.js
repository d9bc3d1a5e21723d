// The JavaScript face of the engine: loads the WebAssembly module and composes the API of its
// domains (numeric.js, random.js, walkthroughs.js, models.js with each kind's part from kinds.js,
// files.js), each of which validates and converts its arguments, calls the module,
// and hands back plain values the caller owns.
// Nothing here needs .delete(). index.js (browsers, bundlers) and index.node.js (Node) only differ
// in how they load the .wasm.
import { integer, fail } from './checks.js';
import { filesApi } from './files.js';
import { numericApi } from './numeric.js';
import { randomApi } from './random.js';
import { modelsApi } from './models.js';
import { KINDS, SHIPPED_MODELS } from './kinds.js';
import { walkthroughApi } from './walkthroughs.js';

/** Builds the public API over an instantiated Emscripten module. */
function createEngine(module, threads, platform) {
  const call = (name, ...args) => {
    const result = module[name](...args);
    if (result instanceof Error) throw result;
    return result;
  };
  const models = modelsApi(module, call, platform, { kinds: KINDS, shipped: SHIPPED_MODELS });
  return Object.freeze({
    threads,
    ...numericApi(module, call),
    ...randomApi(module, call),
    ...walkthroughApi(call, models.handleOf),
    ...models.api,
    ...filesApi(module),
  });
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
 * Makes loadAttention over a platform: single(files) instantiates the default module,
 * threaded(threads, files) the threaded one; canThread() says whether the threaded one can run
 * here and cores() how many cores there are; readModel(file) reads a shipped model's bytes. Calls that pass no wasmBinary or locateFile share
 * one instance per thread count; a failed load is not cached, so a later call can retry.
 */
export function makeLoader(platform) {
  const shared = new Map();
  // Threads the caller did not ask for are worth trying, not failing for: when the threaded
  // module cannot start (a policy that blocks workers, say), the single-threaded one loads.
  const instantiate = async (threads, files, asked) => {
    if (threads > 1) {
      try {
        const module = await platform.threaded(threads, files);
        const running = module.setThreads(threads);
        if (running instanceof Error) throw running;
        return createEngine(module, running, platform);
      } catch (error) {
        if (asked) throw error;
        console.warn(`attention-stepper: computing on one thread, as threads could not start: ${error.message}`);
      }
    }
    return createEngine(await platform.single(files), 1, platform);
  };
  // async, so that bad options reject the promise rather than throw
  return async function loadAttention(options) {
    const given = options ?? {};
    const { wasmBinary, locateFile } = given;
    const threads = threadCount(given, platform);
    const asked = given.threads !== undefined;
    if (wasmBinary || locateFile) return instantiate(threads, { wasmBinary, locateFile }, asked);
    if (!shared.has(threads))
      shared.set(
        threads,
        instantiate(threads, {}, asked).catch((error) => {
          shared.delete(threads);
          throw error;
        }),
      );
    const engine = await shared.get(threads);
    // a shared instance that fell back to one thread does not answer a request for more
    return asked && engine.threads !== threads ? instantiate(threads, {}, true) : engine;
  };
}
