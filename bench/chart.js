// A grouped bar chart of GFLOP/s per case and contender, as a standalone SVG.
const COLOURS = {
  'ours materialised': '#6a2c91',
  'ours fused': '#b07cd8',
  'ours threaded materialised': '#3d1457',
  'ours threaded fused': '#8a4fb8',
  'tfjs-wasm': '#e08a00',
  'onnxruntime-web': '#1b7f6a',
  'onnxruntime-node': '#7fb2a4',
  'plain JS': '#999999',
  'native SSE2': '#1a66d6',
  'native SSE2 fused': '#7fb2ff',
};
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function chart(report) {
  const names = Object.keys(COLOURS).filter((name) => report.cases.some((c) => c.results[name]));
  const bar = 9;
  const group = names.length * bar + 18;
  const left = 50;
  const top = 60;
  const height = 260;
  const width = left + report.cases.length * group + 20;
  const max = Math.max(...report.cases.flatMap((c) => Object.values(c.results).map((r) => r.gflops)));
  const y = (g) => top + height - (g / max) * height;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top + height + 130}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="14" font-weight="600">Scaled dot-product attention, float32, one thread (ours threaded: ${report.threadedWith ?? 1}), d = ${report.d}: GFLOP/s (higher is better)</text>`,
    `<text x="${left}" y="40" fill="#555">${escape(report.machine.cpu)} · Node ${escape(report.machine.node)} · ${escape(report.machine.date.slice(0, 10))}</text>`,
  ];
  for (let g = 0; g <= max; g += max > 60 ? 10 : max > 20 ? 5 : 2) {
    parts.push(
      `<line x1="${left}" x2="${width - 10}" y1="${y(g)}" y2="${y(g)}" stroke="#eee"/>`,
      `<text x="${left - 6}" y="${y(g) + 4}" text-anchor="end" fill="#555">${g}</text>`,
    );
  }
  report.cases.forEach((c, i) => {
    const x0 = left + i * group + 9;
    names.forEach((name, k) => {
      const r = c.results[name];
      if (r)
        parts.push(
          `<rect x="${x0 + k * bar}" y="${y(r.gflops)}" width="${bar - 1}" height="${top + height - y(r.gflops)}" fill="${COLOURS[name]}"><title>${escape(name)}: ${r.gflops.toFixed(2)} GFLOP/s</title></rect>`,
        );
    });
    parts.push(
      `<text x="${x0 + (names.length * bar) / 2}" y="${top + height + 16}" text-anchor="middle">N=${c.n}</text>`,
      `<text x="${x0 + (names.length * bar) / 2}" y="${top + height + 30}" text-anchor="middle" fill="#555">${c.heads} head${c.heads > 1 ? 's' : ''}</text>`,
    );
  });
  names.forEach((name, k) => {
    const x = left + (k % 4) * 190;
    const yy = top + height + 60 + Math.floor(k / 4) * 18;
    parts.push(
      `<rect x="${x}" y="${yy - 9}" width="10" height="10" fill="${COLOURS[name]}"/>`,
      `<text x="${x + 15}" y="${yy}">${escape(name)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
