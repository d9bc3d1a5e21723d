// Types of the public API of attention-stepper's engine. Hand-written (Emscripten 3.1.6 has no
// --emit-tsd) and checked by tests/types; each kind of model's are in its own file
// (seq2seq-types.d.ts, transformer-types.d.ts, captioner-types.d.ts, classifier-types.d.ts), over
// what every kind's model
// has (model-types.d.ts).

/**
 * The engine: `loadAttention()` and the module's other exports, and the engine object it resolves
 * to. What each call computes is in docs/api.md.
 *
 * @module attention-stepper
 */
import type { ModelPrecision, TrainOptionsOf } from './model-types.js';
export type { ModelOf, ModelPrecision, NamedTensor, PrecisionArray, TrainOptionsOf } from './model-types.js';
import type {
  Seq2seqEncoder,
  Seq2seqEvaluation,
  Seq2seqFacts,
  Seq2seqModel,
  Seq2seqOptions,
  Seq2seqTask,
  WordCategory,
} from './seq2seq-types.js';

export type {
  Seq2seqFacts,
  TaskExample,
  Seq2seqTask,
  Seq2seqPrecision,
  Seq2seqScoring,
  Seq2seqEncoder,
  WordCategory,
  Seq2seqOptions,
  Seq2seqTranslationStep,
  Seq2seqTranslation,
  Seq2seqEvaluation,
  Seq2seqModel,
  TranslationScores,
} from './seq2seq-types.js';
import type {
  TokenUnit,
  TranslationTask,
  TranslationTaskFacts,
  TranslationTaskOptions,
} from './translation-task-types.js';
export type {
  TextTaskDefaults,
  TextTaskOptions,
  TokenUnit,
  TranslationTask,
  TranslationTaskFacts,
  TranslationTaskOptions,
} from './translation-task-types.js';
import type {
  TransformerEvaluation,
  TransformerFacts,
  TransformerModel,
  TransformerOptions,
} from './transformer-types.js';
import type {
  CaptionerFacts,
  CaptionerModel,
  CaptionerOptions,
  CaptionEvaluation,
  CaptionTask,
  Scene,
  SceneImage,
  WrittenScene,
} from './captioner-types.js';
import type {
  ClassificationTask,
  ClassifierAttention,
  ClassifierEncoder,
  ClassificationTextTask,
  ClassificationTextTaskOptions,
  ClassifierEvaluation,
  ClassifierFacts,
  ClassifierModel,
  ClassifierOptions,
} from './classifier-types.js';

export type {
  TransformerFacts,
  TransformerOptions,
  HeadsAttention,
  TransformerTranslation,
  TransformerEvaluation,
  TransformerModel,
} from './transformer-types.js';
export type {
  SceneShape,
  SceneColour,
  SceneSize,
  CaptionLanguage,
  CaptionerNormalization,
  Scene,
  SceneFault,
  WrittenScene,
  SceneImage,
  CaptionCategory,
  CaptionExample,
  CaptionTask,
  CaptionerFacts,
  CaptionerOptions,
  CaptionStep,
  Caption,
  CaptionEvaluation,
  CaptionerModel,
} from './captioner-types.js';
export type {
  ClassificationLanguage,
  ClassifierEncoder,
  ClassifierAttention,
  ReviewCategory,
  ClassificationExample,
  ClassificationTask,
  ClassificationTextTask,
  ClassificationTextTaskOptions,
  LabelledSentence,
  ClassifierFacts,
  ClassifierOptions,
  Classification,
  Explanation,
  ClassifierEvaluation,
  ClassifierModel,
} from './classifier-types.js';

/** A probe's view: a matrix with its row and column labels. */
export type LabelledMatrix = Matrix<Float32Array> & { rowLabels: string[]; colLabels: string[] };

/** The kinds of model the engine trains, each with what a training run of it takes and reports. */
export interface ModelKinds {
  seq2seq: {
    model: Seq2seqModel;
    /** createSeq2seq's options */
    options: Seq2seqOptions<'float32'>;
    /** what each evaluation of a run shows: the alignment of this sentence */
    probe: { sentence: string };
    /** the attention over the probe's sentence: target words (with <eos>) by source words */
    probeView: LabelledMatrix;
    evaluation: Seq2seqEvaluation;
    /** the options of train() a run may set */
    train: TrainOptionsOf<Seq2seqModel>;
    facts: Seq2seqFacts;
  };
  transformer: {
    model: TransformerModel;
    options: TransformerOptions<'float32'>;
    probe: { sentence: string };
    /** the guided head's cross-attention over the probe's sentence: target words (with <eos>) by source words */
    probeView: LabelledMatrix;
    evaluation: TransformerEvaluation;
    train: TrainOptionsOf<TransformerModel>;
    facts: TransformerFacts;
  };
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
  };
  classifier: {
    model: ClassifierModel;
    options: ClassifierOptions<'float32'>;
    /** what each evaluation of a run shows: the attention over this sentence */
    probe: { sentence: string };
    /** one row, labelled with the predicted label, by the sentence's words */
    probeView: LabelledMatrix;
    evaluation: ClassifierEvaluation;
    train: TrainOptionsOf<ClassifierModel>;
    facts: ClassifierFacts;
  };
}
export type ModelKind = keyof ModelKinds;

