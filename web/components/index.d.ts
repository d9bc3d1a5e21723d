// Types of attention-stepper/components. Checked by tests/types.

/**
 * The custom elements `<attention-stepper>`, `<attention-heatmap>`, `<attention-model-view>` and
 * `<attention-head-view>`, and `renderHeatmap`, `renderModelView` and `renderHeadView`.
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

/** One tensor: its shape and its values in C order (as the engine's readTensors gives them). */
export interface AttentionTensor {
  shape: number[];
  data: ArrayLike<number>;
}

/**
 * Attention computed anywhere, in BertViz's contract (layers and heads count from 0): a list per
 * layer of [1, heads, T, T] or [heads, T, T] (nested arrays or tensors: Hugging Face's
 * `outputs.attentions` as lists), one tensor of every layer ([layers, 1, heads, T, T] or
 * [layers, heads, T, T]), or a file's named tensors (`layer_0`, `layer_1`, … or `attentions`).
 */
export type Attentions =
  | ReadonlyArray<
      | ReadonlyArray<ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>>
      | ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>
      | AttentionTensor
    >
  | AttentionTensor
  | Readonly<Record<string, AttentionTensor>>;

export interface AttentionViewOptions {
  /** from 0: the model view opens this layer's `head`; the head view shows this layer (default 0) */
  layer?: number;
  /** from 0: the head open (model view) or shown alone (head view) at first */
  head?: number;
  /** the index of the token where a second sentence starts: the views offer its pairs (A → B, …) */
  sentenceB?: number;
  palette?: PaletteName;
  /** the language of the views' words: 'en' (default) or 'zh' */
  lang?: string;
}

/** What renderModelView and renderHeadView return. */
export interface AttentionView {
  /** draws new data, keeping the layer and head chosen where the new data has them */
  update(attentions: Attentions, tokens: readonly string[], options?: AttentionViewOptions): void;
  /** removes the view */
  dispose(): void;
}

/**
 * Draws the model view (every layer × head as a small heatmap, each opening its head's annotated
 * heatmap) of `attentions` over `tokens` into `element`. Throws an Error naming the argument
 * (`attentions`, `tokens`, `sentenceB`, `layer`, `head`, `palette`) for data that does not fit.
 */
export function renderModelView(
  element: Element,
  attentions: Attentions,
  tokens: readonly string[],
  options?: AttentionViewOptions,
): AttentionView;

/** Draws the head view (a layer's heads as lines between the tokens, with a menu of the layers). */
export function renderHeadView(
  element: Element,
  attentions: Attentions,
  tokens: readonly string[],
  options?: AttentionViewOptions,
): AttentionView;

/**
 * <attention-model-view src tokens-src tokens layer head sentence-b-start palette lang>: data from
 * the properties, a <script type="application/json"> child ({ tokens, attentions, sentenceBStart? }),
 * or files: src (that JSON, or the attentions alone; .npy, .npz, safetensors) and tokens-src (a
 * JSON array) or tokens (the array as an attribute).
 */
export class AttentionModelViewElement extends HTMLElement {
  attentions: Attentions | null;
  tokens: readonly string[] | null;
}

/** <attention-head-view>, with the attributes and properties of <attention-model-view>. */
export class AttentionHeadViewElement extends HTMLElement {
  attentions: Attentions | null;
  tokens: readonly string[] | null;
}

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
    'attention-model-view': AttentionModelViewElement;
    'attention-head-view': AttentionHeadViewElement;
  }
  interface HTMLElementEventMap {
    stagechange: CustomEvent<StageChangeDetail>;
  }
}
