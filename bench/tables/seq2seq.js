// The tables of bench/results/seq2seq.json (bench/seq2seq.js).
import { fixed, markdownTable, percent, ranOn, source, times } from './format.js';

// bench/seq2seq.js: training throughput, target tokens per second, and training to the goal
function seq2seqThroughput(json) {
  const names = ['ours', 'native', 'PyTorch batched', 'PyTorch pair by pair'];
  return (
    source('seq2seq.json', ranOn(json, 'throughput', { pytorch: true })) +
    markdownTable(
      ['size', 'scoring', ...names, ...names.slice(1).map((name) => `ours/${name}`)],
      json.throughput.cases.map((c) => [
        `${c.embedding}/${c.hidden}`,
        c.scoring,
        ...names.map((name) => fixed(0)(c.results[name]?.tokensPerSecond)),
        ...names.slice(1).map((name) => times(name === 'PyTorch pair by pair' ? 1 : 2)(c.ratios[name])),
      ]),
    )
  );
}

function seq2seqQuality(json) {
  return (
    source('seq2seq.json', ranOn(json, 'quality')) +
    markdownTable(
      ['task', 'scoring', 'steps', 'seconds', 'exact match', 'alignment accuracy'],
      json.quality.rows.map((row) => [
        row.task,
        row.scoring,
        String(row.steps),
        fixed(1)(row.seconds),
        percent(row.exactMatch),
        percent(row.alignmentAccuracy),
      ]),
    )
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-seq2seq-throughput': seq2seqThroughput(json),
  'bench-seq2seq-quality': seq2seqQuality(json),
});
