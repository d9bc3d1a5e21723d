// The trained models of the walkthrough on screen (its spec's `models`), shared by the page and
// the element, for any model kind: where the model on screen comes from (shipped, trained here,
// untrained), training from scratch in a Web Worker with the spec's choices, its progress, loss
// and exact-match curve and the probe (for translation, the alignment of the sentence on screen)
// redrawn as it learns, pause/resume/stop, and the model as a .safetensors file to download or
// load again. A walkthrough that compares models has the panel train the missing ones by itself,
// one after the other, while it is on screen.
import { MODEL_KINDS, modelFile, trainModel, TRAINING_DEFAULTS } from 'attention-stepper';

import { el, setText } from './dom.js';
import { downloadFile } from './export.js';
import { renderHeatmap } from './heatmap.js';
import { renderPicture } from './scene-image.js';
import { heatmapText } from './stage-view.js';
import { trainingChart } from './training-chart.js';

const PROBE_WIDTH = 300;

/**
 * The panel for `controller`: { element, runView, waiting(), update() }. `element` goes beside the
 * stage (the sidebar), `runView` where the reader looks (above the stage): what is training and
 * why, its progress, chart and probe. waiting(): the model on screen is not trained yet (it is
 * loading, or training now), so the stage must not be shown as the lesson. update() follows the
 * walkthrough on screen (the panel hides for walkthroughs without models) and the language;
 * training updates the panel by itself, and a finished run hands its model to controller.models,
 * which redraws the stages.
 * editable(): whether the reader may train, load and save models (an embed without `editable`
 * shows only where its models come from and the runs that train them).
 */
