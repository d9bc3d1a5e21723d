// The table of bench/results/page.json (bench/page.js).
import { day, fixed, markdownTable, source } from './format.js';

// bench/page.js: the page in headless Chromium
function page(json) {
  const ms = fixed(1);
  const edits = markdownTable(
    ['walkthrough', 'median, style and layout included', 'median script', 'slowest'],
    Object.entries(json.edit).map(([name, edit]) => [
      name,
      `${ms(edit.medianWithLayoutMs)} ms`,
      `${ms(edit.medianScriptMs)} ms`,
      `${ms(edit.worstWithLayoutMs)} ms`,
    ]),
  );
  const { hover256: hover, seq2seqTraining: training } = json;
  const frames = markdownTable(
    ['while', 'frames per second', 'median frame', '95th percentile frame'],
    [
      ['the pointer sweeps a 256×256 heatmap', hover, ''],
      [
        `en-fr trains in the page's worker: ${training.secondsToTrainedModel.toFixed(1)} s to the trained model (${training.lastReport})`,
        training,
      ],
    ].map(([what, r]) => [what, fixed(1)(r.fps), `${ms(r.medianFrameMs)} ms`, `${ms(r.p95FrameMs)} ms`]),
  );
  return `${source('page.json', `headless Chromium, ${day(json.date)}`)}${edits}\n${frames}`;
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-page': page(json),
});
