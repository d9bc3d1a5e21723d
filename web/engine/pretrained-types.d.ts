// Types of pretrained checkpoints' part of attention-stepper's public API (re-exported by
// index.d.ts): a checkpoint Hugging Face wrote, read from the reader's files, and its attention.
import type { Matrix, ModelFacts } from './index.js';
import type { ModelPrecision, NamedTensor, PrecisionArray } from './model-types.js';

/** The families the engine computes, as config.json's model_type names them. */
export type PretrainedFamily = 'gpt2' | 'bert' | 'distilbert' | 'llama' | 'qwen2';
/** The model's head: next-token logits ('lm'), BERT's or DistilBERT's masked-LM head ('mlm'), or none. */
export type PretrainedHead = 'lm' | 'mlm';

/** JSON as a file holds it, or parsed. */
export type JsonInput = string | Record<string, unknown>;
/** A file's bytes, or the file itself, read a slice at a time. */
export type FileInput = ArrayBuffer | Uint8Array | Blob;

export interface PretrainedFacts extends Omit<ModelFacts, 'lossWeight' | 'maxSteps' | 'defaults'> {
  defaults: Readonly<{ precision: ModelPrecision }>;
  families: readonly PretrainedFamily[];
}

/** What a checkpoint needs before any weight is read. */
export interface PretrainedEstimate {
  family: PretrainedFamily;
  /** the parameters, its largest head included */
  parameters: number;
  /** their bytes at the precision asked for */
  bytes: number;
  /** the most memory the engine's module can grow to */
  limit: number;
  /** the parameters and a forward pass's working memory (an eighth of them, at least 32 MB) within
   * what the module can still take beside what it holds now */
  fits: boolean;
}

export interface PretrainedConfig {
  family: PretrainedFamily;
  /** config.json's _name_or_path, or '' */
  name: string;
  layers: number;
  heads: number;
  /** key/value heads (fewer than heads when grouped) */
  kvHeads: number;
  hidden: number;
  headDim: number;
  intermediate: number;
  /** rows of the token embedding (may be more than the tokenizer's tokens) */
  vocabulary: number;
  positions: number;
  /** token types (BERT's sentence A and B), 0 for none */
  tokenTypes: number;
  causal: boolean;
  /** the LM head is the token embedding */
  tied: boolean;
  /** config.json's eos_token_id */
  endTokens: readonly number[];
  head: PretrainedHead | null;
}

/** A checkpoint's files given one by one. */
export interface PretrainedFileOptions {
  /** config.json */
  config: JsonInput;
  /** model.safetensors; for shards, each file by the name the index gives it */
  weights: FileInput | Record<string, FileInput>;
  /** model.safetensors.index.json, with shards */
  index?: JsonInput;
  /** tokenizer.json: without it, a model reads token ids only */
  tokenizer?: JsonInput;
  /** tokenizer_config.json */
  tokenizerConfig?: JsonInput;
}

/** A file of a checkpoint's folder: a File (a picked folder's keep webkitRelativePath), or a dropped one with its path. */
export type CheckpointFile = File | { path: string; file: Blob };

/** What a load reports: 'download' while a URL's weights arrive (totalBytes null where the server does not say), 'read' while they are read into the engine. */
export interface PretrainedProgress {
  phase: 'download' | 'read';
  bytesRead: number;
  totalBytes: number | null;
}

interface PretrainedLoadCommon {
  precision?: ModelPrecision;
  /** the memory the config asks for, before any weights are read: throw to refuse it */
  onEstimate?: (estimate: PretrainedEstimate) => void;
  onProgress?: (progress: PretrainedProgress) => void;
  /** aborting rejects the load with an AbortError and frees what was read */
  signal?: AbortSignal;
}

type NoFileOptions = { [K in keyof PretrainedFileOptions]?: never };