/** A field of a kind's configuration, as the engine describes it (modelFacts(kind).fields). */
export interface ModelField {
  name: string;
  /** text; one of `choices`; a size (>= 1); a whole number (0 … max); a real number */
  type: 'text' | 'choice' | 'size' | 'integer' | 'number';
  /** it tells models apart: a page keeps one model per identity, and a file is named by it */
  identity?: true;
  /** the create function must be given it */
  required?: true;
  /** train() sets it, not the create function (the config still says it) */
  trained?: true;
  /** of the identity, said in a model's name (a file's, a label's) even at its default */
  named?: true;
  choices?: readonly string[];
  max?: number;
  /** its default follows this field's value: defaults[name] is by that value */
  defaultBy?: string;
}

/** What every kind's facts say (seq2seqFacts(), transformerFacts(), captionerFacts(),
 * classifierFacts() say more). */
export interface ModelFacts {
  /** the configuration's fields, in the order a model's config lists them */
  fields: readonly Readonly<ModelField>[];
  /** the name of train()'s loss weight: guide, regularization or rationale */
  lossWeight: string;
  precisions: readonly ModelPrecision[];
  maxSteps: number;
  maxSeed: number;
  /** what create and train() take when not given: every kind's, and its own (its facts' type) */
  defaults: Readonly<{ seed: number; precision: ModelPrecision; batch: number; learningRate: number }>;
}
/** A model of any kind. */
export type Model = ModelKinds[ModelKind]['model'];

export interface TrainingOptions<K extends ModelKind = ModelKind> {
  kind: K;
  /** the model to train, as its kind's create function takes it (createSeq2seq, createTransformer,
   * createCaptioner, createClassifier) */
  model: ModelKinds[K]['options'];
  /** the reader's text, as the kind's reader task takes it (createTranslationTask's pairs,
   * createClassificationTask's labelled sentences): the model's task, made where the run trains (a
   * worker's engine has not got the page's tasks) */
  task?: TranslationTaskOptions | ClassificationTextTaskOptions;
  /** the model's train() options but `steps` (the engine's defaults where not given) */
  train?: ModelKinds[K]['train'];
  /** what each evaluation shows of the model as it learns (required) */
  probe: ModelKinds[K]['probe'];
  /** at most this many steps (TRAINING_DEFAULTS.steps) */
  steps?: number;
  /** steps between progress reports */
  chunk?: number;
  /** steps between evaluations of the validation split (the test split when the task holds none out) */
  evaluateEvery?: number;
  /** stop once the evaluated exact match reaches it (0 to 1) */
  target?: number;
  /** stop once the validation loss has not improved for this many evaluations (default 3) */
  patience?: number;
}

export interface TrainingProgress<K extends ModelKind = ModelKind> {
  step: number;
  /** the steps the run goes to at most */
  steps: number;
  /** the last minibatch's loss; null before the first step */
  loss: number | null;
  /** the split each evaluation is of */
  split: 'validation' | 'test';
  /** at each evaluation: the model's evaluate() of `split`, and its probe */
  evaluation?: ModelKinds[K]['evaluation'];
  probe?: ModelKinds[K]['probeView'];
  /** on the reader's pairs (a run with a `task`): the epochs, pairs and seconds of training so far
   * (evaluations left out), and at each evaluation a few held-out pairs as the model translates them */
  epoch?: number;
  pairs?: number;
  seconds?: number;
  samples?: { source: string; output: string; reference: string }[];
}

/**
 * A training run: 'progress', 'done' and 'error' events (CustomEvent detail), 'held' (detail
 * `{ step }`: paused, the chunk under way when the pause came has finished, and no step is taken
 * until resume()), and 'state'.
 */
export interface ModelTrainer extends EventTarget {
  readonly state: 'running' | 'paused' | 'done' | 'failed';
  /** the model's bytes (loadModel) once it stops; rejects with the Error that ended it */
  /** why it stopped: at `steps`, at the `target`, on a validation loss that stopped improving, or asked to */
  /** and the threads it trained on (the same bytes on any number) */
  readonly finished: Promise<{
    step: number;
    bytes: Uint8Array;
    reason: 'steps' | 'target' | 'plateau' | 'stopped';
    threads: number;
  }>;
  pause(): void;
  resume(): void;
  /** ends the run early; it finishes with the model as it is */
  stop(): void;
}

