// The translation models of the seq2seq and scoring walkthroughs, shared by the page and the
// element: where the model on screen comes from (shipped, trained here, untrained), training from
// scratch in a Web Worker with its progress, loss and exact-match curve and the alignment of the
// sentence on screen redrawn as it learns, pause/resume/stop, and the model as a .safetensors file
// to download or load again. The scoring walkthrough compares a model per scoring function: on
// screen, the panel trains the missing ones by itself, one after the other.
import { trainSeq2seq, TRAINING_DEFAULTS } from 'attention-stepper';

import { el, setText } from './dom.js';
import { downloadFile } from './export.js';
import { renderHeatmap } from './heatmap.js';
import { heatmapText } from './stage-view.js';

const RATES = [0.002, 0.005, 0.01, 0.02];
// Model sizes, "embedding/hidden": createSeq2seq's default (the shipped models') in the middle.
const SIZES = ['16/32', '32/64', '64/128'];
const CURVE = { width: 260, height: 72 };

/**
 * The panel for `controller`: { element, update() }. update() follows the walkthrough on screen
 * (the panel hides outside seq2seq and scoring) and the language; training updates the panel by
 * itself, and a finished run hands its model to controller.models, which redraws the stages.
 */
export function createModelPanel(controller) {
  const element = el('section', 'model-panel');
  const heading = el('h2', 'sidebar-heading');
  heading.id = `model-heading-${++panels}`;
  element.setAttribute('aria-labelledby', heading.id);
  const status = el('p', 'model-status');
  status.setAttribute('role', 'status');

  const seed = numberField(0, 0, 2 ** 32 - 1, 1);
  const rate = el('select');
  for (const value of RATES) rate.append(new Option(String(value), String(value)));
  rate.value = '0.005';
  const size = el('select');
  for (const value of SIZES) size.append(new Option(value, value));
  size.value = '32/64';
  const train = button('model-train', () => start());
  // the other scoring functions' models, one after the other: the walkthrough then compares all four
  const others = button('model-train-others', () => trainOthers());
  const pause = button('model-pause', () => (trainer.state === 'paused' ? trainer.resume() : trainer.pause()));
  const stop = button('model-stop', () => ((queue = []), trainer.stop()));
  const download = button('model-download', save);
  const load = el('input');
  load.type = 'file';
  load.accept = '.safetensors';
  load.className = 'model-load';
  load.addEventListener('change', () => open(load.files[0]));
  const labels = {
    seed: el('label', 'field'),
    rate: el('label', 'field'),
    size: el('label', 'field'),
    load: el('label', 'field model-load-field'),
  };
  labels.seed.append(el('span'), seed);
  labels.rate.append(el('span'), rate);
  labels.size.append(el('span'), size);
  labels.load.append(el('span'), load);

  const progress = el('progress', 'model-progress');
  progress.max = 1;
  const numbers = el('p', 'model-numbers');
  numbers.setAttribute('aria-live', 'polite');
  const curve = el('div', 'model-curve');
  const alignment = el('div', 'model-alignment');
  const controls = el('div', 'model-controls');
  controls.append(labels.seed, labels.rate, labels.size, train, pause, stop, others);
  const files = el('div', 'model-files');
  files.append(download, labels.load);
  // the words the model reads: each appends itself to the sentence
  const vocabulary = el('details', 'model-vocabulary');
  const vocabularyTitle = el('summary');
  const words = el('div', 'model-words');
  vocabulary.append(vocabularyTitle, words);
  let wordsOf = null; // the task whose words are drawn
  element.append(heading, status, vocabulary, controls, progress, numbers, curve, alignment, files);

  let trainer = null;
  let training = null; // the run under way: { task, scoring, sentence }
  let queue = []; // the runs after it
  let history = []; // the run's progress reports
  let message = ''; // the last error, or ''
  const offered = new Set(); // the tasks whose missing models the scoring walkthrough has trained

  const inputs = () => controller.session().traceInputs;

  // the runs of the task on screen: they keep their task and sentence when the reader moves on
  function trainOthers() {
    const { task, sentence } = inputs();
    const [first, ...rest] = controller.models.untrained(task).map((scoring) => ({ task, scoring, sentence }));
    queue = rest;
    if (first) start(first);
  }

  function start(job = inputs()) {
    const { task, scoring, sentence } = job;
    trainer?.stop();
    training = job;
    history = [];
    message = '';
    const [embedding, hidden] = size.value.split('/').map(Number);
    trainer = trainSeq2seq({
      task,
      scoring,
      seed: Number(seed.value) || 0,
      embedding,
      hidden,
      learningRate: Number(rate.value),
      sentence: sentence.join(' '),
    });
    const run = trainer;
    run.addEventListener('progress', ({ detail }) => run === trainer && (history.push(detail), drawRun()));
    run.addEventListener('state', () => run === trainer && update());
    run.finished.then(
      ({ bytes }) => {
        if (run !== trainer) return;
        controller.models.adopt(controller.attn.loadSeq2seq(bytes), 'trained');
        if (queue.length) start(queue.shift());
      },
      (error) => run === trainer && ((queue = []), (message = error.message), update()),
    );
    update();
  }

  function save() {
    const { task, scoring } = inputs();
    const model = controller.models.model(task, scoring);
    downloadFile(`${task}-${scoring}.safetensors`, model.save(), 'application/octet-stream');
  }

  async function open(file) {
    if (!file) return;
    try {
      const model = controller.attn.loadSeq2seq(new Uint8Array(await file.arrayBuffer()));
      message = '';
      controller.models.adopt(model, 'trained');
      // a model of another task or scoring function: the walkthrough follows it
      const { task, scoring } = controller.session().inputs;
      if (model.config.task !== task) controller.edit('task', model.config.task);
      if (model.config.scoring !== scoring) controller.edit('scoring', model.config.scoring);
    } catch (error) {
      message = controller.t('model.loadFailed', { file: file.name, error: error.message });
      update();
    }
    load.value = '';
  }

  // The run's numbers, curve and alignment: redrawn on each report, without the rest of the page.
  function drawRun() {
    const { t } = controller;
    const last = history.at(-1);
    const measured = history.findLast((report) => report.exactMatch !== undefined);
    progress.hidden = numbers.hidden = curve.hidden = alignment.hidden = !last;
    if (!last) return;
    progress.value = measured ? Math.min(1, measured.exactMatch / TRAINING_DEFAULTS.target) : 0;
    progress.setAttribute('aria-label', t('model.progress'));
    setText(
      numbers,
      t('model.numbers', {
        step: last.step,
        loss: last.loss === null ? '–' : last.loss.toFixed(3),
        exact: measured ? `${Math.round(measured.exactMatch * 100)}%` : '–',
      }),
    );
    curve.replaceChildren(curveSvg(history, t));
    if (measured)
      renderHeatmap(
        alignment,
        {
          ...measured.alignment,
          name: t('model.alignment', { step: measured.step }),
          palette: 'weights',
          rowLabels: measured.alignment.target,
          colLabels: measured.alignment.source,
        },
        { palette: controller.options.palette, width: CURVE.width + 40, annotate: false, text: heatmapText(t) },
      );
  }

  function update() {
    const { t } = controller;
    element.hidden = !controller.spec.models;
    if (element.hidden) return;
    const comparing = controller.spec.models.compares; // a model per scoring function
    const { task, scoring } = inputs();
    const running = trainer?.state === 'running' || trainer?.state === 'paused';
    const missing = controller.models.untrained(task).length;
    // on screen, the comparison trains what it lacks, once per task (a stopped run stays stopped)
    if (comparing && !running && missing && !offered.has(task)) {
      offered.add(task);
      trainOthers();
      return;
    }
    const origin = comparing ? (missing ? 'untrained' : 'trained') : controller.models.origin(task, scoring);
    element.dataset.origin = origin;
    element.dataset.training = trainer?.state ?? 'none';
    const failed = !comparing && controller.models.error(task, scoring);
    setText(heading, comparing ? t('model.headingCompared') : t('model.heading'));
    setText(
      status,
      message ||
        (running
          ? trainer.state === 'paused'
            ? t('model.paused')
            : training.task === task && training.scoring === scoring
              ? t('model.training')
              : t('model.trainingScoring', { scoring: training.scoring })
          : failed
            ? t('model.shippedFailed', { error: failed })
            : comparing
              ? missing
                ? t('model.comparedMissing', { count: missing })
                : t('model.comparedReady')
              : t(`model.${origin}`)),
    );
    status.classList.toggle('as-error', Boolean(message));
    setText(labels.seed.firstChild, t('field.seed'));
    setText(labels.rate.firstChild, t('model.learningRate'));
    setText(labels.size.firstChild, t('model.size'));
    setText(labels.load.firstChild, t('model.load'));
    setText(train, running ? t('model.restart') : t('model.train'));
    setText(pause, trainer?.state === 'paused' ? t('model.resume') : t('model.pause'));
    setText(stop, t('model.stop'));
    setText(download, t('model.download'));
    const { vocab } = scoring ? controller.models.model(task, scoring) : controller.models.compared(task)[0];
    drawWords(task, vocab);
    pause.hidden = stop.hidden = !running;
    // one model's controls: the comparison has no model of its own to train, save or replace (the
    // seed and learning rate are the runs' that train the missing ones)
    train.hidden = files.hidden = comparing;
    setText(others, t('model.trainOthers', { count: missing }));
    others.hidden = running || missing === 0;
    drawRun();
  }

  function drawWords(task, { source, unit }) {
    const vocab = source.filter((word) => !word.startsWith('<'));
    setText(vocabularyTitle, controller.t('model.vocabulary', { count: vocab.length }));
    if (wordsOf === task) return;
    wordsOf = task;
    // words join with spaces; the characters of dates join as they are ("▁" is a space)
    const joined = (typed, word) =>
      unit === 'character' ? typed + (word === '▁' ? ' ' : word) : [typed.trimEnd(), word].filter(Boolean).join(' ');
    // the sentence of the walkthrough on screen when the chip is picked
    const typed = () => {
      const session = controller.session();
      return session.text(session.fields.find((candidate) => candidate.name === 'sentence'));
    };
    words.replaceChildren(
      ...vocab.map((word) => {
        const chip = button('model-word', () => controller.edit('sentence', joined(typed(), word)));
        chip.textContent = word === '▁' ? '␣' : word;
        return chip;
      }),
    );
  }

  update();
  return { element, update };
}

