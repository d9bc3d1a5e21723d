// `npm run bench`: scaled dot-product attention, float32, single-threaded, on the same inputs,
// against the peers a developer would reach for; then our threaded module against our
// single-threaded one, and our matrix product alone against tf.matMul. Every output is checked
// against ours before timing; each case warms up, then takes the median of repeated runs.
// GFLOP/s counts 4·h·N²·d per attention call and 2·m·k·n per product. Writes
// bench/results/latest.json and bench/results/chart.svg.
//   node bench/run.js [--quick]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import * as tf from '@tensorflow/tfjs-core';
import { setThreadsCount } from '@tensorflow/tfjs-backend-wasm';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';

import { loadAttention } from '../dist/engine/index.node.js';
import { chart } from './chart.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const quick = process.argv.includes('--quick');
const BUDGET_MS = quick ? 300 : 1500; // timing per contender and case
const D = 64;
const SEED = 1;
const cases = [];
for (const n of quick ? [64, 256] : [64, 256, 1024, 4096]) for (const heads of [1, 8]) cases.push({ n, heads });
cases.push({ n: quick ? 4096 : 16384, heads: 1, fusedOnly: true });

const wasmBinary = readFileSync(here('../dist/engine/wasm/attention-engine.wasm'));
const fresh = () => loadAttention({ wasmBinary }); // a new instance per case: its heap size is that case's peak
const THREADS = os.availableParallelism();
const threaded = THREADS > 1 ? await loadAttention({ threads: THREADS }) : null;

// ---- inputs: numpy's randn from one seed, as float32 [heads][n x d] -------------------------------
async function inputsFor({ n, heads }) {
  const random = (await fresh()).randomState(SEED);
  const draw = () => Float32Array.from(random.randn(n, D).data);
  const q = [],
    k = [],
    v = [];
  for (let h = 0; h < heads; h++) (q.push(draw()), k.push(draw()), v.push(draw()));
  const stack = (parts) => {
    const all = new Float32Array(heads * n * D);
    parts.forEach((part, h) => all.set(part, h * n * D));
    return all;
  };
  // heads side by side (n x heads·d), the layout of attention(…, { heads })
  const sideBySide = (parts) => {
    const all = new Float32Array(heads * n * D);
    parts.forEach((part, h) => {
      for (let i = 0; i < n; i++) all.set(part.subarray(i * D, (i + 1) * D), i * heads * D + h * D);
    });
    return { rows: n, cols: heads * D, data: all };
  };
  return { n, heads, Q: stack(q), K: stack(k), V: stack(v), sides: [q, k, v].map(sideBySide) };
}

// ---- the contenders: each takes the inputs and returns the output as one Float32Array ----------
// One call for all heads; the output comes back heads side by side and is restacked [heads][n][d].
function ours(attn, options) {
  return ({ n, heads, sides: [q, k, v] }) => {
    const { output } = attn.attention(q, k, v, { ...options, heads });
    const out = new Float32Array(heads * n * D);
    for (let h = 0; h < heads; h++)
      for (let i = 0; i < n; i++)
        out.set(output.data.subarray(i * heads * D + h * D, i * heads * D + (h + 1) * D), h * n * D + i * D);
    return out;
  };
}

function plainJs({ n, heads, Q: qs, K: ks, V: vs }) {
  const out = new Float32Array(heads * n * D);
  const scale = 1 / Math.sqrt(D);
  const row = new Float32Array(n);
  for (let h = 0; h < heads; h++) {
    const [Q, K, V] = [qs, ks, vs].map((all) => all.subarray(h * n * D, (h + 1) * n * D));
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = 0; p < D; p++) s += Q[i * D + p] * K[j * D + p];
        row[j] = s * scale;
        if (row[j] > max) max = row[j];
      }
      let sum = 0;
      for (let j = 0; j < n; j++) sum += row[j] = Math.exp(row[j] - max);
      const o = h * n * D + i * D;
      for (let j = 0; j < n; j++) {
        const w = row[j] / sum;
        for (let p = 0; p < D; p++) out[o + p] += w * V[j * D + p];
      }
    }
  }
  return out;
}

