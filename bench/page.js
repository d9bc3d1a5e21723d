// Page figures, measured in Chromium with the Performance API (`node bench/page.js`, after
// `npm run build`): time from an input edit to the redrawn stage for each default walkthrough
// (for seq2seq, a typed sentence translated by the shipped model), frame times while the pointer
// sweeps a 256 x 256 heatmap, and training a seq2seq model from scratch in the page's Web Worker:
// the time from "Train" to a model at 98% exact match, and the frames of the page meanwhile, the
// pointer sweeping a heatmap. Writes bench/results/page.json.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { launchChromium } from '../tests/browser/chromium.js';
import { serve } from '../scripts/serve.js';

const site = fileURLToPath(new URL('../dist/site', import.meta.url));
const server = await serve(site);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => values.slice().sort((a, b) => a - b)[Math.floor(values.length * p)];

// Edits a field 40 times; for each, the script time (recompute every stage, rebuild the stage on
// screen) and that plus style and layout, forced at once (paint is not included).
async function editTimes(hash, field, values, ready = 'body[data-ready]') {
  await page.goto(base + hash);
  await page.waitForSelector(ready);
  return page.evaluate(
    async ({ field, values }) => {
      const input = document.getElementById(field);
      const script = [];
      const layout = [];
      for (let i = 0; i < 40; i++) {
        input.value = values[i % values.length];
        const start = performance.now();
        input.dispatchEvent(new Event('input'));
        script.push(performance.now() - start);
        document.body.getBoundingClientRect(); // style and layout of the redrawn stage, now
        layout.push(performance.now() - start);
        await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      }
      return { script, layout };
    },
    { field, values },
  );
}

const edits = {
  basics: await editTimes('#basics/applied', 'input-decoderState', ['5, 1, 20', '1, 0, 0', '2, 3, 4']),
  'self-attention': await editTimes('#self-attention/all-weights', 'input-seed', ['42', '7', '1']),
  // the four trained models (the shipped one, and three the panel trains first) scored at once
  scoring: await editTimes(
    '#scoring/compare-weights',
    'input-step',
    ['1', '2', '3'],
    '.model-panel[data-origin="trained"]',
  ),
  seq2seq: await editTimes(
    '#seq2seq/alignment',
    'input-sentence',
    ['the red car is small', 'the small cars are green', 'the old dog is black and wet'],
    '.model-panel[data-origin="shipped"]',
  ),
};

// Records every animation frame while the pointer sweeps `grid` until `done()` resolves true.
async function sweep(grid, done) {
  const box = await page.locator(grid).first().boundingBox();
  await page.evaluate(() => {
    window.frames_ = [];
    const tick = (time) => {
      window.frames_.push(time);
      if (window.frames_.length < 100000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  let moves = 0;
  while (!(await done())) {
    const x = box.x + 60 + ((moves * 37) % Math.max(1, box.width - 80));
    const y = box.y + 40 + ((moves * 53) % Math.max(1, box.height - 60));
    await page.mouse.move(x, y);
    moves++;
  }
  const frames = await page.evaluate(() => window.frames_);
  return { moves, frames, intervals: frames.slice(1).map((t, i) => t - frames[i]) };
}
const frameFigures = ({ moves, frames, intervals }) => ({
  pointerMoves: moves,
  frames: frames.length,
  fps: (frames.length - 1) / ((frames.at(-1) - frames[0]) / 1000),
  medianFrameMs: median(intervals),
  p95FrameMs: percentile(intervals, 0.95),
});

// Training from scratch (en-fr, additive, the page's defaults) while the pointer sweeps the
// alignment on screen: it ends when the trained model (98% exact match) is the one on screen.
await page.goto(`${base}#seq2seq/alignment`);
await page.waitForSelector('.model-panel[data-origin="shipped"]');
const trainStart = Date.now();
await page.click('.model-train');
const training = await sweep('[aria-current="step"] .hm-grid', async () =>
  page.evaluate(() => document.querySelector('.model-panel').dataset.origin === 'trained'),
);
const trainSeconds = (Date.now() - trainStart) / 1000;
const trainedAfter = await page.textContent('.model-numbers');

// A 256 x 256 matrix of attention weights (self-attention over 256 words), then the pointer
// sweeps it for two seconds while the page records every frame.
const words = Array.from({ length: 256 }, (_, i) => [i % 3 === 0 ? 1 : 0, i % 3 === 1 ? 1 : 0, i % 5 === 0 ? 1 : 0]);
await page.goto(
  `${base}?inputs=${encodeURIComponent(JSON.stringify({ 'self-attention': { embeddings: words } }))}#self-attention/all-weights`,
);
await page.waitForSelector('body[data-ready]');
const sweepStart = Date.now();
const hover = await sweep('[aria-current="step"] .hm-grid', async () => Date.now() - sweepStart >= 2000);
const tooltip = await page.textContent('[aria-current="step"] .hm-tooltip');
await browser.close();
server.close();

const summary = {
  date: new Date().toISOString(),
  chromium: '/usr/bin/chromium (headless)',
  edit: Object.fromEntries(
    Object.entries(edits).map(([name, { script, layout }]) => [
      name,
      { medianScriptMs: median(script), medianWithLayoutMs: median(layout), worstWithLayoutMs: Math.max(...layout) },
    ]),
  ),
  hover256: { ...frameFigures(hover), lastTooltip: tooltip },
  seq2seqTraining: { secondsToTrainedModel: trainSeconds, lastReport: trainedAfter, ...frameFigures(training) },
};
writeFileSync(fileURLToPath(new URL('results/page.json', import.meta.url)), `${JSON.stringify(summary, null, 2)}\n`);
for (const [name, figures] of Object.entries(summary.edit)) {
  console.log(
    `edit ${name.padEnd(15)} script ${figures.medianScriptMs.toFixed(2)} ms, with style and layout ${figures.medianWithLayoutMs.toFixed(2)} ms (worst ${figures.worstWithLayoutMs.toFixed(2)})`,
  );
}
const h = summary.hover256;
console.log(
  `hover 256x256: ${h.pointerMoves} pointer moves, ${h.fps.toFixed(1)} fps, frame median ${h.medianFrameMs.toFixed(2)} ms, p95 ${h.p95FrameMs.toFixed(2)} ms`,
);
const tr = summary.seq2seqTraining;
console.log(
  `train en-fr additive in the page's worker: ${tr.secondsToTrainedModel.toFixed(1)} s to the trained model (${tr.lastReport}); meanwhile ${tr.fps.toFixed(1)} fps, frame median ${tr.medianFrameMs.toFixed(2)} ms, p95 ${tr.p95FrameMs.toFixed(2)} ms`,
);
