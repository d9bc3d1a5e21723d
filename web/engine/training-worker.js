// The Web Worker that trains a model off the page's thread (trainModel in index.js): messages in
// { type: 'start', options } | { type: 'pause' } | { type: 'resume' } | { type: 'stop' }; out,
// runTraining's reports, or { type: 'error', message, argument }.
import createAttentionModule from './wasm/attention-engine.mjs';
import { browserPlatform } from './browser.js';
import { makeLoader } from './engine.js';
import { runControls, runTraining } from './training.js';

// The engine, models included, from the start (no import() for a bundler to split: bundlers build
// workers as one file), threaded too: the core alone would be a module more, its threads idle.
const engine = async () => createAttentionModule;
const platform = browserPlatform({ core: engine, engine });
const loadAttention = makeLoader({
  ...platform,
  threaded: (threads, files) => platform.threaded(threads, files, 'engine'),
});

const controls = runControls(() => new Promise((resolve) => setTimeout(resolve)));

self.onmessage = async ({ data }) => {
  if (data.type !== 'start') return controls[data.type]?.();
  try {
    // Threads as loadAttention() picks them: on a cross-origin-isolated page one per core (at most
    // 8), each a worker this one starts, else (or should they fail to start) one.
    const attn = await loadAttention();
    const post = (message) => self.postMessage(message, message.bytes ? [message.bytes.buffer] : []);
    await runTraining(attn, data.options, post, controls.proceed);
  } catch (error) {
    self.postMessage({ type: 'error', message: error.message, argument: error.argument });
  }
};
