// The docs' benchmark tables, made from the committed results in bench/results/ (no benchmark
// runs): `node scripts/bench-tables.js` prints them, `--write` writes them into the docs' blocks of
// the same names (docs/benchmarks.md); tests/js/docs.test.js checks that the docs hold them as made.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { markdownTable, root, writeBlocks } from './generated-blocks.js';

const results = (name) => JSON.parse(readFileSync(join(root, 'bench/results', `${name}.json`), 'utf8'));

const fixed = (digits) => (x) => (x == null ? '–' : x.toFixed(digits));
const times = (digits) => (x) => (x == null ? '–' : `${x.toFixed(digits)}×`);
const percent = (x) => `${(x * 100).toFixed(1)}%`;
const day = (date) => date.slice(0, 10);
const machine = ({ cpu, cores, node, date }) => `${cpu}, ${cores} cores, Node ${node.slice(1)}, ${day(date)}`;
const source = (file, what) => `From \`bench/results/${file}\` (${what}).\n\n`;

// bench/run.js: attention(Q, K, V) in float32, one thread, against its peers; the threaded module.
function attention() {
  const json = results('latest');
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
function matmul() {
  const json = results('latest');
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

// bench/page.js: the page in headless Chromium
function page() {
  const json = results('page');
  const ms = fixed(1);
  const edits = markdownTable(
    ['walkthrough', 'median, style and layout included', 'median script', 'slowest'],
    Object.entries(json.edit).map(([name, edit]) => [
      name,
      `${ms(edit.medianWithLayoutMs)} ms`,
      `${ms(edit.medianScriptMs)} ms`,
      `${ms(edit.worstWithLayoutMs)} ms`,
    ]),
  );
  const { hover256: hover, seq2seqTraining: training } = json;
  const frames = markdownTable(
    ['while', 'frames per second', 'median frame', '95th percentile frame'],
    [
      ['the pointer sweeps a 256×256 heatmap', hover, ''],
      [
        `en-fr trains in the page's worker: ${training.secondsToTrainedModel.toFixed(1)} s to the trained model (${training.lastReport})`,
        training,
      ],
    ].map(([what, r]) => [what, fixed(1)(r.fps), `${ms(r.medianFrameMs)} ms`, `${ms(r.p95FrameMs)} ms`]),
  );
  return `${source('page.json', `headless Chromium, ${day(json.date)}`)}${edits}\n${frames}`;
}

// bench/seq2seq.js: training throughput, target tokens per second, and training to the goal
function seq2seqThroughput() {
  const json = results('seq2seq');
  const names = ['ours', 'native', 'PyTorch batched', 'PyTorch pair by pair'];
  return (
    source('seq2seq.json', machine(json.machine)) +
    markdownTable(
      ['size', 'scoring', ...names, ...names.slice(1).map((name) => `ours/${name}`)],
      json.throughput.cases.map((c) => [
        `${c.embedding}/${c.hidden}`,
        c.scoring,
        ...names.map((name) => fixed(0)(c.results[name]?.tokensPerSecond)),
        ...names.slice(1).map((name) => times(name === 'PyTorch pair by pair' ? 1 : 2)(c.ratios[name])),
      ]),
    )
  );
}

function seq2seqQuality() {
  const json = results('seq2seq');
  return (
    source('seq2seq.json', machine(json.machine)) +
    markdownTable(
      ['task', 'scoring', 'steps', 'seconds', 'exact match', 'alignment accuracy'],
      json.quality.rows.map((row) => [
        row.task,
        row.scoring,
        String(row.steps),
        fixed(1)(row.seconds),
        percent(row.exactMatch),
        percent(row.alignmentAccuracy),
      ]),
    )
  );
}

// bench/alignment.js: every task × scoring × encoder, learning freely (λ = 0) or guided (λ = 1)
function alignment() {
  const json = results('alignment');
  const key = (row) => `${row.task} ${row.scoring} ${row.encoder}`;
  const aer = ({ mean, min, max }) => `${mean.toFixed(3)} (${min.toFixed(3)}–${max.toFixed(3)})`;
  const pairs = new Map();
  for (const row of json.rows) pairs.set(key(row), { ...pairs.get(key(row)), [row.guide]: row });
  const cells = (row) => (row ? [String(row.steps), percent(row.exactMatch), aer(row.aer)] : ['–', '–', '–']);
  return (
    source('alignment.json', `${json.seeds} seeds, ${day(json.date)}`) +
    markdownTable(
      [
        'task',
        'scoring',
        'encoder',
        'free: steps',
        'free: exact match',
        'free: AER mean (min–max)',
        'guided λ = 1: steps',
        'guided: exact match',
        'guided: AER mean (min–max)',
      ],
      [...pairs.values()].map((pair) => {
        const any = pair[0] ?? pair[1];
        return [any.task, any.scoring, any.encoder, ...cells(pair[0]), ...cells(pair[1])];
      }),
    )
  );
}

// bench/transformer.js
function transformerThroughput() {
  const json = results('transformer');
  return (
    source('transformer.json', machine(json.machine)) +
    markdownTable(
      ['d_model/heads/feed-forward', 'layers', 'ours', 'PyTorch', 'ours/PyTorch'],
      json.throughput.cases.map((c) => [
        `${c.model}/${c.heads}/${c.feedforward}`,
        `${c.encoderLayers}+${c.decoderLayers}`,
        fixed(0)(c.results.ours.tokensPerSecond),
        fixed(0)(c.results.PyTorch?.tokensPerSecond),
        times(2)(c.ratio),
      ]),
    )
  );
}

function transformerQuality() {
  const json = results('transformer');
  return (
    source('transformer.json', machine(json.machine)) +
    markdownTable(
      ['task', 'seed', 'steps', 'seconds', 'exact match', "best head's AER"],
      json.quality.rows.map((row) => [
        row.task,
        String(row.seed),
        String(row.steps),
        fixed(1)(row.seconds),
        percent(row.exactMatch),
        fixed(3)(row.aer),
      ]),
    )
  );
}

// bench/captioner.js
function captionerThroughput() {
  const json = results('captioner');
  return (
    source('captioner.json', machine(json.machine)) +
    markdownTable(
      ['language', 'ours', 'PyTorch', 'ours/PyTorch'],
      json.throughput.map((row) => [
        row.language,
        fixed(0)(row.ours.imagesPerSecond),
        fixed(0)(row.pytorch?.imagesPerSecond),
        times(2)(row.ratio),
      ]),
    )
  );
}

function captionerQuality() {
  const json = results('captioner');
  const { rows } = json.quality;
  const kinds = [...new Set(rows.flatMap((row) => row.byCategory.map(({ category }) => category)))];
  const share = (row, kind) => {
    const found = row.byCategory.find(({ category }) => category === kind);
    return found ? percent(found.aligned) : '–';
  };
  return (
    source('captioner.json', machine(json.machine)) +
    markdownTable(
      ['language', 'λ', 'seed', 'steps', 'CPU s', 'exact match', 'regionAccuracy', ...kinds],
      rows.map((row) => [
        row.language,
        String(row.regularization),
        String(row.seed),
        String(row.steps),
        fixed(1)(row.seconds),
        percent(row.exactMatch),
        percent(row.regionAccuracy),
        ...kinds.map((kind) => share(row, kind)),
      ]),
    )
  );
}

/** every table, by the name of its block in the docs */
export const benchTables = () => ({
  'bench-attention': attention(),
  'bench-matmul': matmul(),
  'bench-page': page(),
  'bench-seq2seq-throughput': seq2seqThroughput(),
  'bench-seq2seq-quality': seq2seqQuality(),
  'bench-alignment': alignment(),
  'bench-transformer-throughput': transformerThroughput(),
  'bench-transformer-quality': transformerQuality(),
  'bench-captioner-throughput': captionerThroughput(),
  'bench-captioner-quality': captionerQuality(),
});

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const tables = benchTables();
  if (process.argv.includes('--write')) writeBlocks(tables);
  else for (const [name, table] of Object.entries(tables)) console.log(`${name}:\n${table}`);
}
