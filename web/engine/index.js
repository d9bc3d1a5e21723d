// Browsers and bundlers: the generated loader finds the .wasm next to itself (import.meta.url),
// or wherever options.locateFile says.
import createAttentionModule from './wasm/attention-engine.mjs';
import { makeLoader } from './engine.js';

export { WALKTHROUGHS } from './engine.js';

/** Loads the engine: `const attn = await loadAttention()`. */
export const loadAttention = makeLoader((options) => createAttentionModule(options));
