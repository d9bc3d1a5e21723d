// `npm run bench`, after classifier.js: a pretrained checkpoint of GPT-2 small's size (issue 44),
// 124M parameters with random weights in Hugging Face's layout, written by bench/pretrained_torch.py
// into the system's temporary folder (not committed), and exported by it to ONNX (the forward
// with every attention, and the decoding step with past key/values). Side by side in one run:
// - ours: loadPretrained from the file's bytes (MB/s, and the heap's peak over the parameters'
//   bytes), a forward pass over 128 tokens returning all 144 attentions, and greedy generation
//   with the key/value cache (ms per token after a 16-token prompt), on 1 and 2 threads;
// - onnxruntime-web in Node, its WebAssembly backend with SIMD, graphOptimizationLevel 'all', the
//   same thread counts: the session made from the .onnx bytes, the same forward, the decoding
//   graph fed its own presents;
// - PyTorch 1.13 on one thread with OpenBLAS choosing its own kernels (bench/common.js), the
//   native reference.
// The logits of the three are checked against each other on the same ids, so they compute the
// same model. Writes bench/results/pretrained.json (not with --quick: a tiny model, a smoke run).
//   node bench/pretrained.js [--quick]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadAttention } from '../dist/engine/index.node.js';
import { PYTHON, report, runPytorch, table } from './common.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const quick = process.argv.includes('--quick');
const SIZE = quick
  ? { layers: 2, hidden: 64, heads: 4, vocab: 500, positions: 256 }
  : { layers: 12, hidden: 768, heads: 12, vocab: 50257, positions: 1024 };
const TOKENS = 128; // the forward's
const PROMPT = 16; // generation's, then GENERATED tokens
const GENERATED = quick ? 8 : 32;
const REPEATS = quick ? 2 : 5; // forward passes timed, after one untimed
const THREADS = [1, 2];
const SCRIPT = here('pretrained_torch.py');

