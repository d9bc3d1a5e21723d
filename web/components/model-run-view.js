// The model panel's run view (model-panel.js), above the stage, where the reader looks: what
// trains and why, the run's progress, numbers, loss and exact-match curve and probe (redrawn on
// each report, without the rest of the page), and the model's own actions; after a run, its last
// picture stays.
import { MODEL_KINDS, TRAINING_DEFAULTS } from 'attention-stepper';

import { button, el, setText } from './dom.js';
import { percent } from '../locales/format.js';
import { renderHeatmap } from './heatmap.js';
import { renderPicture } from './scene-image.js';
import { heatmapText } from './stage-view.js';
import { measureKeyOf, runMeasure, trainingChart } from './training-chart.js';

const PROBE_WIDTH = 300;

/**
 * The run view: { element, draw(compares), drawReports() }, of the models on screen `shown` and
 * the training `runs` (model-panel.js). `id` tells its heading apart; onTrain() trains the model on
 * screen from scratch, onChoices() goes to its choices.
 */
export function modelRunView(controller, shown, runs, { id, editable, onTrain, onChoices }) {
  const element = el('section', 'model-run');
  const heading = el('h2', 'model-run-heading');
  heading.id = `model-run-heading-${id}`;
  element.setAttribute('aria-labelledby', heading.id);
  const text = el('p', 'model-run-text');
  const progress = el('progress', 'model-progress');
  progress.max = 1;
  const goal = el('p', 'model-goal');
  const numbers = el('p', 'model-numbers');
  numbers.setAttribute('aria-live', 'polite');
  const curve = el('div', 'model-curve');
  const probe = el('div', 'model-alignment');
  const samples = el('ul', 'model-samples');
  const figures = el('div', 'model-figures');
  figures.append(curve, probe, samples);
  const train = button('model-run-train', onTrain);
  const choices = button('model-run-choices', onChoices);
  const actions = el('div', 'model-run-actions');
  actions.append(train, choices);
  element.append(heading, text, actions, progress, goal, numbers, figures);

  // what the run's target is of: its kind's goal, or on the reader's pairs their validation BLEU
  // (runMeasure)
  const goalOf = () => MODEL_KINDS[runs.job?.models.kind ?? shown.kind()].goal;
  const measureKey = () => measureKeyOf(goalOf(), controller.readerTasks.has(runs.job.identity.task));

  // What is training and why; a comparison's view is its runs, one model's is always there, with its actions.
  function draw(compares) {
    const { t } = controller;
    const { running, history } = runs;
    const origin = shown.origin();
    // a model's label; the one on screen's knows where it comes from (a checkpoint: the page's or the reader's)
    const label = (identity, from) => shown.models().label(shown.named(identity), t, from);
    element.hidden = compares && !running && !history.length;
    element.dataset.state = running ? runs.state : shown.waiting() ? 'waiting' : history.length ? 'done' : 'idle';
    setText(
      heading,
      running
        ? t('model.runTitle', { model: label(runs.job.identity) })
        : origin === 'loading'
          ? t('model.loading')
          : history.length
            ? t('model.runDone', { model: label(runs.job.identity) })
            : t('model.runIdle', {
                model: label(controller.models.model(shown.kind(), shown.inputs())?.config ?? shown.inputs(), origin),
              }),
    );
    setText(
      text,
      runs.state === 'paused'
        ? t('model.paused')
        : running
          ? compares
            ? t('model.runCompared', { left: runs.left })
            : shown.waiting()
              ? t('model.runWaiting', { measure: t(`model.measure.${measureKey()}.rises`) })
              : t('model.runReader')
          : !compares && (origin === 'none' || !shown.waiting()) && !history.length
            ? (shown.ownStatus(origin, t) ?? t(`model.idle.${origin}`, { steps: shown.shippedSteps() }))
            : '',
    );
    text.hidden = !text.textContent;
    // what the run waits for, and what happens if it does not come
    const { target, steps, patience, evaluateEvery } = TRAINING_DEFAULTS;
    setText(
      goal,
      running ? t(`model.goal.${measureKey()}`, { target: percent(target), steps, patience, evaluateEvery }) : '',
    );
    goal.hidden = !running;
    // a kind whose models are only loaded has nothing to train
    actions.hidden = compares || running || shown.waiting() || !editable() || !shown.abilities().trains;
    setText(train, t('model.train'));
    setText(choices, t('model.choices'));
  }

  // the words of the run's data (spec.models.data.texts), on the reader's text
  const textsOf = () => (runs.job?.models ?? shown.models())?.data?.texts;
  const drawReports = () =>
    drawRun(
      { progress, numbers, figures, curve, probe, samples },
      runs.history,
      runs.ended,
      controller,
      goalOf(),
      textsOf(),
    );
  return { element, draw, drawReports };
}

// The run's numbers, curve and probe, from its progress reports; once it `ended`, why it ended in
// place of the time left.
function drawRun({ progress, numbers, figures, curve, probe, samples }, history, ended, { t, options }, goal, texts) {
  const last = history.at(-1);
  const measured = history.findLast((report) => report.evaluation !== undefined);
  progress.hidden = numbers.hidden = figures.hidden = !last;
  if (!last) return;
  const measure = runMeasure(history, goal);
  const value = measured && measure.of(measured);
  // towards the target of the kind's goal, or through the run's steps (a run on the reader's
  // pairs rarely reaches an exact match), which a run that ended sooner has done with
  progress.value = !measured
    ? 0
    : measure.toTarget
      ? Math.min(1, value / TRAINING_DEFAULTS.target)
      : ended
        ? 1
        : last.step / last.steps;
  progress.setAttribute('aria-label', t(`model.measure.${measure.key}.progress`));
  // on the reader's text: the epoch, lines a second and the time left to the run's steps
  const pace = ended
    ? ` · ${t(`model.ended.${ended.reason}`, { step: ended.step, steps: last.steps })}`
    : last.epoch === undefined || !last.seconds
      ? ''
      : ` · ${t(`${texts}.pace`, {
          epoch: last.epoch.toFixed(1),
          rate: Math.round(last.pairs / last.seconds),
          left: Math.ceil(((last.steps - last.step) * last.seconds) / last.step / 60),
        })}`;
  setText(
    numbers,
    t(`model.measure.${measure.key}.numbers`, {
      step: last.step,
      loss: last.loss === null ? '–' : last.loss.toFixed(3),
      value: measured ? measure.text(value) : '–',
    }) + pace,
  );
  curve.replaceChildren(trainingChart(history, t, goal));
  if (!measured) return;
  // a few held-out sentences as the model translates them, beside their references
  samples.replaceChildren(
    ...(measured.samples ?? []).map(({ source, output, reference }) => {
      const item = el('li');
      item.append(
        el('span', 'model-sample-source', source),
        el('span', 'model-sample-output', ` → ${output}`),
        el('span', 'model-sample-reference', ` (${t('model.reference')}: ${reference})`),
      );
      return item;
    }),
  );
  const name = t('model.alignment', { step: measured.step });
  const { image } = measured.probe;
  // a probe with its image (a scene's): each word's attention over it
  if (image)
    renderPicture(
      probe,
      { ...measured.probe, name, palette: 'overlay' },
      { image: { ...image, palette: 'image' }, width: PROBE_WIDTH, t },
    );
  else
    renderHeatmap(
      probe,
      { ...measured.probe, name, palette: 'weights' },
      { palette: options.palette, width: PROBE_WIDTH, annotate: false, text: heatmapText(t) },
    );
}
