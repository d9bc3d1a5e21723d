// The chart of a training run: the minibatch loss (left axis) and the run's measure (right axis,
// in %: runMeasure's, the test exact match, or the validation BLEU of the reader's pairs) against
// the step, with both axes ticked, a legend, and the values of every measured
// point on hover and for screen readers (an SVG <title> each).
import { percent } from '../locales/format.js';

const NS = 'http://www.w3.org/2000/svg';
const SIZE = { width: 320, height: 150 };
const MARGIN = { left: 40, right: 40, top: 24, bottom: 30 };

/**
 * What a run's evaluations are measured by: { of(report) (0 … 1), text(share), key, toTarget } (its
 * names under model.measure.<key>): BLEU / 100 on the validation split, where a translation run
 * holds one out (the reader's pairs: an exact match is rare in real language), else its kind's
 * goal (MODEL_KINDS[kind].goal: the test exact match, or the accuracy), which the run's
 * target is of.
 */
export function runMeasure(history, goal) {
  const validation = history.some((report) => report.split === 'validation' && report.evaluation?.bleu !== undefined);
  return validation
    ? { of: (report) => report.evaluation.bleu / 100, key: 'bleu', text: (share) => (share * 100).toFixed(1) }
    : { of: (report) => report.evaluation[goal], key: goalKey(goal), text: percent, toTarget: true };
}

/** The key of a run's measure before it reports: BLEU on the reader's pairs for a translation kind. */
export const measureKeyOf = (goal, onReaderTask) => (onReaderTask && goal === 'exactMatch' ? 'bleu' : goalKey(goal));

// A kind's goal as its measure's locale key ("exact" for the exact match, as the locales had it first)
const goalKey = (goal) => (goal === 'exactMatch' ? 'exact' : goal);

/** The chart of `history` (runTraining's progress reports) of a kind whose goal is `goal`, worded by `t`. */
export function trainingChart(history, t, goal) {
  const { width, height } = SIZE;
  const plot = { width: width - MARGIN.left - MARGIN.right, height: height - MARGIN.top - MARGIN.bottom };
  const svg = node('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'training-chart' });
  svg.append(node('title', {}, t('model.curve')));
  const lastStep = Math.max(1, history.at(-1).step);
  const losses = history.filter((report) => report.loss !== null);
  const measured = history.filter((report) => report.evaluation !== undefined);
  const topLoss = niceCeiling(Math.max(1e-9, ...losses.map((report) => report.loss)));
  const x = (step) => MARGIN.left + (step / lastStep) * plot.width;
  const y = (share) => MARGIN.top + (1 - share) * plot.height;
  const bottom = y(0);
  const measure = runMeasure(history, goal);

  // axes: steps below, loss on the left, the measure on the right
  svg.append(node('path', { class: 'chart-axis', d: `M${x(0)},${y(1)}V${bottom}H${x(lastStep)}V${y(1)}` }));
  for (const share of [0, 0.5, 1]) {
    const step = Math.round(share * lastStep);
    svg.append(
      text(x(step), bottom + 12, String(step), 'middle'),
      text(MARGIN.left - 4, y(share) + 3, formatLoss(share * topLoss), 'end', 'chart-loss-text'),
      text(width - MARGIN.right + 4, y(share) + 3, measure.text(share), 'start', 'chart-exact-text'),
    );
  }
  svg.append(text(MARGIN.left + plot.width / 2, height - 3, t('model.chartStep'), 'middle'));
  // the legend, above the plot
  svg.append(
    legend(MARGIN.left, 'chart-loss', t('model.chartLoss')),
    legend(MARGIN.left + plot.width / 2, 'chart-exact', t(`model.measure.${measure.key}.chart`)),
  );

  const line = (reports, share, className) =>
    node('polyline', {
      class: className,
      points: reports.map((report) => `${x(report.step).toFixed(1)},${y(share(report)).toFixed(1)}`).join(' '),
    });
  svg.append(
    line(losses, (report) => report.loss / topLoss, 'chart-loss'),
    line(measured, measure.of, 'chart-exact'),
  );
  // each evaluation: a point whose title gives its numbers
  for (const report of measured) {
    const point = node('circle', {
      class: 'chart-point',
      cx: x(report.step).toFixed(1),
      cy: y(measure.of(report)).toFixed(1),
      r: 3,
    });
    point.append(
      node(
        'title',
        {},
        t(`model.measure.${measure.key}.point`, {
          step: report.step,
          loss: report.loss === null ? '–' : formatLoss(report.loss),
          value: measure.text(measure.of(report)),
        }),
      ),
    );
    svg.append(point);
  }
  return svg;
}

function node(name, attributes, content) {
  const element = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (content !== undefined) element.textContent = content;
  return element;
}

function text(x, y, content, anchor, className = 'chart-text') {
  return node('text', { x, y, 'text-anchor': anchor, class: className }, content);
}

function legend(x, className, label) {
  const group = node('g', {});
  group.append(node('line', { x1: x, y1: 10, x2: x + 16, y2: 10, class: className }), text(x + 20, 14, label, 'start'));
  return group;
}

// The loss axis runs to the first 1, 2 or 5 times a power of ten at or above the largest loss.
function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= value * (1 - 1e-12));
}

const formatLoss = (value) => String(Number(value.toPrecision(2)));