function tfjsWasm({ n, heads, Q, K, V }) {
  const result = tf.tidy(() => {
    const [q, k, v] = [Q, K, V].map((data) => tf.tensor3d(data, [heads, n, D]));
    return tf.matMul(tf.softmax(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(D))), v);
  });
  const data = result.dataSync();
  result.dispose();
  return data;
}

function onnx(ort, session) {
  return async ({ n, heads, Q, K, V }) => {
    const tensor = (data) => new ort.Tensor('float32', data, [heads, n, D]);
    const { output } = await session.run({ Q: tensor(Q), K: tensor(K), V: tensor(V) });
    return output.data;
  };
}

function nativeSse2(fused) {
  const program = here('../build/native/bench_native');
  return ({ n, heads }) =>
    JSON.parse(execFileSync(program, [n, heads, D, fused ? 1 : 0, SEED].map(String), { encoding: 'utf8' }));
}

// ---- measuring ------------------------------------------------------------------------------------
async function time(run, input, budgetMs) {
  // Warm-up by time, not by count: V8 first runs WebAssembly from its baseline compiler and moves
  // hot functions to the optimising one only after a while, for every contender alike.
  const warm = performance.now();
  for (let i = 0; i < 3 || (performance.now() - warm < budgetMs / 3 && i < 200); i++) await run(input);
  const times = [];
  const start = performance.now();
  while (times.length < 3 || (performance.now() - start < budgetMs && times.length < 50)) {
    const t0 = performance.now();
    await run(input);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function maxRelativeError(actual, expected) {
  let worst = 0;
  let scale = 0;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]));
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
  return worst / scale;
}

// Our matrix product alone against tfjs-wasm's tf.matMul (XNNPACK), one thread each, on the
// shapes of the score matrix Q K^T: (N x d) times (d x N).
async function matmulAlone() {
  const attn = await fresh();
  const rows = [];
  for (const n of quick ? [256, 1024] : [256, 1024, 4096]) {
    const random = attn.randomState(SEED);
    const a = { rows: n, cols: D, data: Float32Array.from(random.randn(n, D).data) };
    const b = { rows: D, cols: n, data: Float32Array.from(random.randn(D, n).data) };
    const ta = tf.tensor2d(a.data, [n, D]);
    const tb = tf.tensor2d(b.data, [D, n]);
    const contenders = {
      ours: () => attn.matmul(a, b).data,
      'tf.matMul': () => {
        const product = tf.matMul(ta, tb);
        const data = product.dataSync();
        product.dispose();
        return data;
      },
    };
    const expected = contenders.ours();
    const row = { m: n, k: D, n, results: {} };
    for (const [name, run] of Object.entries(contenders)) {
      const error = maxRelativeError(run(), expected);
      if (error > 1e-4) throw new Error(`${name} disagrees with ours on the ${n}x${D}x${n} product: ${error}`);
      const ms = await time(run, null, BUDGET_MS);
      row.results[name] = { ms, gflops: (2 * n * D * n) / ms / 1e6 };
    }
    row.ratio = row.results.ours.gflops / row.results['tf.matMul'].gflops;
    console.log(
      `matmul ${n}x${D} by ${D}x${n}: ours ${row.results.ours.gflops.toFixed(2)} GFLOP/s, tf.matMul ${row.results['tf.matMul'].gflops.toFixed(2)} GFLOP/s, ours ${row.ratio.toFixed(2)}x`,
    );
    ta.dispose();
    tb.dispose();
    rows.push(row);
  }
  return rows;
}