let panels = 0;

function button(className, onClick) {
  const element = el('button', className);
  element.type = 'button';
  element.addEventListener('click', onClick);
  return element;
}

function numberField(value, min, max, step) {
  const input = el('input');
  Object.assign(input, {
    type: 'number',
    value: String(value),
    min: String(min),
    max: String(max),
    step: String(step),
  });
  return input;
}

// The loss (falling) and the test exact match (rising) against the step, on one small chart.
function curveSvg(history, t) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const { width, height } = CURVE;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('model.curve'));
  const last = Math.max(1, history.at(-1).step);
  const losses = history.filter((report) => report.loss !== null);
  const top = Math.max(1e-9, ...losses.map((report) => report.loss));
  const line = (reports, value, className) => {
    const path = document.createElementNS(ns, 'polyline');
    path.setAttribute('class', className);
    path.setAttribute(
      'points',
      reports
        .map((report) => `${((report.step / last) * width).toFixed(1)},${(height - value(report) * height).toFixed(1)}`)
        .join(' '),
    );
    return path;
  };
  svg.append(
    line(losses, (report) => report.loss / top, 'model-loss'),
    line(
      history.filter((report) => report.exactMatch !== undefined),
      (report) => report.exactMatch,
      'model-exact',
    ),
  );
  return svg;
}
