// The tables of bench/results/captioner.json (bench/captioner.js).
import { fixed, markdownTable, percent, ranOn, source, times } from './format.js';

function captionerThroughput(json) {
  return (
    source('captioner.json', ranOn(json, 'throughput', { pytorch: true })) +
    markdownTable(
      ['language', 'ours', 'PyTorch', 'ours/PyTorch'],
      json.throughput.map((row) => [
        row.language,
        fixed(0)(row.ours.imagesPerSecond),
        fixed(0)(row.pytorch?.imagesPerSecond),
        times(2)(row.ratio),
      ]),
    )
  );
}

function captionerQuality(json) {
  const { rows } = json.quality;
  const kinds = [...new Set(rows.flatMap((row) => row.byCategory.map(({ category }) => category)))];
  const share = (row, kind) => {
    const found = row.byCategory.find(({ category }) => category === kind);
    return found ? percent(found.aligned) : '–';
  };
  return (
    source('captioner.json', ranOn(json, 'quality')) +
    markdownTable(
      ['language', 'λ', 'seed', 'steps', 'CPU s', 'exact match', 'regionAccuracy', ...kinds],
      rows.map((row) => [
        row.language,
        String(row.regularization),
        String(row.seed),
        String(row.steps),
        fixed(1)(row.seconds),
        percent(row.exactMatch),
        percent(row.regionAccuracy),
        ...kinds.map((kind) => share(row, kind)),
      ]),
    )
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-captioner-throughput': captionerThroughput(json),
  'bench-captioner-quality': captionerQuality(json),
});
