// The declarations of attention-stepper/components accept real usage and reject misuse.
import {
  AttentionStepperElement,
  renderHeatmap,
  type HeatmapOptions,
  type StageChangeDetail,
} from 'attention-stepper/components';

const stepper = document.querySelector('attention-stepper');
if (stepper) {
  stepper.next();
  stepper.prev();
  stepper.goTo('softmax');
  const ids: string[] = stepper.stages;
  const current: string | null = stepper.stage;
  stepper.addEventListener('stagechange', (event) => {
    const detail: StageChangeDetail = event.detail;
    console.log(detail.walkthrough, detail.stage, detail.index, detail.total, ids, current);
  });
  void stepper.ready.then((element: AttentionStepperElement) => element.trace?.stages.length);
  // @ts-expect-error goTo takes a stage id
  stepper.goTo(3);
}

const heatmap = document.createElement('attention-heatmap');
heatmap.matrix = [
  [0.1, 0.9],
  [0.5, 0.5],
];
heatmap.matrix = { rows: 1, cols: 2, data: new Float64Array([1, 2]), colLabels: ['a', 'b'] };
// an engine panel's structured labels draw as they are (worded in English)
heatmap.matrix = { rows: 1, cols: 2, data: new Float64Array([1, 2]), colLabels: ['x1', { total: true }] };

const options: HeatmapOptions = { palette: 'colourblind', role: 'weights', annotate: false, precision: 3 };
renderHeatmap(document.body, [[1, 2]], options);
// @ts-expect-error palettes are named
renderHeatmap(document.body, [[1, 2]], { palette: 'rainbow' });
// @ts-expect-error a matrix is not a string
renderHeatmap(document.body, '1 2');
