// The declarations of attention-stepper/components accept real usage and reject misuse.
import {
  AttentionStepperElement,
  renderHeadView,
  renderHeatmap,
  renderModelView,
  type AttentionView,
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

// attention computed elsewhere: transformers' outputs.attentions as lists, a file's tensors
const layer = [
  [
    [
      [0.5, 0.5],
      [0.1, 0.9],
    ],
  ],
]; // [1, heads, T, T]
const view: AttentionView = renderModelView(document.body, [layer, layer], ['a', 'b'], { layer: 1, head: 0 });
view.update([layer[0]], ['a', 'b'], { sentenceB: 1, palette: 'colourblind' });
view.dispose();
renderHeadView(document.body, { layer_0: { shape: [1, 1, 2, 2], data: new Float32Array(4) } }, ['a', 'b'], {
  lang: 'zh',
});
// @ts-expect-error tokens are strings
renderHeadView(document.body, [layer], [1, 2]);
// @ts-expect-error attentions are numbers
renderModelView(document.body, [[[['x']]]], ['a']);
const modelView = document.createElement('attention-model-view');
modelView.attentions = { attentions: { shape: [1, 1, 1, 2, 2], data: [1, 0, 0.5, 0.5] } };
modelView.tokens = ['a', 'b'];
document.createElement('attention-head-view').tokens = null;