/** A trained model the package ships, by the fields of its kind's identity that are not the defaults. */
export type ShippedModel = {
  [K in ModelKind]: { readonly kind: K } & Readonly<Partial<ModelKinds[K]['options']>>;
}[ModelKind];

/** A row-major matrix as the engine returns it. */
export interface Matrix<D extends Float64Array | Float32Array = Float64Array> {
  rows: number;
  cols: number;
  data: D;
}

/** A matrix argument: an array of equal-length rows, or rows/cols with row-major data. */
export type MatrixInput = ReadonlyArray<ReadonlyArray<number>> | Matrix<Float64Array> | Matrix<Float32Array>;
/** A vector argument. */
export type VectorInput = ReadonlyArray<number> | Float64Array | Float32Array;
/** 1 (or true) keeps a position, 0 (or false) masks it out. */
export type MaskVector = ReadonlyArray<number | boolean> | Uint8Array;
/** Float32 in, Float32 out: the first argument's type decides the precision of a call. */
type Out<First, D64, D32> = First extends Float32Array | Matrix<Float32Array> ? D32 : D64;

export interface SoftmaxOptions {
  /** Multiplies the scores before the softmax (default 1). */
  scale?: number;
  /** Per position; masked positions get weight 0 (log-weight -Infinity). All masked: all zero. */
  mask?: MaskVector;
}

/**
 * A precision the softmax and attention functions emulate bit for bit, as numpy computes it
 * (float16, float32, float64; float128 as IEEE binary128) or PyTorch (bfloat16).
 */
export type Precision = 'float16' | 'bfloat16' | 'float32' | 'float64' | 'float128';

/** Values of one precision: the doubles, their exact text and their bits. */
export interface PreciseValues {
  precision: Precision;
  /** each value as a double (float128 values rounded to one; beyond the double range 0 or ±Infinity) */
  values: Float64Array;
  /** per value, the decimal text of a float128 value a double cannot hold ("5.7661442e-340"), else "" */
  exact: string[];
  /** per value, its bits as "sign exponent mantissa" ("0 01111 0000000000") */
  bits: string[];
}

/** A matrix of one precision (row-major), as `attention(…, { precision })` returns it. */
export interface PreciseMatrix extends Matrix<Float64Array> {
  precision: Precision;
  exact: string[];
  bits: string[];
}

export interface AttentionOptions {
  /** Multiplies Q K^T before the softmax (default 1 / sqrt(d_k)). */
  scale?: number;
  /** Query i attends to keys 0..i only. */
  causal?: boolean;
  /** One entry per key (key padding), or a queries x keys matrix. A fully masked row gives zeros. */
  mask?: MaskVector | ReadonlyArray<ReadonlyArray<number | boolean>>;
}

export interface HeadsOptions extends AttentionOptions {
  /**
   * Heads side by side in one call: head j uses columns [j d, (j + 1) d) of Q and K and the
   * matching share of V's columns; the output holds the heads' outputs side by side, `weights`
   * one matrix per head (null with `weights: false`). The default scale is 1 / sqrt(d) of a head.
   */
  heads: number;
  weights?: boolean;
}

export interface FusedAttentionOptions extends AttentionOptions {
  /**
   * false: the fused path (tiles of keys, online softmax), which never forms the N x N weights,
   * so memory grows as O(N d); `weights` comes back null.
   */
  weights: false;
}

export interface AttentionResult<M> {
  output: M;
  weights: M;
}

export interface SelfAttentionResult<M> {
  /** X W_Q, X W_K, X W_V */
  queries: M;
  keys: M;
  values: M;
  /** Q K^T before scaling */
  scores: M;
  /** row softmax of the scaled, masked scores */
  weights: M;
  /** weights V */
  output: M;
}

/**
 * Weights in the x @ W convention. torch.nn.MultiheadAttention stores the transposes:
 * Wq = in_proj_weight[0:E].T, ..., Wo = out_proj.weight.T.
 */
export interface MultiHeadParams {
  heads: number;
  Wq: MatrixInput;
  Wk: MatrixInput;
  Wv: MatrixInput;
  Wo: MatrixInput;
  bq?: VectorInput;
  bk?: VectorInput;
  bv?: VectorInput;
  bo?: VectorInput;
  causal?: boolean;
  mask?: AttentionOptions['mask'];
}

export interface MultiHeadResult<M> {
  output: M;
  /** one N x N matrix per head */
  weights: M[];
}

/** numpy's legacy global RandomState after np.random.seed(seed); calls continue one stream. */
export interface RandomState {
  /** np.random.randint(high, size=(rows, cols)) */
  randint(high: number, rows: number, cols: number): Matrix;
  /** np.random.rand(rows, cols) */
  rand(rows: number, cols: number): Matrix;
  /** np.random.randn(rows, cols) */
  randn(rows: number, cols: number): Matrix;
}

export type WalkthroughName =
  'basics' | 'self-attention' | 'scoring' | 'seq2seq' | 'captioning' | 'transformer' | 'sentiment' | 'numerics';
