// The trained models of the walkthrough on screen (its spec's `models`), shared by the page and
// the element, for any model kind: where the model on screen comes from (shipped, trained here,
// untrained), training from scratch in a Web Worker with the spec's choices, its progress, loss
// and exact-match curve and the probe (for translation, the alignment of the sentence on screen)
// redrawn as it learns, pause/resume/stop, and the model as a .safetensors file to download or
// load again. A walkthrough that compares models has the panel train the missing ones by itself,
// one after the other, while it is on screen.
// Its parts: the choices (model-choices.js), the runs (model-runs.js), the reader's own data
// (model-data.js, for models that learn it), the files (model-files.js), a checkpoint's files
// (model-checkpoint.js, for models loaded from them), the vocabulary (model-words.js) and the run view (model-run-view.js), each the
// owner of its own state; the panel holds the message they share and draws them all.
import { identityDefaults, modelFile } from 'attention-stepper';

import { button, el, setText } from './dom.js';
import { trainingChoices } from './model-choices.js';
import { modelCheckpoint } from './model-checkpoint.js';
import { modelData } from './model-data.js';
import { modelFiles } from './model-files.js';
import { modelRunView } from './model-run-view.js';
import { trainingRuns } from './model-runs.js';
import { vocabularyChips } from './model-words.js';

/**
 * The panel for `controller`: { element, runView, waiting(), update() }. `element` goes beside the
 * stage (the sidebar), `runView` where the reader looks (above the stage): what is training and
 * why, its progress, chart and probe. waiting(): the model on screen is not trained yet (it is
 * loading, or training now), so the stage must not be shown as the lesson. update() follows the
 * walkthrough on screen (the panel hides for walkthroughs without models) and the language;
 * training updates the panel by itself, and a finished run hands its model to controller.models,
 * which redraws the stages.
 * editable(): whether the reader may train, load and save models (an embed without `editable`
 * shows only where its models come from and the runs that train them). modelSource(): the URL of a
 * checkpoint's folder the page or the element was given (model-src), or null.
 */
export function createModelPanel(controller, { editable = () => true, modelSource = () => null } = {}) {
  const shown = shownModels(controller);
  let message = ''; // the last error (of a run or a file), or ''
  const choices = trainingChoices(controller);
  const runs = trainingRuns(controller, {
    options: choices.options,
    onStart: () => (message = ''),
    onProgress: () => runView.drawReports(),
    onState: () => update(),
    onFail: (error) => ((message = error.message), update()),
  });
  const files = modelFiles(controller, shown, {
    onOpen: () => (message = ''),
    onFail: (text) => ((message = text), update()),
  });
  // a checkpoint's files, for models loaded from them (the URL given to the page or the element
  // loads whether or not the reader may edit)
  const checkpoint = modelCheckpoint(controller, shown, {
    source: modelSource,
    editable,
    onOpen: () => (message = ''),
    onFail: (text) => ((message = text), update()),
  });
  const vocabulary = vocabularyChips(controller);
  const data = modelData(controller);
  const trainShown = () => runs.start(shown.job());
  // the models compared that are not trained yet, one after the other
  const trainOthers = () =>
    runs.startAll(controller.models.untrained(shown.kind(), shown.compared()).map((identity) => shown.job(identity)));
  const trainByItself = selfTraining(controller, shown, runs, { trainShown, trainOthers });
  const id = ++panels;
  // a run started from the sidebar, far down the page, shows where it runs: the run view, above
  // the stage (the sidebar's pause and stop stay where they were)
  const inView = (start) => () => {
    start();
    runView.element.scrollIntoView({ block: 'start' });
  };
  const parts = {
    vocabulary,
    choices,
    data,
    files,
    checkpoint,
    runs,
    trainShown: inView(trainShown),
    trainOthers: inView(trainOthers),
  };
  const { element, heading, status, controls, train, pause, stop, others } = sidebar(id, parts);
  // the model's own actions where the reader looks: train it from scratch, or go to its choices
  const runView = modelRunView(controller, shown, runs, {
    id,
    editable,
    onTrain: trainShown,
    onChoices: () => {
      element.scrollIntoView({ block: 'start' });
      (choices.element.querySelector('select, input') ?? train).focus({ preventScroll: true });
    },
  });

  function update() {
    const { t } = controller;
    const models = shown.models();
    element.hidden = runView.element.hidden = !models;
    if (element.hidden || trainByItself(models.compares)) return;
    const { compares } = models;
    const { running } = runs;
    const compared = shown.compared();
    const absent = controller.models.untrained(shown.kind(), compared);
    const origin = compares ? (absent.length ? 'untrained' : 'trained') : shown.origin();
    element.dataset.origin = origin;
    element.dataset.training = runs.state;
    element.toggleAttribute('data-held', runs.held);
    setText(heading, compares ? t('model.headingCompared') : t('model.heading'));
    setText(status, message || statusText(controller, shown, runs, { compares, absent, origin }));
    status.classList.toggle('as-error', Boolean(message));
    // a kind whose models are only loaded has no training (its spec's models.training)
    const { training } = models;
    if (training) choices.draw(training);
    files.draw();
    setText(train, running ? t('model.restart') : t('model.train'));
    setText(pause, runs.state === 'paused' ? t('model.resume') : t('model.pause'));
    setText(stop, t('model.stop'));
    // the words of the model on screen (of the comparison's first model)
    vocabulary.draw(
      editable() && training?.vocabulary,
      controller.models.model(shown.kind(), compares ? compared[0] : shown.inputs()),
    );
    pause.hidden = stop.hidden = !running;
    // one model's controls: the comparison has no model of its own to train, save or replace (the
    // choices are the runs' that train the missing ones)
    train.hidden = compares;
    // (a checkpoint of a kind only loaded is not one file: its files are loaded elsewhere)
    files.element.hidden = compares || !editable() || !shown.abilities().creates;
    checkpoint.element.hidden = !models.checkpoint;
    if (models.checkpoint) checkpoint.draw();
    // the reader's own pairs, for models that learn them
    data.element.hidden = compares || !editable() || !models.data;
    if (!data.element.hidden) data.draw();
    controls.hidden = !editable() || !training;
    setText(others, t('model.trainOthers', { count: absent.length }));
    others.hidden = running || absent.length === 0;
    runView.draw(compares);
    runView.drawReports();
  }

  update();
  return { element, runView: runView.element, waiting: shown.waiting, update };
}

