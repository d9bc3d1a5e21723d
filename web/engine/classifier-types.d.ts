// Types of the sentence classifiers' part of attention-stepper's public API (re-exported by
// index.d.ts): the reviews task, the classifiers, their classifications and explanations.
import type { LabelledMatrix, Matrix, ModelFacts } from './index.js';
import type { ModelOf, ModelPrecision, NamedTensor, PrecisionArray, TrainOptionsOf } from './model-types.js';
import type { TextTaskDefaults, TextTaskOptions, TokenUnit } from './translation-task-types.js';

export type ClassificationLanguage = 'en' | 'zh';
/** The states the attention pools: a bidirectional GRU's, or the embeddings alone ('none', H = E) */
export type ClassifierEncoder = 'bigru' | 'none';
/** α learned (additive attention over the states), or 1/n for every word (the baseline) */
export type ClassifierAttention = 'learned' | 'uniform';
/** What a review is, for the accuracy's breakdown: a plain one, one with a negated clause, or two
 * clauses joined by "but" (但是) */
export type ReviewCategory = 'plain' | 'negation' | 'contrast';

/** A sentence of a task: its words separated by spaces, its label, and its rationale (1 for each
 * word that decides the label, else 0). */
export type ClassificationExample = readonly [text: string, label: string, rationale: readonly (0 | 1)[]];

/** A classification task in one language (classificationTasks() has one entry per task and
 * language), with its seed-0 split. */
export interface ClassificationTask {
  id: 'reviews';
  language: ClassificationLanguage;
  labels: readonly string[];
  /** the words: token ids are indices (0 is <sos>, 1 <eos>, which a classifier never reads) */
  vocab: readonly string[];
  /** the longest sentence, in words */
  maxLength: number;
  /** the training split */
  examples: readonly ClassificationExample[];
  test: readonly ClassificationExample[];
}

/** A classification task from the reader's own labelled sentences (createClassificationTask), read
 * as createTranslationTask reads pairs. */
export interface ClassificationTextTaskOptions extends TextTaskOptions {
  /** the text: one sentence a line, text<TAB>label (the label in column labelColumn, the text in
   * column 0, or in 1 when the label is in 0); 2 to 10 distinct labels; a string, or a file's bytes
   * (which must be UTF-8) */
  text: string | Uint8Array | ArrayBuffer;
  /** the labels' column, default 1 (at most 99) */
  labelColumn?: number;
  /** what a token is: words and punctuation (default; scripts written without spaces, as Chinese,
   * a character a token), or every character */
  unit?: TokenUnit;
}

/** A sentence of a task from text and its label, as given. */
export type LabelledSentence = readonly [text: string, label: string];

/** A classification task from the reader's sentences, kept by the engine until dispose().
 * createModel({ kind: 'classifier', task }) takes it (or its id). Its sentences mark no rationale
 * and are all of category plain. */
export interface ClassificationTextTask {
  /** name-hash: the task's identity, which models made of it carry in config.task */
  readonly id: string;
  readonly name: string;
  /** 16 hex digits of the hash of the text and options */
  readonly hash: string;
  /** the distinct labels, in byte order: a model's probabilities are in this order */
  readonly labels: readonly string[];
  readonly settings: Readonly<{ unit: TokenUnit; lowercase: boolean; maxLength: number }>;
  readonly stats: Readonly<{
    /** sentences kept, in all splits */
    sentences: number;
    /** sentences dropped, by reason: empty, tooLong */
    dropped: Readonly<Record<string, number>>;
    train: number;
    validation: number;
    test: number;
    /** the vocabulary's size, <sos>, <eos> and <unk> included */
    vocabulary: number;
    /** the share of the validation sentences' tokens (the test sentences' when none are held out) read as <unk> */
    unknownShare: number;
  }>;
  /** ids are indices: <sos>, <eos>, <unk>, then the words, most frequent first */
  readonly vocabulary: readonly string[];
  /** the training sentences, and those held out, as given */
  readonly examples: readonly LabelledSentence[];
  readonly validation: readonly LabelledSentence[];
  readonly test: readonly LabelledSentence[];
  /** the tokens a model of the task reads `text` as (a word outside the vocabulary as itself) */
  tokenize(text: string): string[];
  /** the task as bytes, every split and the vocabulary as read: loadClassificationTask makes it
   * again without reading its text (a training run takes it so to its worker) */
  save(): Uint8Array;
  /** lets the engine forget the sentences; models made of the task keep their vocabulary and labels */
  dispose(): void;
}

