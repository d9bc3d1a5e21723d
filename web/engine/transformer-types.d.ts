// Types of the Transformer models' part of attention-stepper's public API (re-exported by
// index.d.ts): they learn the seq2seq models' translation tasks (Seq2seqTask).
import type { LabelledMatrix, ModelFacts } from './index.js';
import type { ModelOf, ModelPrecision, NamedTensor, PrecisionArray, TrainOptionsOf } from './model-types.js';
import type { Seq2seqModel, Seq2seqTask, TranslationScores } from './seq2seq-types.js';
import type { TranslationTask, TranslationTaskOptions } from './translation-task-types.js';

/** What the Transformer models take: their tasks, precisions, limits and defaults. */
export interface TransformerFacts extends ModelFacts {
  tasks: readonly string[];
  precisions: readonly ModelPrecision[];
  maxBeam: number;
  maxSteps: number;
  maxSeed: number;
  /** d_model and the feed-forward width go up to this */
  maxWidth: number;
  /** either stack has 1 to this many layers */
  maxLayers: number;
  defaults: ModelFacts['defaults'] &
    Readonly<{
      task: string;
      model: number;
      heads: number;
      encoderLayers: number;
      decoderLayers: number;
      feedforward: number;
      /** guided alignment's weight: 0, learning freely */
      guide: number;
    }>;
}

export interface TransformerOptions<P extends ModelPrecision = ModelPrecision> {
  /** a grammar's task id, or a task from text (createTranslationTask) or its id */
  task: Seq2seqTask['id'] | TranslationTask | TranslationTask['id'];
  /** d_model, default 32; heads must divide it */
  model?: number;
  /** attention heads per layer, default 2 (each model / heads wide) */
  heads?: number;
  /** encoder and decoder layers, default 2 each */
  encoderLayers?: number;
  decoderLayers?: number;
  /** the feed-forward block's width, default 64 */
  feedforward?: number;
  /** numpy seed (0 … 2**32 - 1) of the task's split, the initial parameters and the shuffling; default 0 */
  seed?: number;
  /** default 'float32' */
  precision?: P;
}

/** One layer's attention weights, [head][query][key] (0 where masked). */
export type HeadsAttention<A extends Float32Array | Float64Array> = A[][];

export interface TransformerTranslation<A extends Float32Array | Float64Array> {
  /** the source tokens as the encoder read them, '<eos>' last (the keys of the encoder and the cross-attention) */
  source: string[];
  /** the translation's words, without '<eos>' */
  target: string[];
  /** per encoder layer, its self-attention: source by source */
  encoder: { attention: HeadsAttention<A> }[];
  /** per decoder layer, its masked self-attention (a step by the steps up to it; the queries are
   * the decoder's inputs, '<sos>' then the words) and its cross-attention (a step by the source) */
  decoder: { selfAttention: HeadsAttention<A>; crossAttention: HeadsAttention<A> }[];
  /** one per output token ('<eos>' on the last step unless the length limit stopped it), with the
   * likeliest tokens, likeliest first */
  steps: { token: string; top: { token: string; probability: number }[] }[];
  /** the hypotheses the search ended with, best first (greedy decoding: its one) */
  beams: { target: string[]; logProbability: number }[];
}

/** The alignment's measures are there when the task has gold links. */
export interface TransformerEvaluation extends TranslationScores {
  /** share of sentences translated exactly (greedy) */
  exactMatch: number;
  /** share of gold target tokens (<eos> included) the translation has in the same place */
  tokenAccuracy: number;
  /** the best cross-attention head's alignment error rate */
  aer?: number;
  /** every cross-attention head's AER (teacher forced, each word's largest weight), layer by layer */
  heads?: { layer: number; head: number; aer: number }[];
}

/** PyTorch's translation-tutorial Transformer and the task it learns. Call dispose() when done. */
export interface TransformerModel<P extends ModelPrecision = ModelPrecision> extends ModelOf<
  'transformer',
  P,
  Required<TransformerOptions<P>>,
  TransformerEvaluation,
  'guide',
  'train' | 'test'
> {
  readonly vocab: {
    readonly source: readonly string[];
    readonly target: readonly string[];
    readonly unit: 'word' | 'character';
  };
  /** the cross-attention head guided alignment supervises: the last decoder layer's head 0;
   * train()'s `guide` (λ >= 0, default 0) supervises it with the gold links (Garg et al. 2019) */
  readonly guidedHead: Readonly<{ layer: number; head: number }>;
  /** ids as the encoder reads them ('source') or as the decoder must produce them ('target'), <eos> last */
  tokenize(sentence: string, side?: 'source' | 'target'): number[];
  /** mean cross-entropy of [source, target] pairs (teacher forcing) and its gradients; with
   * `guide` (λ), plus λ times guided alignment's term on the guided head for the grammar's pairs */
  gradients(
    pairs: [source: string, target: string][],
    options?: { guide?: number },
  ): { loss: number; gradients: Record<string, NamedTensor<PrecisionArray<P>>> };
  /** greedy decoding (beam 1, the default) or beam search of width 2 to 16 */
  translate(sentence: string, options?: { beam?: number }): TransformerTranslation<PrecisionArray<P>>;
}

/** A Transformer's translation of one sentence, stage by stage (embeddings, positions, one layer and
 * head's attention in detail, a step per token, head view, model view, the comparison). */
export interface TransformerWalkthroughInputs {
  /** the model that translates (required) */
  model: TransformerModel;
  /** when given, must be the model's */
  task?: string;
  /** the sentence as typed, which the model's tokenizer reads (default "the red car is small"), or
   * its words (joined by spaces) */
  sentence?: string | readonly string[];
  /** the layer of each stack the detailed stages show, from 1 (default 1) */
  layer?: number;
  /** the head they show, from 1 (default 1) */
  head?: number;
  /** beam width, 1 (greedy, the default) to 5 */
  beam?: number;
  /** at most one GRU model of the same task, set beside the best cross-attention head */
  compare?: Seq2seqModel[];
}

// This kind's entry in the public types (declaration merging: index.d.ts names no kind).
declare module './index.js' {
  interface ModelKinds {
    transformer: {
      model: TransformerModel;
      options: TransformerOptions<'float32'>;
      probe: { sentence: string };
      /** the guided head's cross-attention over the probe's sentence: target words (with <eos>) by source words */
      probeView: LabelledMatrix;
      evaluation: TransformerEvaluation;
      train: TrainOptionsOf<TransformerModel>;
      facts: TransformerFacts;
      label: {};
      taskOptions: TranslationTaskOptions;
      task: TranslationTask;
    };
  }
  interface ModelWalkthroughInputs {
    transformer: TransformerWalkthroughInputs;
  }
  interface AttentionEngine {
    /** What the Transformer models take and do by default (read-only). */
    transformerFacts(): TransformerFacts;
    /** A new Transformer for a translation task (see TransformerOptions for the defaults). */
    createTransformer<P extends ModelPrecision = 'float32'>(options: TransformerOptions<P>): TransformerModel<P>;
  }
}
