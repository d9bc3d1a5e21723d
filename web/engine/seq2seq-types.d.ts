// Types of the seq2seq models' part of attention-stepper's public API (re-exported by index.d.ts):
// tasks, models and translations.
import type { LabelledMatrix, Matrix, ModelFacts, ScoreFunctionName } from './index.js';
import type { ModelOf, ModelPrecision, NamedTensor, PrecisionArray, TrainOptionsOf } from './model-types.js';
import type { TranslationTask, TranslationTaskOptions } from './translation-task-types.js';

/** What the seq2seq models take: their tasks, scoring functions, precisions, limits and defaults. */
export interface Seq2seqFacts extends ModelFacts {
  tasks: readonly string[];
  scorings: readonly ScoreFunctionName[];
  encoders: readonly Seq2seqEncoder[];
  precisions: readonly ModelPrecision[];
  maxBeam: number;
  maxSteps: number;
  maxSeed: number;
  /** the GRUs' layers go from 1 to this */
  maxLayers: number;
  /** a model may hold out up to this many training pairs as its validation split */
  maxValidation: number;
  defaults: ModelFacts['defaults'] &
    Readonly<{
      task: string;
      scoring: ScoreFunctionName;
      /** by scoring function: bidirectional for additive (Bahdanau), forward for Luong's */
      encoder: Readonly<Record<Seq2seqScoring, Seq2seqEncoder>>;
      layers: number;
      /** guided alignment's weight: 0, learning freely */
      guide: number;
      embedding: number;
      hidden: number;
      validation: number;
    }>;
}

/** What a target word is, for the alignment's breakdown (the page words it): en-fr's article …
 * conjunction, en-zh's subject … object, dates' digits and separators; <eos> is 'end'. */
export type WordCategory =
  | 'article'
  | 'noun'
  | 'adjective'
  | 'verb'
  | 'conjunction'
  | 'subject'
  | 'time'
  | 'negation'
  | 'preposition'
  | 'place'
  | 'object'
  | 'year'
  | 'month'
  | 'day'
  | 'separator'
  | 'end';

/** A pair of a translation task: source sentence, target sentence, and for each target token
 * (the final <eos> included) the source positions it translates (the gold alignment's sure
 * links), the positions it may also link to (possible links, not sure), and its category. */
export type TaskExample = readonly [
  source: string,
  target: string,
  alignment: readonly (readonly number[])[],
  possible: readonly (readonly number[])[],
  categories: readonly WordCategory[],
];

/** A translation task the engine generates from a small grammar, with its seed-0 split. */
export interface Seq2seqTask {
  id: 'en-fr' | 'en-zh' | 'dates';
  /** what one token is: a word, or (dates) a character, "▁" standing for a space in the source */
  unit: 'word' | 'character';
  /** the source vocabulary: ids are indices, 0 is <sos> and 1 <eos> */
  source: readonly string[];
  target: readonly string[];
  /** the longest sentence, in tokens before <eos> */
  maxSourceLength: number;
  maxTargetLength: number;
  /** the training split */
  examples: readonly TaskExample[];
  /** the test split */
  test: readonly TaskExample[];
}

/** @deprecated ModelPrecision, by its first name: use `ModelPrecision`; it goes in 0.5.0. */
export type Seq2seqPrecision = ModelPrecision;
export type Seq2seqScoring = 'additive' | 'dot' | 'general' | 'concat';
export type Seq2seqEncoder = 'forward' | 'bidirectional';

export interface Seq2seqOptions<P extends ModelPrecision = ModelPrecision> {
  /** a grammar's task id, or a task from text (createTranslationTask) or its id */
  task: Seq2seqTask['id'] | TranslationTask | TranslationTask['id'];
  /** default 'additive' (Bahdanau); 'dot', 'general', 'concat' are Luong's */
  scoring?: Seq2seqScoring;
  /** 'bidirectional' (GRU(E, H/2) each way, annotations [→h; ←h], the decoder starting from
   * tanh(bridge(←h_1))) by default for additive, 'forward' for the others; hidden must be even
   * for bidirectional */
  encoder?: Seq2seqEncoder;
  /** GRU layers in the encoder and the decoder, 1 (default) or 2; the top layer's states are scored */
  layers?: number;
  /** embedding size, default 32 */
  embedding?: number;
  /** GRU state size, default 64 */
  hidden?: number;
  /** numpy seed (0 … 2**32 - 1) of the task's split, the initial parameters and the shuffling; default 0 */
  seed?: number;
  /** how many training pairs (the split's last ones) to hold out, never trained on, as the 'validation' split; default 0 */
  validation?: number;
  /** default 'float32' */
  precision?: P;
}

export interface Seq2seqTranslationStep<A extends Float32Array | Float64Array> {
  /** the word this step produced ('<eos>' on the last step unless the length limit stopped it) */
  token: string;
  /** the decoder state s_t */
  state: A;
  /** one score and one weight per source token */
  scores: A;
  weights: A;
  context: A;
  /** Luong's h̃_t; null for additive scoring */
  attentional: A | null;
  /** the most likely tokens (softmax of the logits), most likely first */
  top: { token: string; probability: number }[];
}