export function createModelPanel(controller, { editable = () => true } = {}) {
  const element = el('section', 'model-panel');
  const heading = el('h2', 'sidebar-heading');
  heading.id = `model-heading-${++panels}`;
  element.setAttribute('aria-labelledby', heading.id);
  const status = el('p', 'model-status');
  status.setAttribute('role', 'status');

  const train = button('model-train', () => start(shownJob()));
  // the models compared that are not trained yet, one after the other
  const others = button('model-train-others', () => trainOthers());
  const pause = button('model-pause', () => (trainer.state === 'paused' ? trainer.resume() : trainer.pause()));
  const stop = button('model-stop', () => ((queue = []), trainer.stop()));
  const download = button('model-download', save);
  const load = el('input');
  load.type = 'file';
  load.accept = '.safetensors';
  load.className = 'model-load';
  load.addEventListener('change', () => open(load.files[0]));
  const loadLabel = el('label', 'field model-load-field');
  loadLabel.append(el('span'), load);

  const runView = el('section', 'model-run');
  const runHeading = el('h2', 'model-run-heading');
  runHeading.id = `model-run-heading-${panels}`;
  runView.setAttribute('aria-labelledby', runHeading.id);
  const runText = el('p', 'model-run-text');
  const progress = el('progress', 'model-progress');
  progress.max = 1;
  const numbers = el('p', 'model-numbers');
  numbers.setAttribute('aria-live', 'polite');
  const curve = el('div', 'model-curve');
  const probe = el('div', 'model-alignment');
  const figures = el('div', 'model-figures');
  figures.append(curve, probe);
  // the model's own actions where the reader looks: train it from scratch, or go to its choices
  const runTrain = button('model-run-train', () => start(shownJob()));
  const runChoices = button('model-run-choices', () => {
    element.scrollIntoView({ block: 'start' });
    (choices.querySelector('select, input') ?? train).focus({ preventScroll: true });
  });
  const runActions = el('div', 'model-run-actions');
  runActions.append(runTrain, runChoices);
  runView.append(runHeading, runText, runActions, progress, numbers, figures);
  const choices = el('div', 'model-choices');
  const controls = el('div', 'model-controls');
  controls.append(choices, train, pause, stop, others);
  const files = el('div', 'model-files');
  files.append(download, loadLabel);
  // the words the model reads: each appends itself to the input the spec names
  const vocabulary = el('details', 'model-vocabulary');
  const vocabularyTitle = el('summary');
  const words = el('div', 'model-words');
  vocabulary.append(vocabularyTitle, words);
  let wordsOf = null; // the words drawn, joined
  element.append(heading, status, vocabulary, controls, files);

  let fields = []; // the spec's training choices: [{ field, label, control }]
  let fieldsOf = null; // the training spec they were made for
  let trainer = null;
  let job = null; // the run under way: { identity, inputs, models }
  let queue = []; // the runs after it
  let history = []; // the run's progress reports
  let message = ''; // the last error, or ''
  // the comparisons (kind and identities) whose missing models, and the untrained models on screen,
  // the panel trained by itself: once each (a run the reader stopped stays stopped)
  const offered = new Set();

  const models = () => controller.spec.models;
  const inputs = () => controller.session().traceInputs;
  const kind = () => models().kind;
  const identityOf = (object) => controller.models.identity(kind(), object);
  // a model's identity as a reader names it, on screen and in its file's name: the fields that
  // are not the defaults (as the shipped models are listed)
  const named = (object) => {
    const whole = identityOf(object);
    const defaults = MODEL_KINDS[kind()].defaults(controller.attn[MODEL_KINDS[kind()].facts](), whole);
    return Object.fromEntries(Object.entries(whole).filter(([name, value]) => value !== defaults[name]));
  };
  const fileOf = (object) => modelFile({ kind: kind(), ...named(object) });
  // a run: the model's identity, the inputs its probe shows, and the spec's models it is for (a
  // queued run may start after the reader has moved to another walkthrough)
  const shownJob = () => ({ identity: inputs(), inputs: inputs(), models: models() });
  const originOfShown = () => controller.models.origin(kind(), inputs());
  // the steps the shipped model on screen trained for (the engine's SHIPPED_MODELS)
  const shippedSteps = () => controller.models.shipped(kind(), inputs())?.steps;
  const waiting = () => Boolean(models()) && !models().compares && ['untrained', 'loading'].includes(originOfShown());

  // the runs of the comparison on screen: they keep their inputs when the reader moves on
  function trainOthers() {
    const compared = models().compared(inputs(), controller.attn);
    const [first, ...rest] = controller.models
      .untrained(kind(), compared)
      .map((identity) => ({ identity, inputs: inputs(), models: models() }));
    queue = rest;
    if (first) start(first);
  }

  function start(next) {
    trainer?.stop();
    job = next;
    history = [];
    message = '';
    // the run's options: each choice's, into the model's or into train()'s
    const chosen = (into) =>
      Object.assign(
        {},
        ...fields
          .filter(({ field }) => field.into === into)
          .map(({ field, control }) => field.options(valueOf(control))),
      );
    // the identity's fields go to the create function, but what train() gives (guided alignment)
    const { kind: runKind, training } = next.models;
    const { trained } = MODEL_KINDS[runKind];
    const identity = Object.entries(controller.models.identity(runKind, next.identity));
    const part = (ofTraining) => Object.fromEntries(identity.filter(([name]) => trained.includes(name) === ofTraining));
    trainer = trainModel({
      kind: runKind,
      model: { ...part(false), ...chosen('model') },
      train: { ...part(true), ...chosen('train') },
      probe: training.probe(next.inputs, controller.attn),
    });
    const run = trainer;
    run.addEventListener('progress', ({ detail }) => run === trainer && (history.push(detail), drawRun()));
    run.addEventListener('state', () => run === trainer && update());
    run.finished.then(
      ({ bytes }) => {
        if (run !== trainer) return;
        controller.models.adopt(controller.attn.loadModel(bytes), 'trained');
        if (queue.length) start(queue.shift());
      },
      (error) => run === trainer && ((queue = []), (message = error.message), update()),
    );
    update();
  }

  function save() {
    const model = controller.models.model(kind(), inputs());
    downloadFile(fileOf(model.config), model.save(), 'application/octet-stream');
  }

  async function open(file) {
    if (!file) return;
    try {
      const model = controller.attn.loadModel(new Uint8Array(await file.arrayBuffer()));
      if (model.kind !== kind()) {
        model.dispose();
        throw new Error(controller.t('model.otherKind', { kind: model.kind }));
      }
      message = '';
      controller.models.adopt(model, 'trained');
      // a model of another identity (task, scoring function, encoder…): the walkthrough follows it
      const given = controller.session().inputs;
      const own = identityOf(model.config);
      for (const [name, value] of Object.entries(own))
        if (name in given && identityOf(given)[name] !== value) controller.edit(name, String(value));
    } catch (error) {
      message = controller.t('model.loadFailed', { file: file.name, error: error.message });
      update();
    }
    load.value = '';
  }

  // The run's numbers, curve and probe: redrawn on each report, without the rest of the page.
  function drawRun() {
    const { t } = controller;
    const last = history.at(-1);
    const measured = history.findLast((report) => report.evaluation !== undefined);
    progress.hidden = numbers.hidden = figures.hidden = !last;
    if (!last) return;
    const exact = measured?.evaluation.exactMatch;
    progress.value = measured ? Math.min(1, exact / TRAINING_DEFAULTS.target) : 0;
    progress.setAttribute('aria-label', t('model.progress'));
    setText(
      numbers,
      t('model.numbers', {
        step: last.step,
        loss: last.loss === null ? '–' : last.loss.toFixed(3),
        exact: measured ? `${Math.round(exact * 100)}%` : '–',
      }),
    );
    curve.replaceChildren(trainingChart(history, t));
    if (!measured) return;
    const name = t('model.alignment', { step: measured.step });
    const { image } = measured.probe;
    // a probe with its image (a captioner's): each word's attention over it
    if (image)
      renderPicture(
        probe,
        { ...measured.probe, name, palette: 'overlay' },
        { image: { ...image, palette: 'image' }, width: PROBE_WIDTH, palette: controller.options.palette, t },
      );
    else
      renderHeatmap(
        probe,
        { ...measured.probe, name, palette: 'weights' },
        { palette: controller.options.palette, width: PROBE_WIDTH, annotate: false, text: heatmapText(t) },
      );
  }

  // The spec's training choices, made again for another spec's (a choice keeps its value while
  // the walkthroughs share them).
  function drawChoices(training) {
    if (fieldsOf !== training) {
      fieldsOf = training;
      fields = training.fields.map((field) => {
        const label = el('label', 'field');
        const control = field.number ? numberField(field.number) : selectField(field);
        label.append(el('span'), control);
        return { field, label, control };
      });
      choices.replaceChildren(...fields.map(({ label }) => label));
    }
    for (const { field, label, control } of fields) {
      setText(label.firstChild, controller.t(field.label));
      // choices worded by the locale where the spec says so (the others are numbers)
      if (field.choiceLabel)
        for (const option of control.options) setText(option, controller.t(field.choiceLabel(option.value)));
    }
  }

  function update() {
    const { t } = controller;
    element.hidden = runView.hidden = !models();
    if (element.hidden) return;
    const { compares } = models();
    const running = trainer?.state === 'running' || trainer?.state === 'paused';
    // no trained model of the one on screen ships: it trains now, where the reader looks
    const untrainedShown = fileOf(inputs());
    if (!compares && !running && originOfShown() === 'untrained' && !offered.has(untrainedShown)) {
      offered.add(untrainedShown);
      start(shownJob());
      return;
    }
    const compared = models().compared(inputs(), controller.attn);
    const absent = controller.models.untrained(kind(), compared);
    // on screen, the comparison trains what it lacks, once per comparison (a stopped run stays stopped)
    const comparison = JSON.stringify([kind(), compared]);
    if (compares && !running && absent.length && !offered.has(comparison)) {
      offered.add(comparison);
      trainOthers();
      return;
    }
    const shown = inputs();
    const origin = compares ? (absent.length ? 'untrained' : 'trained') : controller.models.origin(kind(), shown);
    element.dataset.origin = origin;
    element.dataset.training = trainer?.state ?? 'none';
    const failed = !compares && controller.models.error(kind(), shown);
    const runOfShown = job && fileOf(job.identity) === fileOf(shown);
    setText(heading, compares ? t('model.headingCompared') : t('model.heading'));
    setText(
      status,
      message ||
        (running
          ? trainer.state === 'paused'
            ? t('model.paused')
            : !compares && runOfShown
              ? t('model.training')
              : t('model.trainingOther', { model: models().label(named(job.identity), t) })
          : failed
            ? t('model.shippedFailed', { error: failed })
            : compares
              ? absent.length
                ? t('model.comparedMissing', { count: absent.length })
                : t('model.comparedReady')
              : t(`model.${origin}`, { steps: shippedSteps() })),
    );
    status.classList.toggle('as-error', Boolean(message));
    drawChoices(models().training);
    setText(loadLabel.firstChild, t('model.load'));
    setText(train, running ? t('model.restart') : t('model.train'));
    setText(pause, trainer?.state === 'paused' ? t('model.resume') : t('model.pause'));
    setText(stop, t('model.stop'));
    setText(download, t('model.download'));
    // the words of the model on screen (of the comparison's first model)
    drawWords(
      editable() && models().training.vocabulary,
      controller.models.model(kind(), compares ? compared[0] : shown),
    );
    pause.hidden = stop.hidden = !running;
    // one model's controls: the comparison has no model of its own to train, save or replace (the
    // choices are the runs' that train the missing ones)
    train.hidden = compares;
    files.hidden = compares || !editable();
    controls.hidden = !editable();
    setText(others, t('model.trainOthers', { count: absent.length }));
    others.hidden = running || absent.length === 0;
    drawRunView(running, compares);
    drawRun();
  }

  // What is training and why, above the stage; after a run, its last picture stays.
  function drawRunView(running, compares) {
    const { t } = controller;
    const label = (identity) => models().label(named(identity), t);
    const origin = originOfShown();
    // a comparison's view is its runs; one model's is always there, with its actions
    runView.hidden = compares && !running && !history.length;
    runView.dataset.state = running ? trainer.state : waiting() ? 'waiting' : history.length ? 'done' : 'idle';
    setText(
      runHeading,
      running
        ? t('model.runTitle', { model: label(job.identity) })
        : origin === 'loading'
          ? t('model.loading')
          : history.length
            ? t('model.runDone', { model: label(job.identity) })
            : t('model.runIdle', { model: label(inputs()) }),
    );
    setText(
      runText,
      trainer?.state === 'paused'
        ? t('model.paused')
        : running
          ? compares
            ? t('model.runCompared', { left: queue.length })
            : waiting()
              ? t('model.runWaiting')
              : t('model.runReader')
          : !compares && !waiting() && !history.length
            ? t(`model.idle.${origin}`, { steps: shippedSteps() })
            : '',
    );
    runText.hidden = !runText.textContent;
    runActions.hidden = compares || running || waiting() || !editable();
    setText(runTrain, t('model.train'));
    setText(runChoices, t('model.choices'));
  }

  function drawWords(spec, model) {
    vocabulary.hidden = !spec;
    if (!spec) return;
    const vocab = spec.words(model);
    setText(vocabularyTitle, controller.t('model.vocabulary', { count: vocab.length }));
    if (wordsOf === vocab.join(' ')) return;
    wordsOf = vocab.join(' ');
    // the input on screen when the chip is picked
    const typed = () => {
      const session = controller.session();
      return session.text(session.fields.find((candidate) => candidate.name === spec.field));
    };
    words.replaceChildren(
      ...vocab.map((word) => {
        const chip = button('model-word', () => controller.edit(spec.field, spec.append(model, typed(), word)));
        chip.textContent = spec.show(word);
        return chip;
      }),
    );
  }

  update();
  return { element, runView, waiting, update };
}

let panels = 0;

function button(className, onClick) {
  const element = el('button', className);
  element.type = 'button';
  element.addEventListener('click', onClick);
  return element;
}

function numberField({ value, min }) {
  const input = el('input');
  Object.assign(input, { type: 'number', value: String(value), min: String(min), step: '1' });
  return input;
}

function selectField({ choices, value }) {
  const select = el('select');
  for (const choice of choices) select.append(new Option(choice, choice));
  select.value = value;
  return select;
}

// A number field's value as a number (0 when empty or not a number), a select's as its text.
const valueOf = (control) => (control.type === 'number' ? Number(control.value) || 0 : control.value);