export type ScoreFunctionName = 'additive' | 'dot' | 'general' | 'concat';

export interface BasicsInputs {
  /** default [5, 1, 20] */
  decoderState?: VectorInput;
  /** one annotation per row; default [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]] */
  annotations?: MatrixInput;
  /** seed of W_c for the attentional hidden state (default 0) */
  seed?: number;
}

export interface SelfAttentionInputs {
  /** one word per row; default the notebook's four words */
  embeddings?: MatrixInput;
  /** np.random.seed for W_Q, W_K, W_V (default 42) */
  seed?: number;
  /** np.random.randint(high, ...) (default 3) */
  high?: number;
  /** 0-based index of the word followed step by step (default 0: word_1) */
  word?: number;
  /** Weights (width x width) that replace the seeded draws, each on its own; the others are still drawn. */
  W_Q?: MatrixInput;
  W_K?: MatrixInput;
  W_V?: MatrixInput;
}

/**
 * What the walkthroughs of seq2seq models take besides their models: the identity's fields, which
 * when given must be the models' (but the field compared; encoder 'default' says nothing), and
 * the sentence.
 */
export interface TranslationModelInputs {
  task?: string;
  scoring?: ScoreFunctionName;
  encoder?: Seq2seqEncoder | 'default';
  layers?: number;
  /** λ as text: '0', '0.5', '1' */
  guide?: string;
  /** the sentence's words (default the red car is small) */
  sentence?: string[];
}

/**
 * One decoding step of several trained models of one task, side by side, each with its own
 * scoring function (encoder-states, decoder-states, compare-scores, compare-weights), all teacher
 * forced with the same target: the grammar's translation, else the first model's.
 */
export interface ScoringInputs extends TranslationModelInputs {
  /** models of one task, each with its own value of the field compared (at least one; required) */
  models: Seq2seqModel[];
  /** what the models differ in (default scoring) */
  comparison?: Comparison;
  /** the decoding step, 1 to the target's length with <eos> (default 2) */
  step?: number;
}

