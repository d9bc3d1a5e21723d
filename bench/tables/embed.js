// The table of bench/results/embed.json (bench/embed.js).
import { day, fixed, markdownTable, source } from './format.js';

// a file's name without its folder, query or (the page's assets/) the bundler's content hash
const fileName = (url) => {
  const name = url.split('/').pop().split('?')[0];
  return url.includes('/assets/') ? name.replace(/-[\w-]{8}(?=\.)/, '') : name;
};

// what a reader's browser loads before the first figure, and when it shows
function embed(json) {
  const kb = fixed(1);
  const table = markdownTable(
    ['what', 'first figure (median)', 'before it: gzip', 'raw', 'requests', 'largest'],
    Object.entries(json.results)
      .filter(([, r]) => r.requests)
      .map(([name, r]) => {
        const largest = r.requests
          .slice()
          .sort((a, b) => b.gzip - a.gzip)
          .slice(0, 3);
        return [
          name,
          `${fixed(0)(r.medianMs)} ms`,
          `${kb(r.gzipKB)} KB`,
          `${kb(r.rawKB)} KB`,
          String(r.requests.length),
          largest.map((q) => `${fileName(q.url)} ${kb(q.gzip / 1024)}`).join(', '),
        ];
      }),
  );
  const draws = Object.entries(json.results).filter(([, r]) => !r.requests);
  const drawn = draws.length
    ? `\n${markdownTable(
        ['drawn from data already in the page', 'to the next frame (median)', 'each'],
        draws.map(([name, r]) => [name, `${fixed(0)(r.medianMs)} ms`, r.ms.join(', ')]),
      )}`
    : '';
  return `${source('embed.json', `headless Chromium, ${json.cpu}, ${json.cores} cores, cache off, ${json.loads} cold loads each, ${day(json.date)}`)}${table}${drawn}`;
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-embed': embed(json),
});
