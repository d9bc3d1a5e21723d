import { readFileSync } from 'node:fs';
import { loadAttention } from '../dist/engine/index.node.js';
import { trainUntil } from './common.js';
const attn = await loadAttention({ wasmBinary: readFileSync(new URL('../dist/engine/wasm/attention-engine.wasm', import.meta.url)) });
const [lr, batch] = process.argv.slice(2).map(Number);
const m = attn.createTransformer({ task: 'dates', seed: 0 });
const t0 = performance.now();
const r = trainUntil(m, { chunk: 100, budgetMs: 90_000, done: (e) => { console.log(JSON.stringify({ ms: Math.round(performance.now() - t0), exact: e.exactMatch, aer: e.aer })); return e.exactMatch >= 0.98; }, options: { learningRate: lr || undefined, batch: batch || undefined } });
console.log(lr, batch, r.steps, r.seconds.toFixed(1), r.evaluation.exactMatch);