/** A model's translation of one sentence, stage by stage (source, encoder, a step per token, alignment). */
export interface Seq2seqWalkthroughInputs extends TranslationModelInputs {
  /** the model that translates (required) */
  model: Seq2seqModel;
  /** beam width, 1 (greedy, the default) to 5 */
  beam?: number;
  /** models of the same task to compare (the "compare" stage: their alignments and test measures) */
  compare?: Seq2seqModel[];
  /** what the compared models differ in, each its own value of it (default scoring) */
  comparison?: Comparison;
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

/** A Transformer's translation of one sentence, stage by stage (embeddings, positions, one layer and
 * head's attention in detail, a step per token, head view, model view, the comparison). */
export interface TransformerWalkthroughInputs {
  /** the model that translates (required) */
  model: TransformerModel;
  /** when given, must be the model's */
  task?: string;
  /** the sentence's words (default the red car is small) */
  sentence?: string[];
  /** the layer of each stack the detailed stages show, from 1 (default 1) */
  layer?: number;
  /** the head they show, from 1 (default 1) */
  head?: number;
  /** beam width, 1 (greedy, the default) to 5 */
  beam?: number;
  /** at most one GRU model of the same task, set beside the best cross-attention head */
  compare?: Seq2seqModel[];
}

/** A classifier's reading of one review (tokens, encoder, scores, weights, prediction) and Jain &
 * Wallace's checks of its weights (accuracy beside uniform attention, permuted weights, leave one
 * word out and gradients, Kendall's τ). */
export interface SentimentWalkthroughInputs {
  /** the classifier that reads (required) */
  model: ClassifierModel;
  /** when given, must be the model's: its task (reviews), language (en, zh) and encoder */
  task?: string;
  language?: string;
  encoder?: ClassifierEncoder;
  /** the sentence's words, two or more (default the food was not good but the staff was lovely) */
  sentence?: string[];
  /** a classifier of uniform attention on the same task, set beside the model */
  uniform?: ClassifierModel;
}

export interface NumericsInputs {
  /** one row of scores; default the Attention Basics seed's [927, 397, 148, 929] */
  scores?: VectorInput;
  /** 1 keeps a score, 0 masks it (the masking stage); default [1, 1, 0, 1] */
  mask?: VectorInput;
  /** np.random.seed of the q and k of the scale stage (default 0) */
  seed?: number;
}

export interface WalkthroughInputs {
  basics: BasicsInputs;
  'self-attention': SelfAttentionInputs;
  scoring: ScoringInputs;
  seq2seq: Seq2seqWalkthroughInputs;
  captioning: CaptioningWalkthroughInputs;
  transformer: TransformerWalkthroughInputs;
  sentiment: SentimentWalkthroughInputs;
  numerics: NumericsInputs;
}

/**
 * A panel's row or column label: text shown as it is in every language (a token, "x1", "h~"), or
 * names and numbers that attention-stepper/components words in the page's language: a row
 * computed in a precision (with every score masked, for vectors of width d, or at softmax
 * temperature T), the scores' width d alone, the sum of a row, a model's measure on the test
 * split, a model by its scoring function, a kind of target word with how many were measured (and
 * the source token most of its unaligned words look at).
 */
export type Label =
  | string
  | { precision: Precision; allMasked?: true; width?: number; temperature?: number }
  | { width: number }
  | { total: true }
  | {
      metric:
        | 'exactMatch'
        | 'alignmentAccuracy'
        | 'aer'
        | 'alignedShare'
        | 'insteadShare'
        | 'tokenAccuracy'
        | 'regionAccuracy'
        | 'bleu'
        | 'accuracy'
        | 'rationaleShare'
        | 'majority'
        | 'thisSentence'
        | 'testSplitMean'
        | 'testSplitMedian'
        | 'testSplitSd';
    }
  | ModelLabel
  | { category: WordCategory | 'plain' | 'contrast'; count: number; instead?: string };

/** A trained model by what tells it apart (any of its fields; a trace's `models` give them all). */
export interface ModelLabel {
  scoring?: ScoreFunctionName;
  encoder?: Seq2seqEncoder | ClassifierEncoder;
  layers?: number;
  /** guided alignment's weight λ its training used (0: it learnt freely) */
  guide?: number;
  /** a classifier's attention pooling */
  attention?: ClassifierAttention;
}

/** What compared models differ in: their scoring functions, encoders or training (λ). */
export type Comparison = 'scoring' | 'encoder' | 'guide';

/** One heatmap of a stage, in the orientation the notebook draws it. */
export interface Panel extends Matrix {
  name: string;
  /** colour role: decoder, annotation, context, weights, scores or neutral */
  palette: string;
  rowLabels: Label[];
  colLabels: Label[];
  /**
   * Present when some cell is too small for a double: per cell (row-major), the decimal text of
   * the exact value ("5.7661442e-340", computed from log-weights) or "" where `data` is exact.
   */
  exact?: string[];
  /**
   * Present in the numerics lab, whose rows are labelled by precision: per cell (row-major), its
   * bits in its row's precision as "sign exponent mantissa".
   */
  bits?: string[];
}

/**
 * One stage: numbers and structure only. Its title, text, formula and code are the page's (the
 * walkthrough specs and locales of attention-stepper/components); `kind` names the spec entry.
 */
export interface Stage {
  /** stable id, used in URLs: "softmax", "step-2" */
  id: string;
  /** the kind of stage: the id, or for stages repeated per decoding step "step" */
  kind: string;
  /** 1, 2, … for a stage repeated per decoding step */
  step?: number;
  /** the heatmaps, each found by its `name` */
  panels: Panel[];
}

export interface Trace {
  walkthrough: WalkthroughName;
  /** label lists the texts refer to: `words` (self-attention), `source` and `target` (scoring, seq2seq) */
  labels: Record<string, string[]>;
  stages: Stage[];
  /** the trained models the trace is of (seq2seq's; the scoring walkthrough's, in their panels' order) */
  models?: Required<ModelLabel>[];
  /** context vector (basics), attention output (self-attention), each model's weights at the step (scoring), alignment (seq2seq) */
  output: Matrix;
}

/** One input of a walkthrough as the engine takes it, with its limits and default. */
export type InputField =
  | { name: string; kind: 'integer'; optional: false; min: number; max: number; default: number }
  | { name: string; kind: 'vector'; optional: false; default: number[] }
  | { name: string; kind: 'matrix'; optional: boolean; default: number[][] | null }
  | { name: string; kind: 'choice'; optional: false; choices: string[]; default: string }
  | { name: string; kind: 'tokens'; optional: false; default: string[] }
  /** Trained models the caller passes (one, or a list); they have no default. */
  | { name: string; kind: 'model' | 'models'; optional: boolean };

/** Bad input: every Error the engine throws for it names the argument at fault. */
export interface InputError extends Error {
  /** "query", "mask", "decoderState", … as the API spells it (no "options." prefix or index) */
  argument: string;
}

export interface AttentionEngine {
  dotScore(query: VectorInput, key: VectorInput): number;
  dotScores<Q extends VectorInput>(query: Q, keys: MatrixInput): Out<Q, Float64Array, Float32Array>;
  generalScores<Q extends VectorInput>(
    query: Q,
    keys: MatrixInput,
    Wa: MatrixInput,
  ): Out<Q, Float64Array, Float32Array>;
  concatScores<Q extends VectorInput>(
    query: Q,
    keys: MatrixInput,
    Wa: MatrixInput,
    va: VectorInput,
  ): Out<Q, Float64Array, Float32Array>;
  additiveScores<Q extends VectorInput>(
    query: Q,
    keys: MatrixInput,
    Wa: MatrixInput,
    Ua: MatrixInput,
    va: VectorInput,
  ): Out<Q, Float64Array, Float32Array>;
  /** In one precision: the library's max-shifted softmax, every operation rounded as it rounds. */
  softmax(x: VectorInput, options: SoftmaxOptions & { precision: Precision }): PreciseValues;
  softmax<X extends VectorInput>(x: X, options?: SoftmaxOptions): Out<X, Float64Array, Float32Array>;
  /** Exact where softmax underflows: log-weights of 5.7661442e-340 are about -781.13. */
  logSoftmax(x: VectorInput, options: SoftmaxOptions & { precision: Precision }): PreciseValues;
  logSoftmax<X extends VectorInput>(x: X, options?: SoftmaxOptions): Out<X, Float64Array, Float32Array>;
  /** Row j of annotations (one per row) scaled by weight j. */
  applyWeights<W extends VectorInput>(
    weights: W,
    annotations: MatrixInput,
  ): Out<W, Matrix<Float64Array>, Matrix<Float32Array>>;
  /** The sum of the weighted annotations (of the rows). */
  contextVector<M extends MatrixInput>(weighted: M): Out<M, Float64Array, Float32Array>;
  /** Luong's tanh(W_c [c; s]). */
  attentionalHiddenState<C extends VectorInput>(
    context: C,
    state: VectorInput,
    Wc: MatrixInput,
  ): Out<C, Float64Array, Float32Array>;
  /** In one precision, row by row (no heads; the weights always come back). */
  attention(
    Q: MatrixInput,
    K: MatrixInput,
    V: MatrixInput,
    options: AttentionOptions & { precision: Precision },
  ): AttentionResult<PreciseMatrix>;
  attention<M extends MatrixInput>(
    Q: M,
    K: MatrixInput,
    V: MatrixInput,
    options: HeadsOptions,
  ): {
    output: Out<M, Matrix<Float64Array>, Matrix<Float32Array>>;
    weights: Out<M, Matrix<Float64Array>, Matrix<Float32Array>>[] | null;
  };
  attention<M extends MatrixInput>(
    Q: M,
    K: MatrixInput,
    V: MatrixInput,
    options: FusedAttentionOptions,
  ): { output: Out<M, Matrix<Float64Array>, Matrix<Float32Array>>; weights: null };
  attention<M extends MatrixInput>(
    Q: M,
    K: MatrixInput,
    V: MatrixInput,
    options?: AttentionOptions & { weights?: true },
  ): AttentionResult<Out<M, Matrix<Float64Array>, Matrix<Float32Array>>>;
  /** The matrix product A B (A: m x k, B: k x n), on the same kernels as attention. */
  matmul<M extends MatrixInput>(A: M, B: MatrixInput): Out<M, Matrix<Float64Array>, Matrix<Float32Array>>;
  selfAttention<M extends MatrixInput>(
    X: M,
    Wq: MatrixInput,
    Wk: MatrixInput,
    Wv: MatrixInput,
    options?: AttentionOptions,
  ): SelfAttentionResult<Out<M, Matrix<Float64Array>, Matrix<Float32Array>>>;
  multiHeadAttention<M extends MatrixInput>(
    X: M,
    params: MultiHeadParams,
  ): MultiHeadResult<Out<M, Matrix<Float64Array>, Matrix<Float32Array>>>;
  randomState(seed: number): RandomState;
  walkthrough<N extends Exclude<WalkthroughName, 'scoring' | 'seq2seq' | 'captioning' | 'transformer' | 'sentiment'>>(
    name: N,
    inputs?: WalkthroughInputs[N],
  ): Trace;
  walkthrough<N extends 'scoring' | 'seq2seq' | 'captioning' | 'transformer' | 'sentiment'>(
    name: N,
    inputs: WalkthroughInputs[N],
  ): Trace;
  /** The inputs `walkthrough(name, …)` takes, with their limits and defaults (read-only). */
  walkthroughInputs(name: WalkthroughName): readonly Readonly<InputField>[];
  /** The walkthroughs' names, in the page's order, as the engine publishes them: those of no
   * trained model (basics, self-attention, numerics) until loadModels(), then all. */
  readonly walkthroughNames: readonly WalkthroughName[];
  /**
   * Loads the models' code (the engine's module, the core's functions included), once: after it
   * every model function and walkthrough works, synchronously, on as many threads. Until then a
   * model function throws an Error saying to call this. What earlier calls returned stays valid.
   */
  loadModels(): Promise<void>;
  /** Whether loadModels() has loaded the models' code (or loadAttention was given models: true). */
  readonly modelsLoaded: boolean;
  /** What the seq2seq models take and do by default (read-only). */
  seq2seqFacts(): Seq2seqFacts;
  /** The translation tasks: en-fr, en-zh and dates (read-only; made on the first call). */
  seq2seqTasks(): readonly Seq2seqTask[];
  /** A translation task of the reader's own pairs, which createModel({ kind: 'seq2seq' or
   * 'transformer', task }) takes. Bad text or options throw an Error whose `argument` names the
   * option ('pairs' for the text, with the first lines at fault). */
  createTranslationTask(options: TranslationTaskOptions): TranslationTask;
  /** A grammar's task as text, one pair a line with its gold links (Pharaoh's form, positions of
   * the tokens createTranslationTask reads), and the options that read it all. */
  translationTaskSample(task: Seq2seqTask['id']): { name: string; text: string; unit: TokenUnit; maxLength: number };
  /** What tasks from text take when not told, and their limits (read-only). */
  translationTaskFacts(): TranslationTaskFacts;
  /** A new encoder–decoder for a task (see Seq2seqOptions for the defaults). */
  createSeq2seq<P extends ModelPrecision = 'float32'>(options: Seq2seqOptions<P>): Seq2seqModel<P>;
  /** What the Transformer models take and do by default (read-only). */
  transformerFacts(): TransformerFacts;
  /** A new Transformer for a translation task (see TransformerOptions for the defaults). */
  createTransformer<P extends ModelPrecision = 'float32'>(options: TransformerOptions<P>): TransformerModel<P>;
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
  /** What the classifiers take and do by default (read-only). */
  classifierFacts(): ClassifierFacts;
  /** The classification tasks, one entry per task and language (read-only; made on the first call). */
  classificationTasks(): readonly ClassificationTask[];
  /** A classification task of the reader's own labelled sentences (text<TAB>label a line), kept by
   * the engine until its dispose(); createClassifier({ task }) learns it. */
  createClassificationTask(options: ClassificationTextTaskOptions): ClassificationTextTask;
  /** A new sentence classifier with attention pooling for a task in a language (see
   * ClassifierOptions for the defaults). */
  createClassifier<P extends ModelPrecision = 'float32'>(options: ClassifierOptions<P>): ClassifierModel<P>;
  /** What models of `kind` take: their configuration's fields, limits and defaults (read-only);
   * seq2seqFacts(), transformerFacts(), captionerFacts() and classifierFacts() are this for their kind. */
  modelFacts<K extends ModelKind>(kind: K): ModelKinds[K]['facts'];
  /** A new, untrained model of `kind`, with that kind's create options: createSeq2seq,
   * createTransformer, createCaptioner and createClassifier are this for their kind. */
  createModel<K extends ModelKind>(options: { kind: K } & ModelKinds[K]['options']): ModelKinds[K]['model'];
  /** A model of any kind again from save()'s bytes (or a PyTorch state_dict the engine
   * recognises); its `kind` says which. */
  loadModel(bytes: Uint8Array): Model;
  /** One of the trained models the package ships (SHIPPED_MODELS), fetched or read from models/;
   * an identity field not given matches any. */
  loadShippedModel<K extends ModelKind>(
    options: { kind: K } & Partial<ModelKinds[K]['options']>,
  ): Promise<ModelKinds[K]['model']>;
  /**
   * The tensors of a .npy, .npz (stored or deflated) or .safetensors file, by name in the file's
   * order; a .npy's one array is `arr_0`, as np.savez names an unnamed array. Reads float16/32/64,
   * bfloat16 (safetensors), int8-64, uint8-64 and bool, in C or Fortran order, either byte order.
   * A bad file (cut short, corrupt, an unsupported dtype, a header over numpy's 10,000 bytes, a
   * .npz that would unpack to more than 256 MiB) throws an Error with `argument` "bytes".
   */
  readTensors(bytes: Uint8Array | ArrayBuffer): Record<string, Tensor>;
  /**
   * WebAssembly memory: the heap size (it only grows, so it is also the peak) and the top of the
   * memory malloc has claimed, which stays put when nothing leaks.
   */
  memory(): { heapBytes: number; arenaBytes: number };
  /** The decimal text of exp(logMagnitude): decimalFromLog(-781.1269280110430) is "5.7661442e-340". */
  decimalFromLog(logMagnitude: number, negative?: boolean, digits?: number): string;
  /** How many threads the engine computes with, the calling one included (see LoadOptions.threads). */
  readonly threads: number;
}

export interface LoadOptions {
  /**
   * Threads to compute with, the calling one included. 1 loads the single-threaded module. More
   * load the threaded one, which runs in Node and on cross-origin-isolated pages (elsewhere this
   * rejects). Default: the machine's cores, at most 8, where the threaded module can run, else 1;
   * 1 with wasmBinary; one thread, with a console warning, if the threaded module's workers cannot
   * start. Small problems stay on one thread either way.
   */
  threads?: number;
  /** Load the models' code at once: the engine alone, unless an earlier call loaded the core
   * (then as loadModels()); default false: the core alone. */
  models?: boolean;
  /** The bytes of attention-engine.wasm (the single-threaded engine, models included), when you
   * load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Maps a file name to its URL: "attention-core.wasm" (the core, loaded first) and
   * "attention-engine.wasm" (loadModels()), and for the threaded modules
   * "attention-core-threads.mjs", "attention-core-threads.wasm",
   * "attention-core-threads.worker.js" and their "attention-engine-threads.*" counterparts.
   */
  locateFile?: (path: string, prefix: string) => string;
}

/** A tensor read from a file. */
export interface Tensor {
  /** As numpy names it: "float32", "int64", "bool", … ("bfloat16" from safetensors). */
  dtype: TensorDtype;
  shape: number[];
  /**
   * The values as doubles in C (row-major) order: exact for every dtype but 64-bit integers beyond
   * 2^53, which round to the nearest double as numpy's astype(np.float64) does.
   */
  data: Float64Array;
}

export type TensorDtype =
  | 'float16'
  | 'bfloat16'
  | 'float32'
  | 'float64'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'bool';

/** A tensor to write: its shape and C-order values, or a matrix's rows and cols. */
export type TensorInput =
  { shape: readonly number[]; data: ArrayLike<number> } | { rows: number; cols: number; data: ArrayLike<number> };

/** A .npy file of the tensor as float64: the bytes np.save writes for the same array. */
export function writeNpy(tensor: TensorInput): Uint8Array;

/** A .npz file (deflated, as np.savez_compressed writes) of named tensors, each float64. */
export function writeNpz(tensors: Record<string, TensorInput>): Uint8Array;

/** Loads the engine. Calls without options share one WebAssembly instance. */
export function loadAttention(options?: LoadOptions): Promise<AttentionEngine>;

/** The trained models the package ships in attention-stepper/models/ ("<task>-<scoring>.safetensors"),
 * each with the steps it trained for. */
export const SHIPPED_MODELS: readonly (ShippedModel & { readonly steps: number })[];

/** The whole identity of `object` (a model's config, inputs, a shipped model's entry): each field given, the defaults for the others. */
export function modelIdentity(
  kind: ModelKind,
  object: Record<string, unknown>,
  facts: unknown,
): Record<string, string | number>;

/** A model's file name: the identity fields `entry` gives (as modelIdentity orders them), joined by "-" (en-fr-additive.safetensors). */
export function modelFile(entry: { kind: ModelKind } & Record<string, unknown>): string;

/** What the page adds to each kind of model: the names of its create and facts functions, what a
 * training run shows of it at each evaluation, and the measure of its evaluation a run's `target`
 * is of (`exactMatch`; a classifier's `accuracy`). */
export const MODEL_KINDS: Readonly<{
  [K in ModelKind]: Readonly<{
    create: string;
    facts: string;
    probe(model: ModelKinds[K]['model'], probe: ModelKinds[K]['probe']): ModelKinds[K]['probeView'];
    goal: string;
    /** a kind that learns the reader's text: the function that makes its task, and a held-out
     * row ([input, reference]) as a training run's sample */
    reader?: Readonly<{
      create: string;
      sample(
        model: ModelKinds[K]['model'],
        row: readonly string[],
      ): { source: string; output: string; reference: string };
    }>;
  }>;
}>;

/** The names of a kind's fields that `role` marks, from its facts: fieldsThat(facts, 'identity'). */
export function fieldsThat(facts: ModelFacts, role: 'identity' | 'required' | 'trained' | 'named'): string[];

/** The values a kind's identity fields take where `object` leaves them unsaid. */
export function identityDefaults(facts: ModelFacts, object: Record<string, unknown>): Record<string, unknown>;

export const TRAINING_DEFAULTS: Readonly<{
  steps: number;
  chunk: number;
  evaluateEvery: number;
  target: number;
  patience: number;
}>;

/** Trains a model from scratch: in a Web Worker in browsers, between event-loop turns in Node. */
export function trainModel<K extends ModelKind>(options: TrainingOptions<K>): ModelTrainer;

/**
 * Checks and converts a matrix as every engine call does, without loading the engine: rows
 * (`number[][]`) or `{ rows, cols, data }` with row-major `data` become `{ rows, cols, data }` with
 * `data` a `type` (the caller's array itself when it already is one; other properties are
 * dropped). Anything else (ragged rows, a non-number, data that does not fill rows x cols) throws a
 * TypeError whose message names `name`: `toMatrix([[1, 2], [3]], 'keys', Float64Array)` throws
 * "keys is ragged: row 1 has 1 entries but row 0 has 2".
 */
export function toMatrix(value: unknown, name: string, type: Float32ArrayConstructor): Matrix<Float32Array>;
export function toMatrix(value: unknown, name: string, type: Float64ArrayConstructor): Matrix<Float64Array>;
