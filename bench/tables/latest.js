// The tables of bench/results/latest.json (bench/run.js): attention and the matrix product.
import { fixed, machine, markdownTable, source, times } from './format.js';

// bench/run.js: attention(Q, K, V) in float32, one thread, against its peers; the threaded module.
function attention(json) {
  const peers = ['tfjs-wasm', 'onnxruntime-web', 'onnxruntime-node', 'plain JS', 'native SSE2'];
  const gflops = (c, name) => c.results[name]?.gflops;
  const best = (...values) => Math.max(...values.filter((x) => x != null));
  const rows = json.cases.map((c) => {
    const fusedOnly = !c.results['ours materialised'];
    const flops = 4 * c.heads * c.n * c.n * c.d;
    const peakBytes = best(...Object.values(c.results).map((r) => r.peakWasmBytes));
    return [
      fusedOnly ? `${c.n} (fused)` : String(c.n),
      String(c.heads),
      fixed(1)(gflops(c, 'ours materialised')),
      fixed(1)(gflops(c, 'ours fused')),
      ...peers.map((peer) =>
        fusedOnly && c.ratios[`${peer} fused`] != null
          ? `${times(2)(c.ratios[`${peer} fused`])} (fused)`
          : times(2)(c.ratios[peer]),
      ),
      fixed(1)(best(gflops(c, 'ours threaded materialised'), gflops(c, 'ours threaded fused'))),
      // under 10 MFLOP the threaded module computes on one thread (min_split_flops, parallel.hpp)
      `${times(2)(c.threadSpeedup)}${flops < 1e7 ? ' (one thread)' : ''}`,
      `${(peakBytes / 2 ** 20).toFixed(0)} MB`,
    ];
  });
  const table = markdownTable(
    [
      'N',
      'heads',
      'ours materialised GFLOP/s',
      'ours fused GFLOP/s',
      ...peers.map((peer) => `vs ${peer}`),
      `ours, ${json.threadedWith} threads GFLOP/s`,
      `${json.threadedWith} threads over 1`,
      'peak WASM memory',
    ],
    rows,
  );
  return source('latest.json', `${machine(json.machine)}, d = ${json.d}`) + table;
}

// bench/run.js: the matrix product alone against tf.matMul
function matmul(json) {
  return (
    source('latest.json', machine(json.machine)) +
    markdownTable(
      ['product', 'ours GFLOP/s', 'tf.matMul GFLOP/s', 'ours/tf.matMul'],
      json.matmul.map((row) => [
        `(${row.m} × ${row.k}) by (${row.k} × ${row.n})`,
        fixed(1)(row.results.ours.gflops),
        fixed(1)(row.results['tf.matMul'].gflops),
        times(2)(row.ratio),
      ]),
    )
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-attention': attention(json),
  'bench-matmul': matmul(json),
});
