// Two builds of the engine side by side, to tell whether a change to the build (flags, passes,
// modules) moved the hot code's speed: this checkout's dist/engine/ and another checkout's (built
// there by its own scripts/build.sh), loaded in one process and timed in turn, round after round,
// so that both see the same machine at the same moments. Timed: the attention, materialised and
// fused (float32, d = 64, bench/run.js's inputs), and training steps of every model kind at its
// defaults; with --core, the attention alone on the core module (what loadAttention() gives
// before loadModels()); with --threads N, on the threaded modules. Prints each one's median per
// build and their ratio; writes nothing.
//   node bench/builds.js <other checkout> [--rounds N] [--core] [--threads N]
import os from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { table } from './common.js';

const [otherCheckout] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!otherCheckout) throw new Error('usage: node bench/builds.js <other checkout> [--rounds N] [--core] [--threads N]');
const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 7;
const D = 64;
const ATTENTION = [
  { n: 256, heads: 8 },
  { n: 1024, heads: 1 },
  { n: 4096, heads: 1 },
];
const CORE = process.argv.includes('--core');
const threadsAt = process.argv.indexOf('--threads');
const THREADS = threadsAt > 0 ? Number(process.argv[threadsAt + 1]) : 1;
const TRAINING_STEPS = 20; // a step's time is the median of each round's mean over these

async function load(checkout) {
  const dist = resolve(checkout, 'dist/engine');
  const { loadAttention, MODEL_KINDS } = await import(pathToFileURL(`${dist}/index.node.js`).href);
  const attn = await loadAttention({ threads: THREADS, models: !CORE });
  return { attn, kinds: CORE ? [] : Object.keys(MODEL_KINDS) };
}

const builds = { this: await load(resolve(import.meta.dirname, '..')), other: await load(otherCheckout) };

// What each build runs, by name: a function timing one go in ms.
function workloads({ attn, kinds }) {
  const runs = {};
  const random = attn.randomState(1);
  for (const { n, heads } of ATTENTION) {
    const [q, k, v] = [0, 1, 2].map(() => ({
      rows: n,
      cols: heads * D,
      data: Float32Array.from(random.randn(n, heads * D).data),
    }));
    for (const [how, options] of [
      ['materialised', {}],
      ['fused', { weights: false }],
    ])
      runs[`attention ${how} n=${n} heads=${heads}`] = () => {
        const start = performance.now();
        attn.attention(q, k, v, { ...options, heads });
        return performance.now() - start;
      };
  }
  for (const kind of kinds) {
    const facts = attn.modelFacts(kind);
    const model = attn.createModel({ kind, task: facts.defaults.task });
    model.train({ steps: 3 }); // the optimising compiler's warm-up
    runs[`${kind} training step`] = () => {
      const start = performance.now();
      model.train({ steps: TRAINING_STEPS });
      return (performance.now() - start) / TRAINING_STEPS;
    };
  }
  return runs;
}

const runs = Object.fromEntries(Object.entries(builds).map(([name, build]) => [name, workloads(build)]));
// what both builds run (an older checkout may lack a model kind)
const common = Object.keys(runs.this).filter((workload) => workload in runs.other);
const unmatched = Object.keys({ ...runs.this, ...runs.other }).filter((workload) => !common.includes(workload));
if (unmatched.length) console.log(`in one build only, not timed: ${unmatched.join(', ')}`);
const times = {}; // workload -> build -> ms of each round
// round 0 warms up (V8's optimising compiler, the heaps' growth) and is not counted
for (let round = 0; round <= ROUNDS; round++)
  for (const workload of common) {
    // the builds' order alternates, so that neither always runs on a machine the other warmed
    const order = round % 2 ? ['other', 'this'] : ['this', 'other'];
    for (const build of order) {
      const ms = runs[build][workload]();
      if (round > 0) ((times[workload] ??= {})[build] ??= []).push(ms);
    }
  }

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `${os.cpus()[0]?.model ?? 'unknown CPU'}, the ${CORE ? 'core' : 'engine'} on ${THREADS} thread(s), ${ROUNDS} rounds; other: ${resolve(otherCheckout)}`,
);
console.log(
  table(
    ['workload', 'this (ms)', 'other (ms)', 'this / other'],
    Object.entries(times).map(([workload, { this: ours, other }]) => [
      workload,
      median(ours).toFixed(2),
      median(other).toFixed(2),
      (median(ours) / median(other)).toFixed(3),
    ]),
  ),
);
