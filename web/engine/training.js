// One training run of a model of any kind from scratch, in chunks of steps, reporting as it goes:
// the loop the Web Worker (training-worker.js) runs for browsers, and Node runs in-process. Every
// `evaluateEvery` steps it evaluates the validation split (the test split when the task holds none
// out) and shows the kind's probe (the attention the model is learning, over a sentence or a
// scene); it stops at `steps`, once the exact match (or the kind's `goal`) reaches `target`, or once the validation
// loss has not improved for `patience` evaluations (the test split never decides), and hands over
// the model's bytes (safetensors, loadModel).
import { checkNumber, describe, fail, integer, options } from './checks.js';
import { kindOf } from './kinds.js';
import { trainOptions } from './models.js';

const SAMPLES = 3; // held-out sentences each evaluation shows the model's output of, on the reader's text

export const TRAINING_DEFAULTS = Object.freeze({
  steps: 3000,
  chunk: 25,
  evaluateEvery: 100,
  target: 0.98,
  patience: 3,
});

/**
 * attn: a loaded engine. run: { kind, model (the kind's create options), task (the reader's task
 * as its bytes, a task's save(), or the options of the kind's reader task, createTranslationTask's
 * or createClassificationTask's: made into the model's task here, where a worker's engine has not
 * got it), train (model.train's options but steps: its rate, batch and loss weight), probe (the
 * input of the kind's probe, which each evaluation shows: { sentence } or { scene }), steps, chunk,
 * evaluateEvery, target, patience }. report(message): { type: 'progress', step, steps, loss, split,
 * evaluation?, probe?, and with a task: epoch, pairs (examples trained on) and seconds (of training
 * so far), samples? ([{ source, output, reference }] of held-out examples) } after every chunk (evaluation:
 * model.evaluate()'s of `split`), then
 * { type: 'done', step, bytes, reason, threads } (reason: 'steps', 'target', 'plateau' or 'stopped';
 * threads: the engine's, which the run trained on).
 * proceed(): awaited before every chunk; it resolves to false to stop (the run then reports done
 * with what it has).
 */
export async function runTraining(attn, run, report, proceed) {
  const o = options(run, 'options', [
    'kind',
    'model',
    'task',
    'train',
    'probe',
    'steps',
    'chunk',
    'evaluateEvery',
    'target',
    'patience',
  ]);
  const kind = kindOf(o.kind, 'options.kind');
  const { steps, chunk, evaluateEvery, target, patience } = { ...TRAINING_DEFAULTS, ...o };
  integer(steps, 'options.steps', 1, 2 ** 31);
  integer(chunk, 'options.chunk', 1, 2 ** 31);
  integer(evaluateEvery, 'options.evaluateEvery', 1, 2 ** 31);
  integer(patience, 'options.patience', 1, 2 ** 31);
  if (checkNumber(target, 'options.target') < 0 || target > 1)
    fail(`options.target must be from 0 to 1, got ${describe(target)}`, 'options.target');
  const facts = attn[kind.facts]();
  if (!facts.abilities.trains) fail(`options.kind: ${o.kind} models do not train`, 'options.kind');
  const given = options(o.train, 'options.train', trainOptions(facts));
  if (o.task !== undefined && !kind.reader)
    fail(`options.task: ${o.kind} models learn no reader's text`, 'options.task');
  const task = o.task === undefined ? undefined : readerTask(attn, kind.reader, o.task);
  // a minibatch of the reader's pairs is at most all of them
  const train = task ? { ...given, batch: Math.min(given.batch ?? facts.defaults.batch, task.stats.train) } : given;
  const model = attn[kind.create](task ? { ...o.model, task } : o.model);
  const split = task?.stats.validation ? 'validation' : 'test';
  let best = Infinity;
  let worse = 0; // evaluations since the loss last improved
  // on the reader's text: a few held-out examples as the model answers them, and the pace
  const held = task?.validation.length ? task.validation : (task?.test ?? []);
  const samples = () => held.slice(0, SAMPLES).map((row) => kind.reader.sample(model, row));
  const batch = train.batch ?? facts.defaults.batch;
  const pace = (step, seconds) =>
    task ? { epoch: (step * batch) / task.stats.train, pairs: step * batch, seconds } : {};
  try {
    const measure = () => ({
      evaluation: model.evaluate({ split }),
      probe: kind.probe(model, o.probe ?? {}),
      ...(task ? { samples: samples() } : {}),
    });
    // a bad probe fails here, before any step
    report({ type: 'progress', step: 0, steps, loss: null, split, ...pace(0, 0), ...measure() });
    let step = 0;
    let seconds = 0; // training's, evaluations left out
    let reason = 'steps';
    while (step < steps) {
      if (!(await proceed(() => report({ type: 'held', step })))) {
        reason = 'stopped';
        break;
      }
      const started = performance.now();
      const result = model.train({ ...train, steps: Math.min(chunk, steps - step) });
      seconds += (performance.now() - started) / 1000;
      step = result.step;
      const measured = step % evaluateEvery === 0 || step === steps ? measure() : {};
      report({ type: 'progress', step, steps, loss: result.loss, split, ...pace(step, seconds), ...measured });
      const { evaluation } = measured;
      if (evaluation?.[kind.goal] >= target) {
        reason = 'target';
        break;
      }
      if (split === 'validation' && evaluation?.loss !== undefined) {
        worse = evaluation.loss < best ? 0 : worse + 1;
        best = Math.min(best, evaluation.loss);
        if (worse >= patience) {
          reason = 'plateau';
          break;
        }
      }
    }
    report({ type: 'done', step, bytes: model.save(), reason, threads: attn.threads });
  } finally {
    model.dispose();
    task?.dispose();
  }
}

