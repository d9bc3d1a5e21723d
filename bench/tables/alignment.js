// The table of bench/results/alignment.json (bench/alignment.js).
import { day, markdownTable, percent, source } from './format.js';

// bench/alignment.js: every task × scoring × encoder, learning freely (λ = 0) or guided (λ = 1)
function alignment(json) {
  const key = (row) => `${row.task} ${row.scoring} ${row.encoder}`;
  const aer = ({ mean, min, max }) => `${mean.toFixed(3)} (${min.toFixed(3)}–${max.toFixed(3)})`;
  const pairs = new Map();
  for (const row of json.rows) pairs.set(key(row), { ...pairs.get(key(row)), [row.guide]: row });
  const cells = (row) => (row ? [String(row.steps), percent(row.exactMatch), aer(row.aer)] : ['–', '–', '–']);
  return (
    source('alignment.json', `${json.seeds} seeds, ${day(json.date)}`) +
    markdownTable(
      [
        'task',
        'scoring',
        'encoder',
        'free: steps',
        'free: exact match',
        'free: AER mean (min–max)',
        'guided λ = 1: steps',
        'guided: exact match',
        'guided: AER mean (min–max)',
      ],
      [...pairs.values()].map((pair) => {
        const any = pair[0] ?? pair[1];
        return [any.task, any.scoring, any.encoder, ...cells(pair[0]), ...cells(pair[1])];
      }),
    )
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-alignment': alignment(json),
});
