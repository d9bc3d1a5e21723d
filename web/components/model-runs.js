// The model panel's training runs (model-panel.js): one at a time, off the page's thread
// (trainModel), the runs after it waiting in a queue; the reports of the run, which its view
// draws; a finished run's model goes to the controller's models, which redraws the stages.
import { fieldsThat, trainModel } from 'attention-stepper';

/**
 * The runs: { start(job), startAll(jobs), stop(), pauseOrResume(), state, held, running, job, history,
 * ended, left }. A job is { identity, inputs, models }: the model's identity, the inputs its probe shows,
 * and the spec's models it is for (a queued run may start after the reader has moved to another
 * walkthrough). `options(into)` gives the choices' options of a run ('model' or 'train');
 * onStart() runs as a run starts, onProgress() on each of its reports, onState() when its state
 * changes, onFail(error) when it fails (and the runs after it are dropped).
 */
export function trainingRuns(controller, { options, onStart, onProgress, onState, onFail }) {
  let trainer = null;
  let job = null; // the run under way (or the last one)
  let queue = []; // the runs after it
  let history = []; // the run's progress reports
  let ended = null; // how the run ended: { step, reason } (training.js's done report)
  let held = false; // paused, and its chunk under way finished: it takes no step

  function start(next) {
    trainer?.stop();
    job = next;
    history = [];
    ended = null;
    onStart();
    // the identity's fields go to the create function, but what train() gives (guided alignment)
    const { kind, training } = next.models;
    const trained = fieldsThat(controller.attn.modelFacts(kind), 'trained');
    const identity = Object.entries(controller.models.identity(kind, next.identity));
    const part = (ofTraining) => Object.fromEntries(identity.filter(([name]) => trained.includes(name) === ofTraining));
    // a task of the reader's text goes to where the run trains as its bytes, not read again there
    const task = controller.readerTasks.get(next.identity.task);
    trainer = trainModel({
      kind,
      model: { ...part(false), ...options('model') },
      ...(task ? { task } : {}),
      train: { ...part(true), ...options('train') },
      probe: training.probe(next.inputs, controller.attn),
    });
    const run = trainer;
    run.addEventListener('progress', ({ detail }) => run === trainer && (history.push(detail), onProgress()));
    run.addEventListener('state', () => run === trainer && ((held = false), onState()));
    run.addEventListener('held', () => run === trainer && ((held = true), onState()));
    run.addEventListener('done', ({ detail }) => run === trainer && ((ended = detail), onProgress()));
    run.finished.then(
      async ({ bytes }) => {
        if (run !== trainer) return;
        await controller.models.adopt(controller.attn.loadModel(bytes), { bytes });
        if (run === trainer && queue.length) start(queue.shift());
      },
      (error) => run === trainer && ((queue = []), onFail(error)),
    );
    onState();
  }

  return {
    start,
    /** `jobs`, one after the other. */
    startAll([first, ...rest]) {
      queue = rest;
      if (first) start(first);
    },
    stop() {
      queue = [];
      trainer.stop();
    },
    pauseOrResume: () => (trainer.state === 'paused' ? trainer.resume() : trainer.pause()),
    /** The run's state ('running', 'paused', 'done', 'failed'), or 'none' before the first. */
    get state() {
      return trainer?.state ?? 'none';
    },
    get running() {
      return this.state === 'running' || this.state === 'paused';
    },
    /** Paused, and the chunk under way when the pause came has finished. */
    get held() {
      return held && this.state === 'paused';
    },
    get job() {
      return job;
    },
    get history() {
      return history;
    },
    /** How the run ended ({ step, reason }: 'steps', 'target', 'plateau' or 'stopped'), or null while it runs. */
    get ended() {
      return ended;
    },
    /** How many runs wait after this one. */
    get left() {
      return queue.length;
    },
  };
}