const folder = join(os.tmpdir(), `attention-stepper-gpt2-${quick ? 'tiny' : 'small'}`);
const onnxFolder = `${folder}-onnx`;
const sizeArgs = Object.entries(SIZE).flatMap(([key, value]) => [`--${key}`, String(value)]);
const python = (args) => execFileSync(PYTHON, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
if (!existsSync(join(folder, 'model.safetensors'))) python(['write', '--out', folder, ...sizeArgs]);
if (!existsSync(join(onnxFolder, 'gpt2_decode.onnx')))
  python(['export', '--checkpoint', folder, '--out', onnxFolder, '--tokens', String(TOKENS)]);

const config = readFileSync(join(folder, 'config.json'), 'utf8');
const weights = readFileSync(join(folder, 'model.safetensors'));
// the same ids for every engine: a seeded walk over the vocabulary
const ids = Int32Array.from({ length: TOKENS }, (_, i) => (i * 7919 + 13) % SIZE.vocab);
const prompt = ids.subarray(0, PROMPT);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const maxDifference = (a, b) => a.reduce((most, x, i) => Math.max(most, Math.abs(x - b[i])), 0);
const MB = 2 ** 20;

async function ours(threads) {
  const attn = await loadAttention({
    threads,
    models: true,
    ...(threads === 1 && { wasmBinary: readFileSync(here('../dist/engine/wasm/attention-engine.wasm')) }),
  });
  const { parameters, bytes: parameterBytes } = attn.pretrainedEstimate(config);
  const heapBefore = attn.memory().heapBytes;
  let start = performance.now();
  const model = await attn.loadPretrained({
    config,
    weights: new Uint8Array(weights.buffer, weights.byteOffset, weights.length),
  });
  const loadMs = performance.now() - start;
  const peak = attn.memory().heapBytes;
  model.run(ids, { logits: 'last' }); // untimed: the first pass grows the heap
  const forward = [];
  let logits;
  for (let i = 0; i < REPEATS; i++) {
    start = performance.now();
    const out = model.run(ids, { attentions: true, logits: 'last' });
    forward.push(performance.now() - start);
    logits = out.logits.data;
    if (out.attentions.length * out.attentions[0].length !== SIZE.layers * SIZE.heads) throw new Error('attentions');
  }
  const stamps = [];
  const generated = await model.generate(prompt, {
    maxTokens: GENERATED,
    stopAtEnd: false,
    onStep: () => stamps.push(performance.now()),
  });
  const steps = stamps.slice(1).map((stamp, i) => stamp - stamps[i]); // after the prompt's
  model.dispose();
  return {
    threads: attn.threads,
    parameters,
    loadMBps: weights.length / MB / (loadMs / 1000),
    peakOverParameters: (peak - heapBefore) / parameterBytes,
    forwardMs: median(forward),
    generateMsPerToken: median(steps),
    logits: Array.from(logits.slice(0, 5)),
    generated: Array.from(generated.ids),
  };
}

async function onnxruntime(threads) {
  const require = (await import('node:module')).createRequire(import.meta.url);
  const ort = require('onnxruntime-web');
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.simd = true;
  const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  const tensorOf = (list) => new ort.Tensor('int64', BigInt64Array.from(Array.from(list, BigInt)), [1, list.length]);
  const bytes = readFileSync(join(onnxFolder, 'gpt2_forward.onnx'));
  let start = performance.now();
  const forwardSession = await ort.InferenceSession.create(bytes, options);
  const loadMs = performance.now() - start;
  await forwardSession.run({ input_ids: tensorOf(ids) });
  const forward = [];
  let logits;
  for (let i = 0; i < REPEATS; i++) {
    start = performance.now();
    const out = await forwardSession.run({ input_ids: tensorOf(ids) });
    forward.push(performance.now() - start);
    logits = out.logits.data.subarray((TOKENS - 1) * SIZE.vocab, (TOKENS - 1) * SIZE.vocab + 5);
  }
  await forwardSession.release();
  const decode = await ort.InferenceSession.create(readFileSync(join(onnxFolder, 'gpt2_decode.onnx')), options);
  const headDim = SIZE.hidden / SIZE.heads;
  let feeds = { input_ids: tensorOf(prompt) };
  for (let l = 0; l < SIZE.layers; l++)
    for (const part of ['key', 'value'])
      feeds[`past_key_values.${l}.${part}`] = new ort.Tensor('float32', new Float32Array(0), [
        1,
        SIZE.heads,
        0,
        headDim,
      ]);
  const steps = [];
  const generated = [];
  for (let t = 0; t < GENERATED; t++) {
    start = performance.now();
    const out = await decode.run(feeds);
    const last = out.logits.data.subarray(out.logits.data.length - SIZE.vocab);
    const next = last.reduce((best, x, i) => (x > last[best] ? i : best), 0);
    if (t > 0) steps.push(performance.now() - start);
    generated.push(next);
    feeds = { input_ids: tensorOf([next]) };
    for (let l = 0; l < SIZE.layers; l++)
      for (const part of ['key', 'value']) feeds[`past_key_values.${l}.${part}`] = out[`present.${l}.${part}`];
  }
  await decode.release();
  return {
    threads,
    loadMBps: bytes.length / MB / (loadMs / 1000),
    forwardMs: median(forward),
    generateMsPerToken: median(steps),
    logits: Array.from(logits),
    generated,
  };
}

const runs = [];
for (const threads of THREADS) {
  runs.push({ engine: 'ours', ...(await ours(threads)) });
  runs.push({ engine: 'onnxruntime-web', ...(await onnxruntime(threads)) });
}
const torch = runPytorch(SCRIPT, {
  args: ['time', '--checkpoint', folder, '--tokens', String(TOKENS), '--generate', String(GENERATED), '--threads', '1'],
});
const check = JSON.parse(python(['check', '--checkpoint', folder, '--ids', Array.from(ids).join(',')]).toString());
// every engine's logits of the last token against PyTorch's (float32 all three)
const agreement = Object.fromEntries(
  runs.map((run) => [
    `${run.engine}, ${run.threads} thread${run.threads > 1 ? 's' : ''}`,
    maxDifference(run.logits, check.logits),
  ]),
);
const byThreads = (threads) => {
  const [a, b] = ['ours', 'onnxruntime-web'].map((engine) =>
    runs.find((r) => r.engine === engine && r.threads === threads),
  );
  return {
    threads,
    forward: b.forwardMs / a.forwardMs,
    generate: b.generateMsPerToken / a.generateMsPerToken,
    load: a.loadMBps / b.loadMBps,
  };
};

report(
  'pretrained',
  {
    model: { ...SIZE, parameters: runs[0].parameters, tokens: TOKENS, prompt: PROMPT, generated: GENERATED },
    runs: runs.map(({ logits, generated, parameters, ...run }) => run),
    torch,
    agreement,
    // greedy decoding's tokens, the same in every run
    sameTokens: runs.every((run) => run.generated.join() === runs[0].generated.join()),
    speedups: THREADS.map(byThreads),
  },
  { quick },
  (all) => {
    console.log(`GPT-2 ${quick ? 'tiny' : 'small'} (${all.model.parameters} parameters), ${os.cpus()[0].model}`);
    console.log(
      table(
        ['engine', 'threads', 'load MB/s', 'peak/params', `forward ${TOKENS} ms`, 'ms/token'],
        [
          ...all.runs.map((run) => [
            run.engine,
            String(run.threads),
            run.loadMBps.toFixed(0),
            run.peakOverParameters ? run.peakOverParameters.toFixed(2) : '–',
            run.forwardMs.toFixed(1),
            run.generateMsPerToken.toFixed(2),
          ]),
          ...(torch
            ? [
                [
                  'PyTorch',
                  '1',
                  torch.loadMBps.toFixed(0),
                  '–',
                  torch.forwardMs.toFixed(1),
                  torch.generateMsPerToken.toFixed(2),
                ],
              ]
            : []),
        ],
      ),
    );
    for (const s of all.speedups)
      console.log(
        `${s.threads} thread(s): ours over onnxruntime-web, forward ×${s.forward.toFixed(2)}, generation ×${s.generate.toFixed(2)}`,
      );
    console.log('logits against PyTorch, max |difference|:', JSON.stringify(all.agreement));
    console.log(`greedy tokens the same in every run: ${all.sameTokens}`);
  },
);
