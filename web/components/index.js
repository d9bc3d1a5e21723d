// attention-stepper/components: the <attention-stepper>, <attention-heatmap>,
// <attention-model-view> and <attention-head-view> elements; renderHeatmap for drawing one matrix
// into any element, and renderModelView and renderHeadView for attention computed anywhere.
// Importing this module defines the elements (once, so two copies on one page do not clash).
import { toMatrix } from 'attention-stepper';
import { AttentionHeatmapElement } from './attention-heatmap.js';
import { AttentionStepperElement } from './attention-stepper.js';
import { AttentionHeadViewElement, AttentionModelViewElement } from './attention-views.js';
import { renderHeatmap as drawHeatmap } from './heatmap.js';
import { linkStyles } from './styles-link.js';

export { AttentionHeadViewElement, AttentionHeatmapElement, AttentionModelViewElement, AttentionStepperElement };
export { renderHeadView, renderModelView } from './attention-views.js';

for (const [name, element] of [
  ['attention-stepper', AttentionStepperElement],
  ['attention-heatmap', AttentionHeatmapElement],
  ['attention-model-view', AttentionModelViewElement],
  ['attention-head-view', AttentionHeadViewElement],
]) {
  if (!customElements.get(name)) customElements.define(name, element);
}

/**
 * Draws `matrix` (number[][] or { rows, cols, data, rowLabels?, colLabels?, name? }) as an
 * annotated heatmap into `element` (light DOM; the stylesheet is linked into its document or
 * shadow root). options: palette, role, annotate, precision, width.
 */
export function renderHeatmap(element, matrix, options = {}) {
  linkStyles(element.getRootNode());
  const normalized = Array.isArray(matrix)
    ? toMatrix(matrix, 'matrix', Float64Array)
    : { ...matrix, ...toMatrix(matrix, 'matrix', Float64Array) };
  return drawHeatmap(element, normalized, options);
}
