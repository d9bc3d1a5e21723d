// Listens to the steppers' stagechange events, as a tutorial might to sync its prose.
const log = document.getElementById('log');
document.addEventListener('stagechange', (event) => {
  log.textContent = `${event.target.id}: ${event.detail.stage} (${event.detail.index + 1}/${event.detail.total})`;
});

// renderHeatmap draws one matrix into any element of the page (its stylesheet is linked for it).
const { renderHeatmap } = await import('../../dist/components/attention-stepper.js');
renderHeatmap(
  document.getElementById('weights'),
  {
    rows: 1,
    cols: 4,
    data: new Float64Array([0.11920292, 7.9e-232, 0, 0.88079708]),
    name: 'weights',
    colLabels: ['h1', 'h2', 'h3', 'h4'],
  },
  { palette: 'colourblind', role: 'weights', precision: 3 },
);
