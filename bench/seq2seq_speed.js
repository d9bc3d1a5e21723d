// Training throughput of the additive seq2seq model on en-fr at the four sizes of issue 21, in
// target tokens (<eos> included) per second, float32, one thread, batch 32: the WebAssembly
// engine in Node and the native build (build/native/seq2seq_native), each `repeats` times on the
// same minibatches after warm-up steps. Prints best, median and worst, since the machine may be
// shared. Needs dist/engine (scripts/build.sh package) and the native build; ENGINE (a folder
// holding an engine as dist/engine does) and NATIVE (a seq2seq_native) time other builds.
//   node bench/seq2seq_speed.js [steps] [repeats]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const ENGINE = process.env.ENGINE ?? here('../dist/engine');
const { loadAttention } = await import(`${ENGINE}/index.node.js`);
const STEPS = Number(process.argv[2] ?? 20);
const REPEATS = Number(process.argv[3] ?? 3);
const WARMUP = 5;
const BATCH = 32;
const SIZES = [
  [16, 32],
  [32, 64],
  [64, 128],
  [128, 256],
];
const NATIVE = process.env.NATIVE ?? here('../build/native/seq2seq_native');

const attn = await loadAttention({ wasmBinary: readFileSync(`${ENGINE}/wasm/attention-engine.wasm`) });

// The target tokens of minibatches [from, from + count) as Seq2seqSession::train draws them with
// seed 0 (bench/seq2seq.js rebuilds them the same way and checks them against train()).
function targetTokens(from, count) {
  const examples = attn.seq2seqTasks().find((task) => task.id === 'en-fr').examples;
  const tokenizer = attn.createSeq2seq({ task: 'en-fr', seed: 0 });
  const random = attn.randomState(0);
  const n = examples.length;
  let order = [];
  let next = n;
  let tokens = 0;
  for (let b = 0; b < from + count; b++) {
    if (next + BATCH > n) {
      order = [...Array(n).keys()];
      for (let i = n - 1; i >= 1; i--) {
        const j = random.randint(i + 1, 1, 1).data[0];
        [order[i], order[j]] = [order[j], order[i]];
      }
      next = 0;
    }
    if (b >= from)
      for (const k of order.slice(next, next + BATCH)) tokens += tokenizer.tokenize(examples[k][1], 'target').length;
    next += BATCH;
  }
  tokenizer.dispose();
  return tokens;
}

const tokens = targetTokens(WARMUP, STEPS);
const summary = (rates) => {
  const sorted = [...rates].sort((a, b) => b - a);
  const k = (x) => `${(x / 1000).toFixed(1)}k`;
  return `best ${k(sorted[0])} median ${k(sorted[sorted.length >> 1])} worst ${k(sorted.at(-1))}`;
};
console.log(`${STEPS} steps after ${WARMUP} warm-up, ${tokens} target tokens, ${REPEATS} repeats`);
for (const [embedding, hidden] of SIZES) {
  const wasm = [];
  const native = [];
  for (let r = 0; r < REPEATS; r++) {
    const model = attn.createSeq2seq({ task: 'en-fr', scoring: 'additive', seed: 0, embedding, hidden });
    model.train({ steps: WARMUP, batch: BATCH });
    const start = performance.now();
    model.train({ steps: STEPS, batch: BATCH });
    wasm.push((tokens / (performance.now() - start)) * 1000);
    model.dispose();
    if (existsSync(NATIVE)) {
      const args = ['en-fr', 'additive', embedding, hidden, BATCH, WARMUP, STEPS].map(String);
      const { ms } = JSON.parse(execFileSync(NATIVE, args, { encoding: 'utf8' }));
      native.push((tokens / ms) * 1000);
    }
  }
  console.log(`${embedding}/${hidden}  wasm ${summary(wasm)}${native.length ? `  native ${summary(native)}` : ''}`);
}
