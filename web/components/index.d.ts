// Types of attention-stepper/components. Checked by tests/types.

/**
 * The custom elements `<attention-stepper>` and `<attention-heatmap>`, and `renderHeatmap`.
 *
 * @module attention-stepper/components
 */
import type { Label, Matrix, Trace, WalkthroughName } from 'attention-stepper';

/**
 * A matrix to draw: rows of numbers, or the engine's { rows, cols, data } with optional labels (a
 * panel's structured labels are worded in English).
 */
export type HeatmapMatrix =
  | ReadonlyArray<ReadonlyArray<number>>
  | (Matrix<Float64Array | Float32Array> & {
      name?: string;
      rowLabels?: Label[];
      colLabels?: Label[];
      /** per cell: the decimal text of a value too small for a double, '' elsewhere */
      exact?: string[];
    });

export type PaletteName = 'notebook' | 'colourblind';
/** Colour roles of the notebook palette: purple decoder, orange annotations, blue context, … */
export type ColourRole = 'decoder' | 'annotation' | 'context' | 'weights' | 'scores' | 'neutral';

export interface HeatmapOptions {
  palette?: PaletteName;
  role?: ColourRole;
  /** print the values in the cells (default true; hidden anyway when cells get small) */
  annotate?: boolean;
  /** significant digits of the printed values (default 2, seaborn's '.2g') */
  precision?: number;
  /** width in px to fit the heatmap into (default: the element's width) */
  width?: number;
}

/** Draws an annotated heatmap into `element` (light DOM), linking the stylesheet it needs. */
export function renderHeatmap(element: Element, matrix: HeatmapMatrix, options?: HeatmapOptions): HTMLElement;

export interface StageChangeDetail {
  walkthrough: WalkthroughName;
  stage: string;
  index: number;
  total: number;
}

/**
 * <attention-stepper walkthrough stage lang theme palette editable compact exercise inputs>.
 * Inputs: the `inputs` attribute or a <script type="application/json"> child.
 */
export class AttentionStepperElement extends HTMLElement {
  /** the stage ids of the walkthrough, in order */
  readonly stages: string[];
  /** the id of the stage on screen */
  readonly stage: string | null;
  /** the engine's trace being drawn */
  readonly trace: Trace | null;
  /** resolves once the first stage is drawn, its formula included (KaTeX loads beside the engine) */
  readonly ready: Promise<AttentionStepperElement>;
  next(): void;
  prev(): void;
  /** throws RangeError for an id that is not in `stages` */
  goTo(stageId: string): void;
}

/**
 * <attention-heatmap name palette colour-role annotate precision row-labels col-labels matrix src>;
 * src names a tensor file to draw: "weights.npy", or "model.safetensors#name" (also .npz#name).
 */
export class AttentionHeatmapElement extends HTMLElement {
  matrix: HeatmapMatrix | null;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-stepper': AttentionStepperElement;
    'attention-heatmap': AttentionHeatmapElement;
  }
  interface HTMLElementEventMap {
    stagechange: CustomEvent<StageChangeDetail>;
  }
}
