// Types of translation tasks from the reader's own text (createTranslationTask), which the
// translation kinds (seq2seq, the Transformer) learn as they learn the grammars' tasks.
import type { Seq2seqTask } from './seq2seq-types.js';

export type TokenUnit = 'word' | 'character';

/** What every task from the reader's text takes (createTranslationTask's pairs,
 * createClassificationTask's labelled sentences), besides its own options. */
export interface TextTaskOptions {
  /** the task's name, the start of its id (default 'pairs' or 'sentences'): 1 to 60 bytes without
   * spaces, / or \ */
  name?: string;
  /**
   * the name of the file the text came from: the task is named after it unless `name` is given
   * (without its folders and extension, each run of whitespace a "-", at most 40 bytes:
   * "eng-fra.txt" → "eng-fra")
   */
  file?: string;
  /** lower-case every token (default true) */
  lowercase?: boolean;
  /** a word seen fewer times in the training lines is <unk> (default 2) */
  minCount?: number;
  /** the most frequent words kept (on each side of pairs; default 10000) */
  maxVocabulary?: number;
  /** lines longer than this many tokens (on either side of pairs) are dropped (default 20, at most 100) */
  maxLength?: number;
  /** the lines held out for validation and for testing, never trained on: a share below 0.5 or a
   * number of lines (default 0.05 each, at most 1000) */
  validation?: number;
  test?: number;
  /** numpy seed of which lines are held out (default 0) */
  seed?: number;
}

/** The defaults of TextTaskOptions, as facts say them. */
export interface TextTaskDefaults {
  name: string;
  lowercase: boolean;
  minCount: number;
  maxVocabulary: number;
  maxLength: number;
  validation: number;
  test: number;
  seed: number;
}

export interface TranslationTaskOptions extends TextTaskOptions {
  /** the text: one pair a line, source<TAB>target, further columns ignored unless one holds gold
   * links; a string, or a file's bytes (which must be UTF-8) */
  text?: string | Uint8Array | ArrayBuffer;
  /** or the pairs themselves: [source, target] or [source, target, alignment] */
  pairs?: ([source: string, target: string] | [source: string, target: string, alignment: string])[];
  /** which of the first two columns is the source, 0 (default) or 1 */
  sourceColumn?: 0 | 1;
  /** the column of gold links in Pharaoh's form ("0-0 1-2 2?1": source-target token positions,
   * "?" a possible link); default: the third column when its first line holds such links; null: none */
  alignmentColumn?: number | null;
  /** what a token is, on both sides or each: words and punctuation (default; scripts written
   * without spaces, as Chinese, Japanese and Thai, a character a token) or every character */
  unit?: TokenUnit | { source?: TokenUnit; target?: TokenUnit };
}

/** A translation task from text, kept by the engine until dispose(). createModel({ kind, task })
 * takes it (or its id) as it takes a grammar task's id. */
export interface TranslationTask {
  /** name-hash: the task's identity, which models made of it carry in config.task */
  readonly id: string;
  readonly name: string;
  /** 16 hex digits of the hash of the text and options */
  readonly hash: string;
  readonly settings: Readonly<{
    unit: { source: TokenUnit; target: TokenUnit };
    lowercase: boolean;
    maxLength: number;
    /** whether the text gave gold links (AER is measured only then) */
    goldLinks: boolean;
  }>;
  readonly stats: Readonly<{
    /** pairs kept, in all splits */
    pairs: number;
    /** pairs dropped, by reason: empty, sourceTooLong, targetTooLong */
    dropped: Readonly<Record<string, number>>;
    train: number;
    validation: number;
    test: number;
    /** vocabulary sizes, <sos>, <eos> and <unk> included */
    sourceVocabulary: number;
    targetVocabulary: number;
    /** the share of the validation pairs' tokens (the test pairs' when none are held out) read as <unk> */
    unknownShare: number;
  }>;
  /** both vocabularies (ids are indices: <sos>, <eos>, <unk>, then the words, most frequent first) */
  readonly vocabulary: Readonly<{ source: readonly string[]; target: readonly string[] }>;
  /** the held-out pairs as given */
  readonly validation: readonly (readonly [source: string, target: string])[];
  readonly test: readonly (readonly [source: string, target: string])[];
  /** the tokens a model of the task reads `text` as (a word outside the vocabulary as itself) */
  tokenize(text: string, side?: 'source' | 'target'): string[];
  /** the task as bytes, every split and vocabulary as read: loadTranslationTask makes it again
   * without reading its text (a training run takes it so to its worker) */
  save(): Uint8Array;
  /** lets the engine forget the pairs (once every task object of its id has been disposed);
   * models made of the task keep their vocabularies */
  dispose(): void;
}

export interface TranslationTaskFacts {
  defaults: Readonly<TextTaskDefaults & { sourceColumn: number; unit: TokenUnit }>;
  /** the most bytes and pairs a text may hold (more is refused, never cut) */
  maxBytes: number;
  maxPairs: number;
  /** the most pairs each held-out split takes, the longest maxLength and the largest maxVocabulary */
  maxHeldOut: number;
  maxLength: number;
  maxVocabulary: number;
  /** the grammars' tasks translationTaskSample gives as text */
  samples: readonly string[];
}

// The reader's translation tasks in the public types (declaration merging: index.d.ts names no kind).
declare module './index.js' {
  interface AttentionEngine {
    /** A translation task of the reader's own pairs, which createModel({ kind: 'seq2seq' or
     * 'transformer', task }) takes. Bad text or options throw an Error whose `argument` names the
     * option ('pairs' for the text, with the first lines at fault). */
    createTranslationTask(options: TranslationTaskOptions): TranslationTask;
    /** The task of a task's bytes (its save()), kept as createTranslationTask keeps one; bytes that
     * are not such a task throw an Error whose `argument` is 'bytes'. */
    loadTranslationTask(bytes: Uint8Array | ArrayBuffer): TranslationTask;
    /** A grammar's task as text, one pair a line with its gold links (Pharaoh's form, positions of
     * the tokens createTranslationTask reads), and the options that read it all. */
    translationTaskSample(task: Seq2seqTask['id']): { name: string; text: string; unit: TokenUnit; maxLength: number };
    /** What tasks from text take when not told, and their limits (read-only). */
    translationTaskFacts(): TranslationTaskFacts;
  }
}