export type LoadPretrainedOptions = PretrainedLoadCommon &
  (
    | PretrainedFileOptions
    | (NoFileOptions & {
        /** a folder's files (picked, dropped): those beside its config.json, by Hugging Face's names */
        files: Iterable<CheckpointFile> | ArrayLike<CheckpointFile>;
      })
    | (NoFileOptions & {
        /** a folder's URL on a server that lets this page read it (CORS): config.json, then model.safetensors.index.json or model.safetensors, then tokenizer.json */
        url: string;
      })
  );

/** A text as the model's tokenizer reads it. */
export interface PretrainedTokens {
  ids: Int32Array;
  /** each token as the text it stands for; a token that holds part of a character is its bytes, `<0xE6>` */
  tokens: string[];
  /** each token's [start, end) in the text (UTF-16 indices; a pair's second text's in that text) */
  offsets: [number, number][];
  /** tokens the tokenizer added ([CLS], [SEP], <s>) */
  special: boolean[];
  /** BERT's sentence A (0) and B (1) */
  tokenTypes?: Int32Array;
}

export interface PretrainedRunOptions {
  /** a second text (BERT's sentence B) */
  pair?: string;
  /** with ids: each token's type (BERT's sentence A 0, B 1) */
  tokenTypes?: ArrayLike<number>;
  /** how many of the likeliest tokens `top` lists (default 10) */
  topK?: number;
  /** 0 or 1 per token: 0 hides it from every token */
  attentionMask?: ArrayLike<number>;
  /** default true */
  attentions?: boolean;
  /** default false */
  hiddenStates?: boolean;
  /** the head's logits of the last token (default), of every token, or none */
  logits?: 'last' | 'all' | false;
}

export interface PretrainedRun<P extends ModelPrecision = ModelPrecision> {
  ids: Int32Array;
  /** null when the input was ids and the model has no tokenizer */
  tokens: string[] | null;
  /** [layer][head]: tokens × tokens, each row a query's weights */
  attentions: Matrix<PrecisionArray<P>>[][] | null;
  /** [layers + 1]: tokens × hidden */
  hiddenStates: Matrix<PrecisionArray<P>>[] | null;
  /** the head's logits (null without a head, or when not asked for; the masked-LM head's by
   * default, of its [MASK] tokens) */
  logits: Matrix<PrecisionArray<P>> | null;
  /** the likeliest tokens after the last (the masked-LM head: at the first [MASK]), likeliest first */
  top: PretrainedChoice[] | null;
}

/** A token and its probability; `token` null when the model has no tokenizer. */
export interface PretrainedChoice {
  token: string | null;
  id: number;
  probability: number;
}

export interface PretrainedGenerateOptions {
  /** default 20 */
  maxTokens?: number;
  /** 0 (default): the likeliest token; else drawn from softmax(logits / temperature) */
  temperature?: number;
  /** draw among the k likeliest only; 0 (default): all */
  topK?: number;
  /** numpy's RandomState seed of the draws: a seed reproduces a text */
  seed?: number;
  /** stop at an end token (config.json's eos_token_id, the tokenizer's); default true */
  stopAtEnd?: boolean;
  /** each token as it comes, with the attention rows of the token whose logits chose it */
  onStep?: (step: PretrainedChoice & { attentions: Matrix<Float32Array | Float64Array>[][] }) => void;
}

export interface PretrainedGeneration {
  ids: Int32Array;
  tokens: (string | null)[];
  steps: PretrainedChoice[];
}

/** One head of one layer, every step: q, k, v (tokens × headDim), after rotary positions, the
 * scores QKᵀ, after the model's scaling, after the mask (-Infinity where masked), the weights and
 * their product with V. */
export interface PretrainedTrace<P extends ModelPrecision = ModelPrecision> {
  /** the key/value head the query head reads (grouped heads share one) */
  kvHead: number;
  q: Matrix<PrecisionArray<P>>;
  k: Matrix<PrecisionArray<P>>;
  v: Matrix<PrecisionArray<P>>;
  qRotated?: Matrix<PrecisionArray<P>>;
  kRotated?: Matrix<PrecisionArray<P>>;
  scores: Matrix<PrecisionArray<P>>;
  scaled: Matrix<PrecisionArray<P>>;
  masked: Matrix<PrecisionArray<P>>;
  weights: Matrix<PrecisionArray<P>>;
  output: Matrix<PrecisionArray<P>>;
}