async function main() {
  setThreadsCount(1);
  await tf.setBackend('wasm');
  const model = readFileSync(here('attention.onnx'));
  ortWeb.env.wasm.numThreads = 1;
  const webSession = await ortWeb.InferenceSession.create(model, { executionProviders: ['wasm'] });
  const nodeSession = await ortNode.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });

  const results = [];
  for (const c of cases) {
    const input = await inputsFor(c);
    const flop = 4 * c.heads * c.n * c.n * D;
    const contenders = c.fusedOnly
      ? {
          'ours fused': ['wasm', { weights: false }],
          'ours threaded fused': ['threads', { weights: false }],
          'native SSE2 fused': ['native', true],
        }
      : {
          'ours materialised': ['wasm', {}],
          'ours fused': ['wasm', { weights: false }],
          'ours threaded materialised': ['threads', {}],
          'ours threaded fused': ['threads', { weights: false }],
          'tfjs-wasm': ['fn', tfjsWasm],
          'onnxruntime-web': ['fn', onnx(ortWeb, webSession)],
          'onnxruntime-node': ['fn', onnx(ortNode, nodeSession)],
          'plain JS': ['fn', plainJs],
          'native SSE2': ['native', false],
        };
    const row = { n: c.n, heads: c.heads, d: D, results: {} };
    let reference;
    for (const [name, [kind, how]] of Object.entries(contenders)) {
      if (name === 'plain JS' && flop > 4e9) continue; // minutes per run: the loop's figure is clear from smaller N
      if (kind === 'threads' && !threaded) continue;
      let ms;
      const entry = {};
      if (kind === 'native') {
        const report = nativeSse2(how)(input);
        ms = report.median_ms;
        if (reference) entry.checksumError = Math.abs(report.checksum - reference.sum) / Math.abs(reference.sum);
      } else {
        const attn = kind === 'wasm' ? await fresh() : null;
        const run = kind === 'fn' ? how : ours(attn ?? threaded, how);
        const output = await run(input);
        if (!reference) reference = { output, sum: output.reduce((a, b) => a + b, 0) };
        entry.error = maxRelativeError(output, reference.output);
        if (entry.error > 1e-3) throw new Error(`${name} disagrees with ours at n=${c.n}: ${entry.error}`);
        ms = await time(run, input, BUDGET_MS);
        if (attn) entry.peakWasmBytes = attn.memory().heapBytes;
      }
      Object.assign(entry, { ms, gflops: flop / ms / 1e6 });
      row.results[name] = entry;
      console.log(
        `n=${c.n} heads=${c.heads} ${name.padEnd(20)} ${ms.toFixed(2).padStart(10)} ms ${entry.gflops.toFixed(2).padStart(7)} GFLOP/s${entry.peakWasmBytes ? `  peak wasm ${(entry.peakWasmBytes / 2 ** 20).toFixed(0)} MB` : ''}`,
      );
    }
    const bestOf = (names) => Math.max(...names.map((name) => row.results[name]?.gflops ?? 0));
    const best = bestOf(['ours materialised', 'ours fused']);
    row.ratios = Object.fromEntries(
      Object.entries(row.results)
        .filter(([name]) => !name.startsWith('ours'))
        .map(([name, entry]) => [name, best / entry.gflops]),
    );
    if (threaded) row.threadSpeedup = bestOf(['ours threaded materialised', 'ours threaded fused']) / best;
    console.log(
      `  ours (best, one thread) vs: ${Object.entries(row.ratios)
        .map(([name, r]) => `${name} ${r.toFixed(2)}x`)
        .join(', ')}${threaded ? `; ${THREADS} threads vs one: ${row.threadSpeedup.toFixed(2)}x` : ''}`,
    );
    results.push(row);
  }

  const machine = {
    cpu: os.cpus()[0].model,
    cores: os.cpus().length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
  };
  const report = {
    machine,
    d: D,
    threads: 1,
    threadedWith: threaded ? THREADS : null,
    precision: 'float32',
    quick,
    cases: results,
    matmul: await matmulAlone(),
  };
  if (!quick) {
    writeFileSync(here('results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(here('results/chart.svg'), chart(report));
    console.log('wrote bench/results/latest.json and bench/results/chart.svg');
  }
}

await main();