/** What the classifiers take: their tasks, limits and defaults. */
export interface ClassifierFacts extends ModelFacts {
  tasks: readonly string[];
  languages: readonly ClassificationLanguage[];
  maxLabels: number;
  /** the longest sentence a classifier reads, in words */
  maxLength: number;
  /** the shuffles of α explain() takes the median change over */
  permutations: number;
  /** what createClassificationTask takes when not told, and its limits */
  text: Readonly<{
    defaults: Readonly<TextTaskDefaults & { labelColumn: number; unit: TokenUnit }>;
    minLabels: number;
    maxLabels: number;
    maxLabelColumn: number;
    /** the most bytes and sentences a text may hold (more is refused, never cut) */
    maxBytes: number;
    maxSentences: number;
    maxHeldOut: number;
    maxLength: number;
    maxVocabulary: number;
  }>;
  defaults: ModelFacts['defaults'] &
    Readonly<{
      task: string;
      language: ClassificationLanguage;
      encoder: ClassifierEncoder;
      attention: ClassifierAttention;
      embedding: number;
      hidden: number;
      /** the weight λ of the term that pulls α onto the rationale's words */
      rationale: number;
    }>;
}

export interface ClassifierOptions<P extends ModelPrecision = ModelPrecision> {
  /** 'reviews', or a task from the reader's sentences (createClassificationTask) or its id */
  task: 'reviews' | ClassificationTextTask | ClassificationTextTask['id'];
  /** the reviews' language, default 'en' (a task from text reads any: it is not used there) */
  language?: ClassificationLanguage;
  /** default 'bigru' */
  encoder?: ClassifierEncoder;
  /** default 'learned' */
  attention?: ClassifierAttention;
  /** the word embedding E, default 32 */
  embedding?: number;
  /** the states' width H (even: H/2 a direction), default 64; encoder 'none' has H = E */
  hidden?: number;
  /** numpy seed (0 … 2**32 - 1) of the task's split, the initial parameters, the shuffling and the
   * permutations; default 0 */
  seed?: number;
  /** default 'float32' */
  precision?: P;
}

/** A sentence as the model classifies it, every stage of it. */
export interface Classification<A extends Float32Array | Float64Array> {
  /** the likeliest label */
  label: string;
  /** one per label, in the task's order */
  probabilities: A;
  /** α over the words (summing to 1) */
  weights: A;
  /** the words as the model reads them */
  tokens: string[];
  /** the states h_j the attention pools: one row per word */
  states: Matrix<A>;
  /** the scores e_j before the softmax (0 for uniform attention) */
  scores: A;
}

/** How far α explains the prediction (Jain & Wallace 2019), of the predicted label's probability p. */
export interface Explanation {
  /** per word: p minus p of the sentence without that word */
  leaveOneOut: Float64Array;
  /** per word: the L2 norm of p's gradient with respect to its embedding */
  gradients: Float64Array;
  /** the median, over facts.permutations shuffles of α across the words, of p's change */
  permutation: number;
  /** Kendall's τ-b of α against each ranking; null when a ranking is constant (uniform attention's
   * α), where τ is undefined */
  tau: { leaveOneOut: number | null; gradients: number | null };
}

export interface ClassifierEvaluation {
  accuracy: number;
  /** the mean share of α on the rationale's words (a task that marks rationales) */
  rationaleShare?: number;
  /** the accuracy of always answering the training split's commonest label */
  majority: number;
  /** confusion[gold][predicted]: sentences, by the labels' indices */
  confusion: number[][];
  /** per category with sentences: their count and how many were right (a task from text's are all plain) */
  byCategory: { category: ReviewCategory; count: number; correct: number }[];
  /** the accuracy on the negation and contrast sentences; absent for a task from text */
  negationContrastAccuracy?: number;
}