export interface Seq2seqTranslation<A extends Float32Array | Float64Array> {
  /** the source tokens as the encoder read them, '<eos>' last */
  source: string[];
  /** the translation's words, without '<eos>' */
  target: string[];
  /** one row per decoding step, one column per source token */
  alignment: Matrix<A>;
  encoder: { embeddings: Matrix<A>; states: Matrix<A> };
  steps: Seq2seqTranslationStep<A>[];
  /** the hypotheses the search ended with, best first (greedy decoding: its one), each with the
   * sum of its tokens' log-probabilities (<eos> included) */
  beams: { target: string[]; logProbability: number }[];
}

/** BLEU and the loss every translation model's evaluation has. */
export interface TranslationScores {
  /** corpus BLEU-4 of the greedy translations on the task's tokens, 0 … 100, as sacreBLEU computes
   * it with tokenize='none', smooth_method='none'; a reference keeps its words outside the
   * vocabulary, so an output <unk> never scores */
  bleu: number;
  /** the mean cross-entropy of the target tokens (<eos> included), teacher forced */
  loss: number;
}

/** The alignment's measures are there when the task has gold links (every grammar's task; a task
 * from text whose text gave them). */
export interface Seq2seqEvaluation extends TranslationScores {
  /** share of sentences translated exactly */
  exactMatch: number;
  /** share of gold target tokens (<eos> included) the greedy translation has in the same place */
  tokenAccuracy: number;
  /** share of gold target words with sure links whose largest (teacher-forced) attention weight
   * falls on one of them */
  alignmentAccuracy?: number;
  /** alignment error rate (Och & Ney 2003): 1 - (|A∩S| + |A∩P|) / (|A| + |S|), A each target
   * word's largest attention weight (words the gold links to nothing, and <eos>, left out), S the
   * sure links, P the possible ones with them */
  aer?: number;
  /** share of target words whose largest attention weight is on a sure or possible link */
  alignedShare?: number;
  /** the same share per word category that the split has, with its count of words, and where its
   * words that miss look instead: the source token most of them look at, and the share of the
   * category's words that do (null when every word is aligned) */
  categories?: {
    category: WordCategory;
    count: number;
    aligned: number;
    instead: { token: string; share: number } | null;
  }[];
}

/** A GRU encoder–decoder with attention and the task it learns. train()'s `guide` (λ >= 0,
 * default 0) adds guided alignment (Chen et al. 2016): λ times the mean, over the target words of
 * the minibatch, of the cross-entropy between the word's attention row and its sure gold links,
 * normalised to sum to 1; its config's `guide` is the largest λ its training has used (0: it learnt
 * freely). Batch 32, learning rate 0.005 by default. Call dispose() when done. */
export interface Seq2seqModel<P extends ModelPrecision = ModelPrecision> extends ModelOf<
  'seq2seq',
  P,
  Required<Seq2seqOptions<P>> & { guide: number },
  Seq2seqEvaluation,
  'guide',
  'train' | 'validation' | 'test'
> {
  /** the vocabularies (ids are indices), and whether a token is a word or a character */
  readonly vocab: {
    readonly source: readonly string[];
    readonly target: readonly string[];
    readonly unit: 'word' | 'character';
  };
  /** ids as the encoder reads them ('source') or as the decoder must produce them ('target'), <eos> last */
  tokenize(sentence: string, side?: 'source' | 'target'): number[];
  /** mean cross-entropy of [source, target] sentence pairs (teacher forcing) and its gradients;
   * with `guide` (λ), plus λ times guided alignment's term (see train) for the pairs the task's
   * grammar makes */
  gradients(
    pairs: [source: string, target: string][],
    options?: { guide?: number },
  ): {
    loss: number;
    gradients: Record<string, NamedTensor<PrecisionArray<P>>>;
  };
  /** greedy decoding (beam 1, the default) or beam search of width 2 to 16; the steps and
   * alignment are the best hypothesis' */
  translate(sentence: string, options?: { beam?: number }): Seq2seqTranslation<PrecisionArray<P>>;
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
  /** the sentence as typed, which the model's tokenizer reads (default "the red car is small"), or
   * its words (joined by spaces) */
  sentence?: string | readonly string[];
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

/** What compared models differ in: their scoring functions, encoders or training (λ). */
export type Comparison = 'scoring' | 'encoder' | 'guide';

// This kind's entry in the public types (declaration merging: index.d.ts names no kind).
declare module './index.js' {
  interface ModelKinds {
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
      /** the fields its models are labelled by */
      label: { scoring?: Seq2seqScoring; encoder?: Seq2seqEncoder; layers?: number; guide?: number };
      /** a kind of target word with how many were measured, and the source token most of its unaligned words look at */
      labels: { category: WordCategory | 'plain' | 'contrast'; count: number; instead?: string };
      taskOptions: TranslationTaskOptions;
      task: TranslationTask;
    };
  }
  interface ModelWalkthroughInputs {
    scoring: ScoringInputs;
    seq2seq: Seq2seqWalkthroughInputs;
  }
  interface AttentionEngine {
    /** What the seq2seq models take and do by default (read-only). */
    seq2seqFacts(): Seq2seqFacts;
    /** The translation tasks: en-fr, en-zh and dates (read-only; made on the first call). */
    seq2seqTasks(): readonly Seq2seqTask[];
    /** A new encoder–decoder for a task (see Seq2seqOptions for the defaults). */
    createSeq2seq<P extends ModelPrecision = 'float32'>(options: Seq2seqOptions<P>): Seq2seqModel<P>;
  }
}
