// The Web Worker that trains a model off the page's thread (trainModel in index.js): messages in
// { type: 'start', options } | { type: 'pause' } | { type: 'resume' } | { type: 'stop' }; out,
// runTraining's reports, or { type: 'error', message, argument }.
import createAttentionModule from './wasm/attention-engine.mjs';
import { browserPlatform } from './browser.js';
import { makeLoader } from './engine.js';
import { runControls, runTraining } from './training.js';

// The engine, models included, from the start (no import() for a bundler to split: bundlers build
// workers as one file)
const engine = async () => createAttentionModule;
const loadAttention = makeLoader(browserPlatform({ core: engine, engine }));

const controls = runControls(() => new Promise((resolve) => setTimeout(resolve)));

self.onmessage = async ({ data }) => {
  if (data.type !== 'start') return controls[data.type]?.();
  try {
    const attn = await loadAttention({ threads: 1 });
    const post = (message) => self.postMessage(message, message.bytes ? [message.bytes.buffer] : []);
    await runTraining(attn, data.options, post, controls.proceed);
  } catch (error) {
    self.postMessage({ type: 'error', message: error.message, argument: error.argument });
  }
};