// The run's task: its bytes loaded, or its text read.
const readerTask = (attn, reader, task) =>
  task instanceof Uint8Array || task instanceof ArrayBuffer ? attn[reader.load](task) : attn[reader.create](task);

/**
 * What a run's `task` crosses to where the run trains as: a task object (createTranslationTask's,
 * createClassificationTask's) as its bytes, which the run loads without reading its text again;
 * bytes or reading options as they are.
 */
export const runOptions = (run) => (typeof run?.task?.save === 'function' ? { ...run, task: run.task.save() } : run);

/**
 * Pause, resume and stop for a run: proceed(onHold) (runTraining's) yields to the event loop
 * between chunks, so that those calls arrive, then waits while paused, calling onHold() as it
 * starts to wait; it resolves to false once stopped.
 */
export function runControls(yieldOnce) {
  let paused = false;
  let stopped = false;
  let wake = () => {};
  return {
    async proceed(onHold) {
      await yieldOnce();
      if (paused && !stopped) onHold();
      while (paused && !stopped) await new Promise((resolve) => (wake = resolve));
      return !stopped;
    },
    pause: () => (paused = true),
    resume: () => ((paused = false), wake()),
    stop: () => ((stopped = true), wake()),
  };
}

/**
 * A training run as trainModel returns it. Events: 'progress' (detail: runTraining's progress
 * report), 'held' (detail: { step }: paused, the run has finished its chunk under way and takes no
 * step until resumed), 'done' (detail: { step, bytes, reason, threads }), 'error' (detail:
 * { message, argument }), 'state'.
 * `state`: 'running', 'paused', 'done' or 'failed'; `finished`: a promise of the done detail.
 */
export class ModelTrainer extends EventTarget {
  #controls;
  #settle;

  constructor(controls) {
    super();
    this.#controls = controls;
    this.state = 'running';
    this.finished = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.finished.catch(() => {}); // a listener of 'error' is enough
  }

  pause() {
    if (this.state !== 'running') return;
    this.#controls.pause();
    this.#setState('paused');
  }

  resume() {
    if (this.state !== 'paused') return;
    this.#controls.resume();
    this.#setState('running');
  }

  /** Ends the run early: it reports done with the model as it is. */
  stop() {
    if (this.state === 'running' || this.state === 'paused') this.#controls.stop();
  }

  /** A report of the run (from the worker, or in-process). */
  receive(message) {
    const { type, ...detail } = message;
    if (type === 'done') this.#settle.resolve(detail);
    if (type === 'error') this.#settle.reject(Object.assign(new Error(detail.message), { argument: detail.argument }));
    if (type === 'done' || type === 'error') this.#setState(type === 'done' ? 'done' : 'failed');
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  #setState(state) {
    this.state = state;
    this.dispatchEvent(new CustomEvent('state', { detail: { state } }));
  }
}
