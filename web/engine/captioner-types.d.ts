// Types of the captioners' part of attention-stepper's public API (re-exported by index.d.ts):
// the shapes task, its scenes and images, and the captioners.
import type { LabelledMatrix, Matrix, ModelFacts } from './index.js';
import type { ModelOf, ModelPrecision, NamedTensor, PrecisionArray, TrainOptionsOf } from './model-types.js';

export type SceneShape = 'circle' | 'square' | 'triangle';
export type SceneColour = 'red' | 'green' | 'blue' | 'yellow';
export type SceneSize = 'small' | 'big';
export type CaptionLanguage = 'en' | 'zh';
/** The encoder's layout: a batch norm after each convolution, or none (the first models' layout) */
export type CaptionerNormalization = 'batch' | 'none';

/** A scene: one to three objects, each in its own slot of the 2 x 2 layout (row, column 0 or 1). */
export interface Scene {
  objects: { shape: SceneShape; colour: SceneColour; size: SceneSize; row: number; column: number }[];
}

/** What keeps a scene's text from being a scene: too few or too many objects (`count`), an object
 * of other than five words (`words`), a size, colour or shape no captioner knows (`name`, its
 * `part`), a place that is not a row and column of the layout (`place`), or the place of an earlier
 * object (`slot`, that object `other`). Objects count from 0; `message` says it in English. */
export interface SceneFault {
  kind: 'count' | 'words' | 'name' | 'place' | 'slot';
  object?: number;
  other?: number;
  part?: 'size' | 'colour' | 'shape';
  message: string;
}

/** A scene's text as written: each object's words ("big", "red", "circle", "0", "1"), and its faults. */
export interface WrittenScene {
  objects: string[][];
  faults: SceneFault[];
}

/** An image, channels first (CHW): value (c * height + y) * width + x, RGB in [0, 1]. */
export interface SceneImage {
  channels: number;
  height: number;
  width: number;
  data: Float32Array;
}

/** What a caption word is, for regionAccuracy's breakdown; <eos> is 'end'. */
export type CaptionCategory =
  'article' | 'size' | 'colour' | 'shape' | 'relation' | 'conjunction' | 'particle' | 'verb' | 'end';

/** A scene of the task with its caption and, per caption token (<eos> last), its gold cells of
 * the 8 x 8 grid (cell = row * 8 + column): `regions` the sure ones (the object a size, colour or
 * shape word names), `possible` those of both objects a relation word relates. */
export interface CaptionExample {
  scene: Scene;
  /** words separated by spaces */
  caption: string;
  regions: readonly (readonly number[])[];
  possible: readonly (readonly number[])[];
  categories: readonly CaptionCategory[];
}

/** A captioning task in one language (captionTasks() has one entry per task and language: the
 * same scenes, captioned in each), with its seed-0 split. */
export interface CaptionTask {
  id: 'shapes';
  language: CaptionLanguage;
  /** ids are indices: 0 is <sos>, 1 <eos> */
  vocab: readonly string[];
  imageSize: number;
  /** the longest caption, in words before <eos> */
  maxCaptionLength: number;
  /** the training split */
  examples: readonly CaptionExample[];
  test: readonly CaptionExample[];
}

/** What the captioners take and what scenes are made of: names, limits and defaults. */
export interface CaptionerFacts extends ModelFacts {
  tasks: readonly string[];
  languages: readonly CaptionLanguage[];
  shapes: readonly SceneShape[];
  colours: readonly SceneColour[];
  sizes: readonly SceneSize[];
  layout: Readonly<{ rows: number; columns: number }>;
  maxObjects: number;
  imageSize: number;
  /** the annotation grid the attention is over */
  grid: Readonly<{ rows: number; cols: number }>;
  precisions: readonly ModelPrecision[];
  maxBeam: number;
  maxSteps: number;
  maxSeed: number;
  defaults: ModelFacts['defaults'] &
    Readonly<{
      task: string;
      language: CaptionLanguage;
      normalization: CaptionerNormalization;
      channels: number;
      annotation: number;
      attention: number;
      embedding: number;
      hidden: number;
      /** the doubly stochastic regulariser's λ */
      regularization: number;
    }>;
}

export interface CaptionerOptions<P extends ModelPrecision = ModelPrecision> {
  task: 'shapes';
  /** the captions' language, default 'en' (Chinese names the objects in the reverse order) */
  language?: CaptionLanguage;
  /** 'batch' (default): encoder.bn1 and encoder.bn2, nn.BatchNorm2d after each convolution, which
   * let every seed learn where to look; 'none': the first layout, which files saved before it
   * existed have */
  normalization?: CaptionerNormalization;
  /** conv1's output channels C, default 16 */
  channels?: number;
  /** conv2's output channels: the annotations' width D, default 32 */
  annotation?: number;
  /** the attention's width A, default 32 */
  attention?: number;
  /** the word embedding E, default 16 */
  embedding?: number;
  /** the LSTM's state H, default 64 */
  hidden?: number;
  /** numpy seed (0 … 2**32 - 1) of the task's split, the initial parameters and the shuffling; default 0 */
  seed?: number;
  /** default 'float32' */
  precision?: P;
}