let panels = 0;

// The panel's sidebar part: its heading, status, the vocabulary, the controls (the choices, train,
// pause, stop, train the others), the reader's data, the files and a checkpoint's files.
function sidebar(id, { vocabulary, choices, data, files, checkpoint, runs, trainShown, trainOthers }) {
  const element = el('section', 'model-panel');
  const heading = el('h2', 'sidebar-heading');
  heading.id = `model-heading-${id}`;
  element.setAttribute('aria-labelledby', heading.id);
  const status = el('p', 'model-status');
  status.setAttribute('role', 'status');
  const train = button('model-train', trainShown);
  const others = button('model-train-others', trainOthers);
  const pause = button('model-pause', () => runs.pauseOrResume());
  const stop = button('model-stop', () => runs.stop());
  const controls = el('div', 'model-controls');
  controls.append(choices.element, train, pause, stop, others);
  element.append(heading, status, vocabulary.element, controls, data.element, files.element, checkpoint.element);
  return { element, heading, status, controls, train, pause, stop, others };
}

// What trains without the reader asking, each once (a run the reader stopped stays stopped): the
// model on screen when no trained one of it ships, where the reader looks; the models a comparison
// on screen lacks. → trainByItself(compares): whether a run started.
function selfTraining(controller, shown, runs, { trainShown, trainOthers }) {
  const offered = new Set(); // the models on screen (their files) and comparisons (kinds, identities)
  return (compares) => {
    if (runs.running) return false;
    const untrainedShown = shown.fileOf(shown.inputs());
    if (!compares && shown.origin() === 'untrained' && !offered.has(untrainedShown)) {
      offered.add(untrainedShown);
      trainShown();
      return true;
    }
    const compared = shown.compared();
    const comparison = JSON.stringify([shown.kind(), compared]);
    if (!compares || !controller.models.untrained(shown.kind(), compared).length || offered.has(comparison))
      return false;
    offered.add(comparison);
    trainOthers();
    return true;
  };
}

// What the panel says of where the model on screen comes from, or of the run under way.
function statusText(controller, shown, runs, { compares, absent, origin }) {
  const { t } = controller;
  if (runs.running) {
    if (runs.state === 'paused') return t('model.paused');
    const ownRun = shown.fileOf(runs.job.identity) === shown.fileOf(shown.inputs());
    return !compares && ownRun
      ? t('model.training')
      : t('model.trainingOther', { model: shown.models().label(shown.named(runs.job.identity), t) });
  }
  const failed = !compares && controller.models.error(shown.kind(), shown.inputs());
  if (failed) return t('model.shippedFailed', { error: failed });
  if (compares) return absent.length ? t('model.comparedMissing', { count: absent.length }) : t('model.comparedReady');
  return shown.ownStatus(origin, t) ?? t(`model.${origin}`, { steps: shown.shippedSteps() });
}

// The models of the walkthrough on screen (its spec's `models` and the inputs of its trace), as the
// panel's parts ask about them.
function shownModels(controller) {
  const models = () => controller.spec.models;
  const inputs = () => controller.session().traceInputs;
  const kind = () => models().kind;
  const identityOf = (object) => controller.models.identity(kind(), object);
  // a model's identity as a reader names it, on screen and in its file's name: the fields that
  // are not the defaults (as the shipped models are listed)
  const named = (object) => {
    const whole = identityOf(object);
    const defaults = identityDefaults(controller.attn.modelFacts(kind()), whole);
    return Object.fromEntries(Object.entries(whole).filter(([name, value]) => value !== defaults[name]));
  };
  const origin = () => controller.models.origin(kind(), inputs());
  return {
    models,
    inputs,
    kind,
    identityOf,
    named,
    fileOf: (object) => modelFile({ kind: kind(), ...named(object) }),
    origin,
    // the identities the comparison on screen sets side by side
    compared: () => models().compared?.(inputs(), controller.attn) ?? [],
    // a run of the model of `identity` (the one on screen by default): the inputs its probe shows
    // and the spec's models it is for stay those on screen as the job is made
    job: (identity = inputs()) => ({ identity, inputs: inputs(), models: models() }),
    // the steps the shipped model on screen trained for (the engine's SHIPPED_MODELS)
    shippedSteps: () => controller.models.shipped(kind(), inputs())?.steps,
    // where the model on screen comes from, where the spec says it itself (a checkpoint trained
    // elsewhere: its `status`), else null
    ownStatus: (origin, t) => models().status?.(origin, t, controller.models.model(kind(), inputs())) ?? null,
    waiting: () => Boolean(models()) && !models().compares && ['untrained', 'loading', 'none'].includes(origin()),
    // what the kind's models can do besides load and run: { creates, trains, saves }
    abilities: () => controller.attn.modelFacts(kind()).abilities,
  };
}
