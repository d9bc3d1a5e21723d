// The tables of bench/results/transformer.json (bench/transformer.js).
import { fixed, markdownTable, percent, ranOn, source, times } from './format.js';

function transformerThroughput(json) {
  return (
    source('transformer.json', ranOn(json, 'throughput', { pytorch: true })) +
    markdownTable(
      ['d_model/heads/feed-forward', 'layers', 'ours', 'PyTorch', 'ours/PyTorch'],
      json.throughput.cases.map((c) => [
        `${c.model}/${c.heads}/${c.feedforward}`,
        `${c.encoderLayers}+${c.decoderLayers}`,
        fixed(0)(c.results.ours.tokensPerSecond),
        fixed(0)(c.results.PyTorch?.tokensPerSecond),
        times(2)(c.ratio),
      ]),
    )
  );
}

function transformerQuality(json) {
  return (
    source('transformer.json', ranOn(json, 'quality')) +
    markdownTable(
      ['task', 'seed', 'steps', 'seconds', 'exact match', "best head's AER"],
      json.quality.rows.map((row) => [
        row.task,
        String(row.seed),
        String(row.steps),
        fixed(1)(row.seconds),
        percent(row.exactMatch),
        fixed(3)(row.aer),
      ]),
    )
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-transformer-throughput': transformerThroughput(json),
  'bench-transformer-quality': transformerQuality(json),
});