export interface CaptionStep<A extends Float32Array | Float64Array> {
  /** the word this step produced ('<eos>' on the last step unless the length limit stopped it) */
  token: string;
  /** the decoder state h_{t-1} the step attends from */
  state: A;
  /** the scores e_t and weights α_t over the grid's regions */
  scores: Matrix<A>;
  weights: Matrix<A>;
  /** the gate β_t (one per annotation channel) */
  gate: A;
  /** the likeliest words, likeliest first */
  top: { token: string; probability: number }[];
}

export interface Caption<A extends Float32Array | Float64Array> {
  /** the caption's words, without '<eos>' */
  words: string[];
  steps: CaptionStep<A>[];
  /** the encoder's annotations: one row per region (row * cols + column), one column per channel */
  annotations: Matrix<A>;
  /** the image the model saw */
  image: SceneImage;
  /** the hypotheses the search ended with, best first (greedy decoding: its one) */
  beams: { target: string[]; logProbability: number }[];
}

export interface CaptionEvaluation {
  /** share of images captioned exactly (greedy) */
  exactMatch: number;
  /** share of gold tokens (<eos> included) the caption has in the same place */
  tokenAccuracy: number;
  /** share of object words (size, colour, shape) whose largest (teacher-forced) attention weight
   * falls on a cell of the object they name */
  regionAccuracy: number;
  /** per category of word with gold cells: its count and the share whose largest weight falls on
   * a sure or possible cell */
  byCategory: { category: CaptionCategory; count: number; aligned: number }[];
}

/** Show, Attend and Tell at the scenes' size, and the task it learns. Call dispose() when done. */
export interface CaptionerModel<P extends ModelPrecision = ModelPrecision> extends ModelOf<
  'captioner',
  P,
  Required<CaptionerOptions<P>>,
  CaptionEvaluation,
  'regularization',
  'train' | 'test'
> {
  /** the words (ids are indices) */
  readonly vocab: readonly string[];
  /** the loss of scenes with their captions (teacher forcing: mean cross-entropy plus
   * `regularization` (λ, default 0) times the doubly stochastic term, the mean over the regions of
   * (1 − Σ_t α_ti)²) and its gradients; train()'s `regularization` is the same λ */
  gradients(
    examples: { scene: Scene; caption: string }[],
    options?: { regularization?: number },
  ): { loss: number; gradients: Record<string, NamedTensor<PrecisionArray<P>>> };
  /** greedy decoding (beam 1, the default) or beam search of a scene or an image */
  caption(scene: Scene | SceneImage, options?: { beam?: number }): Caption<PrecisionArray<P>>;
}

/** A captioner's caption of one scene, stage by stage (scene, encoder, a step per word, caption). */
export interface CaptioningWalkthroughInputs {
  /** the captioner (required) */
  model: CaptionerModel;
  /** when given, must be the model's */
  task?: string;
  language?: string;
  /** the scene as words: objects separated by ";", each "size colour shape row column"
   * ('big red circle 0 0; small blue square 1 1'.split(' '), the default) */
  scene?: string[];
  /** beam width, 1 (greedy, the default) to 5 */
  beam?: number;
}

// This kind's entry in the public types (declaration merging: index.d.ts names no kind).
declare module './index.js' {
  interface ModelKinds {
    captioner: {
      model: CaptionerModel;
      options: CaptionerOptions<'float32'>;
      /** what each evaluation of a run shows: the attention of the caption of this scene */
      probe: { scene: Scene };
      /** words (with <eos>) by the grid's regions, labelled "row,column" */
      probeView: LabelledMatrix;
      evaluation: CaptionEvaluation;
      train: TrainOptionsOf<CaptionerModel>;
      facts: CaptionerFacts;
      label: {};
    };
  }
  interface ModelWalkthroughInputs {
    captioning: CaptioningWalkthroughInputs;
  }
  interface AttentionEngine {
    /** What the captioners take, what scenes are made of, and the defaults (read-only). */
    captionerFacts(): CaptionerFacts;
    /** The captioning tasks, one entry per task and language (read-only; made on the first call). */
    captionTasks(): readonly CaptionTask[];
    /** The scene drawn as the captioners see it. */
    renderScene(scene: Scene): SceneImage;
    /** A scene's text as the captioning walkthrough's `scene` input holds it, read as the engine reads
     * that input: objects separated by ";", each "size colour shape row column" ("big red circle 0 1;
     * small blue square 1 0"). Text that is no scene throws an Error with `argument` "scene". */
    parseScene(scene: string): Scene;
    /** The same text as written, never refused for what it says: each object's words, and every
     * fault that keeps it from being a scene, in the objects' order (parseScene's error says them all). */
    readScene(scene: string): WrittenScene;
    /** A new captioner for a task in a language (see CaptionerOptions for the defaults). */
    createCaptioner<P extends ModelPrecision = 'float32'>(options: CaptionerOptions<P>): CaptionerModel<P>;
  }
}
