// Page figures, measured in Chromium with the Performance API (`node bench/page.js`, after
// `npm run build`): time from an input edit to the redrawn stage for each default walkthrough,
// and frame times while the pointer sweeps a 256 x 256 heatmap. Writes bench/results/page.json.
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
async function editTimes(hash, field, values) {
  await page.goto(base + hash);
  await page.waitForSelector('body[data-ready]');
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
  scoring: await editTimes('#scoring/step-2', 'input-seed', ['4', '5', '6']),
};

// A 256 x 256 alignment matrix, then the pointer sweeps it for two seconds while the page
// records every frame.
await page.goto(`${base}?inputs=${encodeURIComponent(JSON.stringify({ scoring: { length: 256 } }))}#scoring/alignment`);
await page.waitForSelector('body[data-ready]');
const box = await page.locator('[aria-current="step"] .hm-grid').boundingBox();
await page.evaluate(() => {
  window.frames_ = [];
  const tick = (time) => {
    window.frames_.push(time);
    if (window.frames_.length < 100000) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});
const sweepStart = Date.now();
let step = 0;
while (Date.now() - sweepStart < 2000) {
  const x = box.x + 60 + ((step * 37) % Math.max(1, box.width - 80));
  const y = box.y + 40 + ((step * 53) % Math.max(1, box.height - 60));
  await page.mouse.move(x, y);
  step++;
}
const frames = await page.evaluate(() => window.frames_);
const intervals = frames.slice(1).map((t, i) => t - frames[i]);
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
  hover256: {
    pointerMoves: step,
    frames: frames.length,
    fps: (frames.length - 1) / ((frames.at(-1) - frames[0]) / 1000),
    medianFrameMs: median(intervals),
    p95FrameMs: percentile(intervals, 0.95),
    lastTooltip: tooltip,
  },
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
