// Node: Emscripten 3.1.6's web loader cannot fetch a file path, so the .wasm is read from disk
// and handed over as wasmBinary.
import { readFile } from 'node:fs/promises';

import createAttentionModule from './wasm/attention-engine.mjs';
import { makeLoader } from './engine.js';

export { WALKTHROUGHS } from './engine.js';

/** Loads the engine: `const attn = await loadAttention()`. */
export const loadAttention = makeLoader(async ({ wasmBinary, locateFile }) =>
  createAttentionModule({
    wasmBinary: wasmBinary ?? (await readFile(new URL('./wasm/attention-engine.wasm', import.meta.url))),
    locateFile,
  }),
);
