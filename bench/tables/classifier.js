// The tables of bench/results/classifier.json (bench/classifier.js).
import { fixed, markdownTable, percent, ranOn, source, times } from './format.js';

const kind = ({ encoder, attention }) => `${encoder}/${attention}`;
// mean ± sd over the reviews where τ is defined, and how many it is not (null)
const tau = ({ mean, sd, nulls }) =>
  mean === null
    ? `– (${nulls} null)`
    : `${mean.toFixed(2)} ± ${(sd ?? 0).toFixed(2)}${nulls ? ` (${nulls} null)` : ''}`;

function classifierThroughput(json) {
  return (
    source('classifier.json', ranOn(json, 'throughput', { pytorch: true })) +
    markdownTable(
      ['encoder/attention', 'E/H', 'ours', 'PyTorch', 'ours/PyTorch', 'ours/PyTorch, CPU time'],
      json.throughput.cases.map((row) => [
        kind(row),
        `${row.embedding}/${row.hidden}`,
        fixed(0)(row.results.ours.stepsPerSecond),
        fixed(0)(row.results.PyTorch?.stepsPerSecond),
        times(2)(row.ratio),
        times(2)(row.cpuRatio),
      ]),
    )
  );
}

function classifierQuality(json) {
  return (
    source('classifier.json', ranOn(json, 'quality')) +
    markdownTable(
      [
        'language',
        'encoder/attention',
        'seed',
        'steps',
        'CPU s',
        'goal',
        'accuracy',
        'negation+contrast',
        'best',
        'best negation+contrast',
        'majority',
      ],
      json.quality.rows.map((row) => [
        row.language,
        kind(row),
        String(row.seed),
        String(row.steps),
        fixed(2)(row.seconds),
        row.reached ? 'met' : 'not reached',
        percent(row.accuracy),
        percent(row.negationContrastAccuracy),
        percent(row.best.accuracy),
        percent(row.best.negationContrastAccuracy),
        percent(row.majority),
      ]),
    )
  );
}

function classifierExplanations(json) {
  return (
    source('classifier.json', ranOn(json, 'quality')) +
    markdownTable(
      [
        'language',
        'encoder/attention',
        'seed',
        'rationale share',
        'permutation (median)',
        'τ(α, leave-one-out)',
        'τ(α, gradients)',
      ],
      json.quality.rows.map((row) => [
        row.language,
        kind(row),
        String(row.seed),
        percent(row.rationaleShare),
        fixed(3)(row.explanations.permutation.median),
        tau(row.explanations.tau.leaveOneOut),
        tau(row.explanations.tau.gradients),
      ]),
    )
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-classifier-throughput': classifierThroughput(json),
  'bench-classifier-quality': classifierQuality(json),
  'bench-classifier-explanations': classifierExplanations(json),
});
