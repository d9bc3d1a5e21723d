// One training run of a seq2seq model from scratch, in chunks of steps, reporting as it goes: the
// loop the Web Worker (seq2seq-worker.js) runs for browsers, and Node runs in-process. Every
// `evaluateEvery` steps it measures the test split (greedy exact match) and translates a fixed
// sentence, whose alignment shows the attention being learned; it stops at `steps` or once the
// exact match reaches `target`, and hands over the model's bytes (safetensors).
export const TRAINING_DEFAULTS = Object.freeze({ steps: 3000, chunk: 25, evaluateEvery: 100, target: 0.98 });

/**
 * attn: a loaded engine. options: createSeq2seq's (task, scoring, seed, embedding, hidden) and
 * learningRate, batch, sentence (to align; required), steps, chunk, evaluateEvery, target.
 * report(message): { type: 'progress', step, loss, exactMatch?, alignment? } after every chunk,
 * then { type: 'done', step, bytes }. proceed(): awaited before every chunk; it resolves to false
 * to stop (the run then reports done with what it has).
 */
export async function runTraining(attn, options, report, proceed) {
  const { task, scoring, seed, embedding, hidden, learningRate, batch, sentence } = options;
  const { steps, chunk, evaluateEvery, target } = { ...TRAINING_DEFAULTS, ...options };
  const model = attn.createSeq2seq({ task, scoring, seed, embedding, hidden });
  try {
    const measure = () => {
      const { exactMatch, alignmentAccuracy } = model.evaluate({ split: 'test' });
      const { source, target: words, alignment } = model.translate(sentence);
      return { exactMatch, alignmentAccuracy, alignment: { ...alignment, source, target: [...words, '<eos>'] } };
    };
    report({ type: 'progress', step: 0, loss: null, ...measure() });
    let step = 0;
    while (step < steps && (await proceed())) {
      const result = model.train({ steps: Math.min(chunk, steps - step), batch, learningRate });
      step = result.step;
      const measured = step % evaluateEvery === 0 || step === steps ? measure() : {};
      report({ type: 'progress', step, loss: result.loss, ...measured });
      if (measured.exactMatch >= target) break;
    }
    report({ type: 'done', step, bytes: model.save() });
  } finally {
    model.dispose();
  }
}

/**
 * Pause, resume and stop for a run: proceed() (runTraining's) yields to the event loop between
 * chunks, so that those calls arrive, then waits while paused; it resolves to false once stopped.
 */
export function runControls(yieldOnce) {
  let paused = false;
  let stopped = false;
  let wake = () => {};
  return {
    async proceed() {
      await yieldOnce();
      while (paused && !stopped) await new Promise((resolve) => (wake = resolve));
      return !stopped;
    },
    pause: () => (paused = true),
    resume: () => ((paused = false), wake()),
    stop: () => ((stopped = true), wake()),
  };
}

/**
 * A training run as trainSeq2seq returns it. Events: 'progress' (detail: runTraining's progress
 * report), 'done' (detail: { step, bytes }), 'error' (detail: { message, argument }), 'state'.
 * `state`: 'running', 'paused', 'done' or 'failed'; `finished`: a promise of the done detail.
 */
export class Seq2seqTrainer extends EventTarget {
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
