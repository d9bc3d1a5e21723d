// Types of the public API of attention-stepper's engine. Hand-written (Emscripten 3.1.6 has no
// --emit-tsd) and checked by tests/types. Each kind of model's are in its own file
// (<kind>-types.d.ts, over what every kind's model has: model-types.d.ts), which adds its entry to
// ModelKinds, its functions to AttentionEngine and its walkthroughs to ModelWalkthroughInputs
// (declaration merging), so this file names no kind: the package's copy re-exports every
// *-types.d.ts beside it (scripts/build.sh).

/**
 * The engine: `loadAttention()` and the module's other exports, and the engine object it resolves
 * to. What each call computes is in docs/api.md.
 *
 * @module attention-stepper
 */
import type { ModelPrecision, TrainOptionsOf } from './model-types.js';
export type { ModelOf, ModelPrecision, NamedTensor, PrecisionArray, TrainOptionsOf } from './model-types.js';

/** A probe's view: a matrix with its row and column labels. */
export type LabelledMatrix = Matrix<Float32Array> & { rowLabels: string[]; colLabels: string[] };

/**
 * The kinds of model the engine trains, each with what a training run of it takes and reports;
 * each kind's types file adds its entry:
 *   model, options (its create function's), facts; probe (what each evaluation of a run shows)
 *   and probeView (what it draws); evaluation; train (the options of train() a run may set);
 *   taskOptions and task (a kind that learns the reader's text: its reader task's options and
 *   the task they make); label (the
 *   fields its models are labelled by in a trace); labels (other labels its traces hold).
 */
export interface ModelKinds {}
export type ModelKind = keyof ModelKinds;

/** What entry `member` of each kind gives, where it gives one. */
type OfKinds<Member extends string> = {
  [K in ModelKind]: ModelKinds[K] extends { [M in Member]: infer T } ? T : never;
}[ModelKind];

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

/** What every kind's facts say (its facts function, MODEL_KINDS[kind].facts, says more). */
export interface ModelFacts {
  /** the configuration's fields, in the order a model's config lists them */
  fields: readonly Readonly<ModelField>[];
  /** what its models can do besides load and run: be made from options (createModel), be trained
   * (train(), trainModel) and be saved (save()); a kind of models read from someone else's files
   * does none of them */
  abilities: Readonly<{ creates: boolean; trains: boolean; saves: boolean }>;
  /** the name of train()'s loss weight: guide, regularization or rationale (a kind that trains) */
  lossWeight: string;
  precisions: readonly ModelPrecision[];
  /** the most steps of one train() (a kind that trains) */
  maxSteps: number;
  maxSeed: number;
  /** what create and train() take when not given: every kind's, and its own (its facts' type) */
  defaults: Readonly<{ seed: number; precision: ModelPrecision; batch: number; learningRate: number }>;
}
/** A model of any kind. */
export type Model = ModelKinds[ModelKind]['model'];

export interface TrainingOptions<K extends ModelKind = ModelKind> {
  kind: K;
  /** the model to train, as its kind's create function takes it (MODEL_KINDS[kind].create) */
  model: ModelKinds[K]['options'];
  /** the reader's task (MODEL_KINDS[kind].reader): a task object, which the run takes as its
   * bytes (save()) to where it trains, without its text read again; those bytes; or the options
   * of the reader's text, read there (a worker's engine has not got the page's tasks) */
  task?: ModelKinds[K] extends { taskOptions: infer T; task: infer Task } ? T | Task | Uint8Array : never;
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

export type WalkthroughName = keyof WalkthroughInputs;
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

export interface NumericsInputs {
  /** one row of scores; default the Attention Basics seed's [927, 397, 148, 929] */
  scores?: VectorInput;
  /** 1 keeps a score, 0 masks it (the masking stage); default [1, 1, 0, 1] */
  mask?: VectorInput;
  /** np.random.seed of the q and k of the scale stage (default 0) */
  seed?: number;
}

/** The walkthroughs of no trained model: their inputs, all optional. */
export interface CoreWalkthroughInputs {
  basics: BasicsInputs;
  'self-attention': SelfAttentionInputs;
  numerics: NumericsInputs;
}

/** The walkthroughs of trained models, each kind's types file adding its own: their inputs, a model among them. */
export interface ModelWalkthroughInputs {}

/** What walkthrough(name, inputs) takes, by name. */
export interface WalkthroughInputs extends CoreWalkthroughInputs, ModelWalkthroughInputs {}

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
  | OfKinds<'labels'>;

/**
 * A trained model by what tells it apart (any of its fields its kind labels it by, `label`; a
 * trace's `models` give them all).
 */
export type ModelLabel = {
  [F in keyof UnionToIntersection<OfKinds<'label'>>]?: {
    [K in ModelKind]: ModelKinds[K] extends { label: infer L }
      ? F extends keyof L
        ? NonNullable<L[F]>
        : never
      : never;
  }[ModelKind];
};
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

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
  /** label lists the texts refer to: `words` (self-attention), `source` and `target` (a translation's) */
  labels: Record<string, string[]>;
  stages: Stage[];
  /** the trained models the trace is of (a walkthrough of several: in their panels' order) */
  models?: Required<ModelLabel>[];
  /** context vector (basics), attention output (self-attention), a model's own (its alignment, its weights at the step) */
  output: Matrix;
}

/** One input of a walkthrough as the engine takes it, with its limits and default. */
export type InputField =
  | { name: string; kind: 'integer'; optional: false; min: number; max: number; default: number }
  | { name: string; kind: 'vector'; optional: false; default: number[] }
  | { name: string; kind: 'matrix'; optional: boolean; default: number[][] | null }
  | { name: string; kind: 'choice'; optional: false; choices: string[]; default: string }
  | { name: string; kind: 'tokens'; optional: false; default: string[] }
  /** Trained models the caller passes (one, or a list), and a text's token ids from its model's tokenizer; they have no default. */
  | { name: string; kind: 'model' | 'models' | 'ids'; optional: boolean };

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
  walkthrough<N extends keyof CoreWalkthroughInputs>(name: N, inputs?: CoreWalkthroughInputs[N]): Trace;
  walkthrough<N extends keyof ModelWalkthroughInputs>(name: N, inputs: ModelWalkthroughInputs[N]): Trace;
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
  /** What models of `kind` take: their configuration's fields, limits and defaults (read-only);
   * each kind's facts function (MODEL_KINDS[kind].facts) is this for its kind. */
  modelFacts<K extends ModelKind>(kind: K): ModelKinds[K]['facts'];
  /** A new, untrained model of `kind`, with that kind's create options: each kind's create
   * function (MODEL_KINDS[kind].create) is this for its kind. */
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

/** What the page adds to each kind of model: the names of its create and facts functions, its
 * walkthroughs, what a training run shows of it at each evaluation, and the measure of its
 * evaluation a run's `target` is of (`exactMatch`, or the kind's own: `accuracy`). */
export const MODEL_KINDS: Readonly<{
  [K in ModelKind]: Readonly<{
    /** its create function's name (a kind whose models are made from options) */
    create?: string;
    facts: string;
    /** the walkthroughs that show its models, in the page's order */
    walkthroughs: readonly (keyof ModelWalkthroughInputs)[];
    probe(model: ModelKinds[K]['model'], probe: ModelKinds[K]['probe']): ModelKinds[K]['probeView'];
    goal: string;
    /** a kind that learns the reader's text: the functions that make its task of the text and of
     * the task's bytes (its save()), and a held-out row ([input, reference]) as a training run's
     * sample */
    reader?: Readonly<{
      create: string;
      load: string;
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