/** A pretrained checkpoint's model: loaded (loadPretrained) and run; no train(), no save(). */
export interface PretrainedModel<P extends ModelPrecision = ModelPrecision> {
  readonly kind: 'pretrained';
  readonly family: PretrainedFamily;
  readonly config: Readonly<PretrainedConfig>;
  parameters(): Record<string, NamedTensor<PrecisionArray<P>>>;
  evaluate(): Record<string, never>;
  prepare(): Promise<void>;
  tokenize(text: string, pair?: string): PretrainedTokens;
  decode(ids: ArrayLike<number>): string;
  run(input: string | Int32Array | readonly number[], options?: PretrainedRunOptions): PretrainedRun<P>;
  trace(
    input: string | Int32Array | readonly number[],
    options?: {
      pair?: string;
      tokenTypes?: ArrayLike<number>;
      attentionMask?: ArrayLike<number>;
      layer?: number;
      head?: number;
    },
  ): PretrainedTrace<P>;
  /** Text after the prompt, a token at a time (a model with an LM head). */
  generate(
    prompt: string | Int32Array | readonly number[],
    options?: PretrainedGenerateOptions,
  ): Promise<PretrainedGeneration>;
  dispose(): void;
}

/** A checkpoint's reading of a text, stage by stage: the tokens, their embeddings (and learned
 * positions), one head's every step, every head of the model (model view) and of the layer (head
 * view), attention to the first token with and without the values' norms, attention rollout, and
 * the LM head's next tokens. */
export interface PretrainedWalkthroughInputs {
  /** the model that reads the text (required) */
  model: PretrainedModel;
  /** the text's token ids, from the model's tokenizer: model.tokenize(sentence).ids (required) */
  ids: Int32Array | readonly number[];
  /** the text as typed, which those ids are of (default "In the beginning, God created the heavens and the earth.") */
  sentence?: string;
  /** the layer the detailed stages and the head view show, from 0 (default 0) */
  layer?: number;
  /** the head the detailed stages show, from 0 (default 0) */
  head?: number;
  /** the generation stage's new tokens at most, 1 to 64 (default 8); it stops sooner at an end token or the model's last position */
  maxTokens?: number;
  /** the generation's temperature: "0" (the default) takes the likeliest token each step, the others draw */
  temperature?: '0' | '0.5' | '0.8' | '1' | '1.5';
  /** a draw's choices: the likeliest topK tokens, 0 (the default) for every token */
  topK?: number;
  /** the seed of numpy's random state the draws come from, 0 to 2³² − 1 (default 0) */
  seed?: number;
}

declare module './index.js' {
  interface ModelWalkthroughInputs {
    pretrained: PretrainedWalkthroughInputs;
  }
  interface ModelKinds {
    pretrained: {
      model: PretrainedModel;
      options: never;
      probe: never;
      probeView: never;
      evaluation: Record<string, never>;
      train: never;
      facts: PretrainedFacts;
      label: { family?: PretrainedFamily; name?: string };
    };
  }
  interface AttentionEngine {
    pretrainedFacts(): PretrainedFacts;
    /** What the checkpoint of this config.json needs, and whether it fits the engine's memory. */
    pretrainedEstimate(config: JsonInput, precision?: ModelPrecision): PretrainedEstimate;
    /** A checkpoint from the files Hugging Face writes; its weights read a tensor at a time. */
    loadPretrained(options: LoadPretrainedOptions): Promise<PretrainedModel>;
    /** A folder's files from its URL (a server that lets this page read it: CORS), to load or keep: config.json first, then the weights (onConfig may refuse them by throwing), then the tokenizer's files it has. */
    fetchCheckpoint(
      url: string,
      options?: {
        onConfig?: (configText: string) => void;
        onProgress?: (progress: PretrainedProgress) => void;
        signal?: AbortSignal;
      },
    ): Promise<{ path: string; file: Blob }[]>;
  }
}
