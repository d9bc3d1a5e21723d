import { readFileSync } from 'node:fs';
import { loadAttention } from '../dist/engine/index.node.js';
const attn = await loadAttention({ wasmBinary: readFileSync(new URL('../dist/engine/wasm/attention-engine.wasm', import.meta.url)) });
for (const size of [{model:32,heads:2,feedforward:64},{model:64,heads:4,feedforward:128},{model:64,heads:2,feedforward:128},{model:64,heads:1,feedforward:128},{model:64,heads:4,feedforward:64}]) {
  const m = attn.createTransformer({ task: 'en-fr', seed: 0, ...size });
  m.train({ steps: 10 });
  const t = performance.now(); m.train({ steps: 40 }); const ms = (performance.now() - t) / 40;
  console.log(JSON.stringify(size), ms.toFixed(2), 'ms/step');
  m.dispose();
}
