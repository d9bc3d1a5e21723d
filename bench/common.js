// What the model benchmarks share (seq2seq.js, transformer.js, captioner.js, classifier.js): the machine they ran
// on, the minibatches the engine's trainer draws, a model trained until a goal or a time budget,
// PyTorch run as a child process, and readable tables.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export const PYTHON = '/usr/bin/python3'; // Debian's, which sees python3-torch (docs: TOOLCHAIN)

const machine = () => ({
  cpu: os.cpus()[0].model,
  cores: os.cpus().length,
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  date: new Date().toISOString(),
});

// The minibatches a model of `seed` trains on, as example indices, drawn as the trainer draws
// them (cpp/src/training/trainer.cpp): the n training examples in a Fisher–Yates order from
// numpy's RandomState(seed), consecutive batches, a new order when fewer than a batch remain.
// Each benchmark checks them against train() (the first step's loss).
export function minibatches(attn, seed, n, batch, count) {
  const random = attn.randomState(seed);
  const batches = [];
  let order = [];
  let next = n;
  while (batches.length < count) {
    if (next + batch > n) {
      order = [...Array(n).keys()];
      for (let i = n - 1; i >= 1; i--) {
        const j = random.randint(i + 1, 1, 1).data[0];
        [order[i], order[j]] = [order[j], order[i]];
      }
      next = 0;
    }
    batches.push(order.slice(next, next + batch));
    next += batch;
  }
  return batches;
}

// Trains `model` in chunks of `chunk` steps (train's other options from `options`), evaluating the
// test split after each (not counted; `seen(evaluation, step)` sees each), until `done(evaluation)`,
// `budgetMs` of training or `maxSteps` steps. The budget is this process's CPU time (user and
// system), which other processes on a shared machine inflate far less than the wall clock (the
// WebAssembly trains on one thread); both are reported.
export function trainUntil(model, { chunk, budgetMs, done, options = {}, maxSteps = Infinity, seen = () => {} }) {
  let ms = 0;
  let wallMs = 0;
  let step;
  let evaluation;
  do {
    const [start, cpu] = [performance.now(), process.cpuUsage()];
    ({ step } = model.train({ steps: chunk, ...options }));
    const { user, system } = process.cpuUsage(cpu);
    ms += (user + system) / 1000;
    wallMs += performance.now() - start;
    evaluation = model.evaluate({ split: 'test' });
    seen(evaluation, step);
  } while (!done(evaluation) && ms < budgetMs && step < maxSteps);
  return {
    steps: step,
    seconds: ms / 1000,
    wallSeconds: wallMs / 1000,
    evaluation,
    reached: done(evaluation) && ms <= budgetMs,
  };
}

// PyTorch as its users run it: on one OpenBLAS thread, with OpenBLAS choosing its own kernels.
// These machines set OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE in every process, which on an
// AVX-512 CPU hold OpenBLAS to its Haswell kernels (about half the speed of a user's PyTorch on a
// large product): PyTorch's process runs without them (that process only), and says the core
// OpenBLAS chose (OPENBLAS_VERBOSE=2), which every results file then records (report).
const { OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE, ...userEnvironment } = process.env;
const pytorchEnvironment = { ...userEnvironment, OPENBLAS_NUM_THREADS: '1', OPENBLAS_VERBOSE: '2' };
let pytorchRan = null; // { openblasCore, environment } of the last PyTorch process

// A Python script's JSON answer to a JSON job on stdin; null when python3-torch is missing.
export function runPytorch(script, job) {
  try {
    execFileSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const run = spawnSync(PYTHON, [script, ...(job.args ?? [])], {
    input: JSON.stringify(job),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: pytorchEnvironment,
  });
  if (run.status !== 0) throw new Error(`${script} failed (${run.status}):\n${run.stderr}`);
  pytorchRan = {
    openblasCore: run.stderr.match(/^Core: (\S+)/m)?.[1] ?? null,
    environment: 'OPENBLAS_NUM_THREADS=1; OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed',
  };
  return JSON.parse(run.stdout);
}

// Debian's reference BLAS (in its folder blas/) makes PyTorch several times slower than the
// OpenBLAS that python3-torch's libtorch recommends (apt installs it unless told not to).
export function warnReferenceBlas(blas) {
  if (blas?.every((file) => file.includes('/blas/')))
    console.log('warning: PyTorch ran on the reference BLAS, not an optimised one: apt-get install libopenblas0');
}

export const percent = (x) => `${(x * 100).toFixed(1)}%`;

// Columns aligned: the first two to the left, the others to the right.
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

// What a model bench reports: the machine and the settings, then its sections, printed by `print`
// and written to bench/results/<name>.json, unless it is a smoke run (`quick`), with where and
// when each section ran (`ran`: its machine, and how PyTorch ran, if it did). A partial run (one
// section measured again, the others null) replaces that section and its `ran` in the file and
// keeps the rest.
export function report(name, sections, { quick, partial = false }, print) {
  const here = { machine: machine(), ...(pytorchRan && { pytorch: pytorchRan }) };
  const measuredSections = Object.keys(sections).filter((key) => sections[key] !== null);
  const all = {
    ...here,
    quick,
    precision: 'float32',
    threads: 1,
    ran: Object.fromEntries(measuredSections.map((key) => [key, here])),
    ...sections,
  };
  print(all);
  if (quick) return;
  const file = new URL(`results/${name}.json`, import.meta.url);
  const measured = Object.fromEntries(Object.entries(all).filter(([, value]) => value !== null));
  const old = partial ? JSON.parse(readFileSync(file, 'utf8')) : null;
  // (the file's own machine and PyTorch stay those of the sections not measured again)
  const written = old
    ? { ...old, ...measured, machine: old.machine, pytorch: old.pytorch, ran: { ...old.ran, ...all.ran } }
    : all;
  writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
  console.log(`wrote bench/results/${name}.json${partial ? ' (the sections measured again)' : ''}`);
}