/** A sentence classifier with attention pooling, and the task it learns. Call dispose() when done. */
export interface ClassifierModel<P extends ModelPrecision = ModelPrecision> extends ModelOf<
  'classifier',
  P,
  Required<ClassifierOptions<P>>,
  ClassifierEvaluation,
  'rationale',
  'train' | 'validation' | 'test'
> {
  /** the task's labels, in the order of the probabilities */
  readonly labels: readonly string[];
  /** the task the model learns */
  readonly task: Readonly<{
    id: string;
    /** the configuration's language (a task from text reads any) */
    language: ClassificationLanguage;
    labels: readonly string[];
    vocab: readonly string[];
    maxLength: number;
    /** whether its sentences mark a rationale */
    rationales: boolean;
  }>;
  /** a sentence's token ids as the model reads them (indices into task.vocab) */
  tokenize(sentence: string): number[];
  /** the mean cross-entropy of sentences with their labels, plus `rationale` (λ, default 0) times
   * the term that pulls α onto each given rationale's words, and its gradients; train()'s
   * `rationale` is the same λ (over the task's rationales) */
  gradients(
    examples: readonly (readonly [sentence: string, label: string, rationale?: readonly (0 | 1)[]])[],
    options?: { rationale?: number },
  ): { loss: number; gradients: Record<string, NamedTensor<PrecisionArray<P>>> };
  classify(sentence: string): Classification<PrecisionArray<P>>;
  /** the checks of α as an explanation, on a sentence of two words or more */
  explain(sentence: string): Explanation;
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
  /** the sentence as typed, two words or more, which the model's tokenizer reads (default "the
   * food was not good but the staff was lovely"), or its words (joined by spaces) */
  sentence?: string | readonly string[];
  /** a classifier of uniform attention on the same task, set beside the model */
  uniform?: ClassifierModel;
}

// This kind's entry in the public types (declaration merging: index.d.ts names no kind).
declare module './index.js' {
  interface ModelKinds {
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
      /** the fields its models are labelled by */
      label: { encoder?: ClassifierEncoder; attention?: ClassifierAttention };
      /** a kind of review with how many were measured */
      labels: { category: ReviewCategory; count: number };
      taskOptions: ClassificationTextTaskOptions;
      task: ClassificationTextTask;
    };
  }
  interface ModelWalkthroughInputs {
    sentiment: SentimentWalkthroughInputs;
  }
  interface AttentionEngine {
    /** A grammar's task (its id and language) as the text of its labelled sentences (training then
     * test, text<TAB>label a line), and the options that read it all, which
     * createClassificationTask takes. */
    classificationTaskSample(
      task: ClassificationTask['id'],
      language: ClassificationLanguage,
    ): { name: string; text: string; unit: TokenUnit; maxLength: number };
    /** What the classifiers take and do by default (read-only). */
    classifierFacts(): ClassifierFacts;
    /** The classification tasks, one entry per task and language (read-only; made on the first call). */
    classificationTasks(): readonly ClassificationTask[];
    /** A classification task of the reader's own labelled sentences (text<TAB>label a line), kept by
     * the engine until its dispose(); createClassifier({ task }) learns it. */
    createClassificationTask(options: ClassificationTextTaskOptions): ClassificationTextTask;
    /** The task of a task's bytes (its save()), kept as createClassificationTask keeps one; bytes
     * that are not such a task throw an Error whose `argument` is 'bytes'. */
    loadClassificationTask(bytes: Uint8Array | ArrayBuffer): ClassificationTextTask;
    /** A new sentence classifier with attention pooling for a task in a language (see
     * ClassifierOptions for the defaults). */
    createClassifier<P extends ModelPrecision = 'float32'>(options: ClassifierOptions<P>): ClassifierModel<P>;
  }
}
