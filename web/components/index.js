// attention-stepper/components: the <attention-stepper> and <attention-heatmap> elements, and
// renderHeatmap for drawing one matrix into any element. Importing this module defines both
// elements (once, so two copies on one page do not clash).
import { toMatrix } from 'attention-stepper';
import { AttentionHeatmapElement } from './attention-heatmap.js';
import { AttentionStepperElement } from './attention-stepper.js';
import { renderHeatmap as drawHeatmap } from './heatmap.js';
import { linkStyles } from './styles-link.js';

export { AttentionHeatmapElement, AttentionStepperElement };

for (const [name, element] of [
  ['attention-stepper', AttentionStepperElement],
  ['attention-heatmap', AttentionHeatmapElement],
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
