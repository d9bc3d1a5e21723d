// Tokenizers read from a Hugging Face tokenizer.json (and its tokenizer_config.json, if given): byte-level BPE
// (GPT-2, Llama 3, Qwen2), SentencePiece-style BPE (Llama 2: ▁ for spaces, byte fallback) and WordPiece (BERT).
// @huggingface/tokenizers does the tokenizing: this module runs that library's normalizer, pre-tokenizer, model and
// post-processor one piece of text at a time, so that it knows where each token comes from, and adds what the
// library lacks: offsets into the input, the text each token stands for, and errors that name the argument.
// Where the library differs from the Rust tokenizers the models were trained with, this module follows Rust
// (each place says so).
import { Tokenizer } from '@huggingface/tokenizers';

const MODELS = ['BPE', 'WordPiece'];

// The conventional names of each role, for a tokenizer_config.json that does not name the role (or is not given).
const ROLES = {
  bos: ['<s>', '<|begin_of_text|>', '<bos>', '<|startoftext|>'],
  eos: ['</s>', '<|end_of_text|>', '<eos>', '<|endoftext|>'],
  unk: ['[UNK]', '<unk>'],
  pad: ['[PAD]', '<pad>'],
  mask: ['[MASK]', '<mask>'],
  cls: ['[CLS]'],
  sep: ['[SEP]'],
};

// A short text run through every tokenizer made, so that a file the library accepts but cannot use fails here.
const PROBE = 'Hello, world! 123 naïve 日本語 😀\t\n';

// transformers' Llama and Gemma tokenizers rebuild the post-processor from tokenizer_config.json's add_bos_token
// (default true) and add_eos_token (default false), whatever tokenizer.json says.
const REBUILDS_TEMPLATE = /^(Llama|CodeLlama|Gemma)Tokenizer(Fast)?$/;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// GPT-2's table of the printable characters byte-level tokens are written in, one per byte (Ġ is the space).
const BYTE_OF_CHAR = new Map();
for (let byte = 0, extra = 0; byte < 256; byte++) {
  const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || byte >= 0xae;
  BYTE_OF_CHAR.set(String.fromCharCode(printable ? byte : 256 + extra++), byte);
}

/** The bytes a byte-level token (or pre-token) is written for, or null if it has other characters. */
function bytesOfByteLevel(token) {
  const bytes = new Uint8Array(token.length);
  for (let i = 0; i < token.length; i++) {
    const byte = BYTE_OF_CHAR.get(token[i]);
    if (byte === undefined) return null;
    bytes[i] = byte;
  }
  return bytes;
}

/** Bad input: an Error (a TypeError for a value of the wrong kind) whose `argument` names the argument. */
function fail(message, argument, { type = false, cause } = {}) {
  const error = type ? new TypeError(message) : new Error(message);
  if (cause !== undefined) error.cause = cause;
  throw Object.assign(error, { argument });
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

function describe(value) {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
}

/** A JSON object given as an object, its text or its UTF-8 bytes. */
function jsonObject(value, argument) {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) value = fromUtf8.decode(value);
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (error) {
      fail(`${argument} is not JSON: ${error.message}`, argument, { cause: error });
    }
  }
  if (!isObject(value))
    fail(`${argument} must be a JSON object, its text or its bytes, got ${describe(value)}`, argument, { type: true });
  return value;
}

/** The parts of a normalizer, pre-tokenizer, post-processor or decoder of the given type, through its Sequences. */
function partsOf(config, type) {
  if (!isObject(config)) return [];
  const inner = config.normalizers ?? config.pretokenizers ?? config.processors ?? config.decoders;
  if (config.type === 'Sequence' && Array.isArray(inner)) return inner.flatMap((part) => partsOf(part, type));
  return config.type === type ? [config] : [];
}

/** What the library would trip over later (or silently get wrong), caught while the file is the argument. */
function checkTokenizerJson(json) {
  const bad = (what) => fail(`tokenizer: ${what}`, 'tokenizer');
  const { model } = json;
  if (!isObject(model)) bad('it has no model');
  if (!MODELS.includes(model.type))
    bad(`unsupported model type ${JSON.stringify(model.type)} (not ${MODELS.join(' or ')})`);
  if (!isObject(model.vocab)) bad('model.vocab must be an object of tokens and their ids');
  for (const id of Object.values(model.vocab)) if (!isId(id)) bad(`model.vocab has the id ${JSON.stringify(id)}`);
  if (model.type === 'BPE') {
    if (!Array.isArray(model.merges)) bad('model.merges must be an array');
    // Both forms of merges: "a b" (before 2024) and ["a", "b"] (since); the library takes the form of the first.
    const pairs = Array.isArray(model.merges[0]);
    const isMerge = pairs
      ? (merge) => Array.isArray(merge) && merge.length === 2 && merge.every((part) => typeof part === 'string')
      : (merge) => typeof merge === 'string' && merge.includes(' ');
    const wrong = model.merges.find((merge) => !isMerge(merge));
    if (wrong !== undefined)
      bad(`model.merges has ${JSON.stringify(wrong)} among merges of the form ${pairs ? '["a", "b"]' : '"a b"'}`);
  }
  const unk = model.unk_token;
  if (unk != null && !(typeof unk === 'string' && Object.hasOwn(model.vocab, unk)))
    bad(`model.unk_token ${JSON.stringify(unk)} is not in the vocabulary`);
  if (model.type === 'WordPiece' && unk == null) bad('a WordPiece model needs an unk_token');
  if (!Array.isArray(json.added_tokens)) bad('added_tokens must be an array');
  for (const token of json.added_tokens) {
    if (!isObject(token) || !isId(token.id) || typeof token.content !== 'string' || token.content === '') {
      bad(`added_tokens has ${JSON.stringify(token)?.slice(0, 80)}`);
    }
  }
  for (const key of ['normalizer', 'pre_tokenizer', 'post_processor', 'decoder']) {
    if (json[key] !== null && !(isObject(json[key]) && typeof json[key].type === 'string'))
      bad(`${key} must be null or have a type`);
  }
}

const isId = (id) => Number.isInteger(id) && id >= 0 && id < 2 ** 31;

/** The content of a token named in tokenizer_config.json: a string, or an object with its content. */
const contentOf = (token) =>
  typeof token === 'string' ? token : isObject(token) && typeof token.content === 'string' ? token.content : null;

/** The post-processor transformers' Llama and Gemma tokenizers build from add_bos_token and add_eos_token. */
function llamaTemplate(config, json) {
  const bos = (config.add_bos_token ?? true) && contentOf(config.bos_token);
  const eos = (config.add_eos_token ?? false) && contentOf(config.eos_token);
  for (const token of [bos, eos]) {
    const known =
      token && (Object.hasOwn(json.model.vocab, token) || json.added_tokens.some((t) => t.content === token));
    if (token && !known)
      fail(`tokenizerConfig: its token ${JSON.stringify(token)} is not in the tokenizer`, 'tokenizerConfig');
  }
  const special = (id, type_id) => ({ SpecialToken: { id, type_id } });
  const around = (sequence, type_id) => [
    ...(bos ? [special(bos, type_id)] : []),
    { Sequence: { id: sequence, type_id } },
    ...(eos ? [special(eos, type_id)] : []),
  ];
  const special_tokens = {};
  for (const token of [bos, eos]) if (token) special_tokens[token] = { id: token, ids: [], tokens: [token] };
  return {
    type: 'TemplateProcessing',
    single: around('A', 0),
    pair: [...around('A', 0), ...around('B', 1)],
    special_tokens,
  };
}

/** Leftmost-longest matches of the given strings, as the library's own splitter finds them. */
function matcher(contents) {
  if (contents.length === 0) return null;
  const escaped = [...contents]
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(escaped.join('|'), 'g');
}

/** Splits text at the added tokens a matcher finds: [{ start, end, token }] with token null between them. */
function splitAdded(text, found, tokenOf) {
  const pieces = [];
  let at = 0;
  for (const match of found ? text.matchAll(found) : []) {
    pieces.push({ start: at, end: match.index, token: null });
    pieces.push({ start: match.index, end: match.index + match[0].length, token: tokenOf.get(match[0]) });
    at = match.index + match[0].length;
  }
  pieces.push({ start: at, end: text.length, token: null });
  // An added token with lstrip or rstrip takes the whitespace beside it (the library's trimEnd and trimStart).
  pieces.forEach((piece, i) => {
    if (piece.token?.lstrip && i > 0)
      pieces[i - 1].end = pieces[i - 1].start + text.slice(pieces[i - 1].start, pieces[i - 1].end).trimEnd().length;
    if (piece.token?.rstrip && i + 1 < pieces.length) {
      const next = pieces[i + 1];
      next.start = next.end - text.slice(next.start, next.end).trimStart().length;
    }
  });
  return pieces.filter((piece) => piece.token !== null || piece.end > piece.start);
}

/**
 * Where each UTF-16 unit of normalize(text) comes from in text: [from, to) ranges, found by normalizing one
 * character at a time after the one before it, which keeps what a normalizer adds once (Prepend's ▁) or around a
 * character (BERT's spaces around CJK) with that character, and what it removes (an accent) with none. Characters
 * that normalize only together (e and a combining accent under NFC, a Hangul syllable's jamo) are taken together;
 * if the pieces still do not add up to the whole, every unit comes from the whole text.
 */
function alignment(text, normalized, normalize) {
  const from = new Int32Array(normalized.length);
  const to = new Int32Array(normalized.length).fill(text.length);
  if (normalized === text) {
    for (let i = 0; i < text.length; i++) [from[i], to[i]] = [i, i + 1];
    return { from, to };
  }
  const units = [];
  const outOf = (index) => {
    const unit = units[index];
    const own = text.slice(unit.start, unit.end);
    if (index === 0) return normalize(own);
    const before = text.slice(units[index - 1].start, units[index - 1].end);
    const [alone, both] = [normalize(before), normalize(before + own)];
    return both.startsWith(alone) ? both.slice(alone.length) : null;
  };
  let at = 0;
  for (const char of text) {
    units.push({ start: at, end: (at += char.length), out: null });
    let index = units.length - 1;
    while ((units[index].out = outOf(index)) === null) {
      units[index - 1].end = units[index].end;
      units.splice(index--, 1);
    }
  }
  if (units.map((unit) => unit.out).join('') !== normalized) return { from, to };
  let position = 0;
  for (const unit of units) {
    from.fill(unit.start, position, position + unit.out.length);
    to.fill(unit.end, position, position + unit.out.length);
    position += unit.out.length;
  }
  return { from, to };
}

/** The UTF-8 length of a character, from its code point or its lead byte (0: not a lead byte). */
function utf8Length(codePoint, isByte = false) {
  if (codePoint < 0x80) return 1;
  if (isByte)
    return codePoint >= 0xc2 && codePoint < 0xe0
      ? 2
      : codePoint >= 0xe0 && codePoint < 0xf0
        ? 3
        : codePoint >= 0xf0 && codePoint < 0xf5
          ? 4
          : 0;
  return codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** A token's bytes shown as text: whole UTF-8 characters as themselves, the bytes of a partial one as <0xNN>. */
function bytesAsText(bytes) {
  try {
    return strictUtf8.decode(bytes); // whole characters only: the usual case
  } catch {
    // some of the bytes are part of a character
  }
  let text = '';
  for (let i = 0; i < bytes.length;) {
    const length = utf8Length(bytes[i], true);
    let char = null;
    try {
      if (length > 0 && i + length <= bytes.length) char = strictUtf8.decode(bytes.subarray(i, i + length));
    } catch {
      // not a whole character
    }
    text += char ?? `<0x${bytes[i].toString(16).toUpperCase().padStart(2, '0')}>`;
    i += char === null ? 1 : length;
  }
  return text;
}

/** For each byte of the UTF-8 of text: the character it is in, text.slice(start, end), and that character's length. */
function charsOfBytes(text) {
  const total = utf8.encode(text).length;
  const [start, end, bytes] = [new Int32Array(total), new Int32Array(total), new Int32Array(total)];
  for (let j = 0, k = 0; j < text.length;) {
    const codePoint = text.codePointAt(j);
    const [units, length] = [codePoint > 0xffff ? 2 : 1, utf8Length(codePoint)];
    start.fill(j, k, k + length);
    end.fill(j + units, k, k + length);
    bytes.fill(length, k, k + length);
    [j, k] = [j + units, k + length];
  }
  return { total, start, end, bytes };
}

/**
 * A tokenizer from a tokenizer.json (an object, its text or its bytes) and, optionally, its tokenizer_config.json.
 * @returns {Promise<{
 *   tokenize(text: string, pair?: string): { ids: Int32Array, tokens: string[], offsets: [number, number][],
 *     special: boolean[], tokenTypes: Int32Array, sequence: Int8Array },
 *   decode(ids: ArrayLike<number>): string, tokensOf(ids: ArrayLike<number>): string[], everyToken(): string[],
 *   vocabularySize: number, maxId: number, specialIds: Record<string, number | null>,
 *   maskId: number | undefined, endIds: readonly number[],
 * }>}
 * A token's offsets are UTF-16 indices into the text it comes from: `sequence` is 0 for `text`, 1 for `pair`
 * and -1 for a token the post-processor adds ([CLS], <s>: offsets [0, 0]). A token that holds part of a
 * character's bytes has that whole character's offsets.
 */
export async function createPretrainedTokenizer(tokenizerJson, tokenizerConfig) {
  const json = { normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [] };
  Object.assign(json, jsonObject(tokenizerJson, 'tokenizer'));
  const config = tokenizerConfig == null ? {} : jsonObject(tokenizerConfig, 'tokenizerConfig');
  checkTokenizerJson(json);
  if (REBUILDS_TEMPLATE.test(config.tokenizer_class ?? '')) json.post_processor = llamaTemplate(config, json);
  let library;
  try {
    library = new Tokenizer(json, config);
  } catch (error) {
    fail(`tokenizer: ${error.message}`, 'tokenizer', { cause: error });
  }
  const tokenizer = wrap(library, json, config);
  try {
    tokenizer.decode(tokenizer.tokenize(PROBE, PROBE).ids);
  } catch (error) {
    fail(`tokenizer: it cannot tokenize (${error.message})`, 'tokenizer', { cause: error });
  }
  return tokenizer;
}

function wrap(library, json, config) {
  const { model } = json;
  const byteLevel = partsOf(json.pre_tokenizer, 'ByteLevel').length + partsOf(json.decoder, 'ByteLevel').length > 0;
  const metaspace = partsOf(json.pre_tokenizer, 'Metaspace')[0];
  // The character that stands for a space: Metaspace's, or what a normalizer replaces spaces with (Llama 2).
  const spaceReplaced = partsOf(json.normalizer, 'Replace').find((part) => part.pattern?.String === ' ')?.content;
  const spaceChar = metaspace ? (metaspace.replacement ?? '▁') : spaceReplaced;
  const prefix = model.type === 'WordPiece' ? (model.continuing_subword_prefix ?? '##') : '';
  const suffix = model.type === 'BPE' ? (model.end_of_word_suffix ?? '') : '';
  const unk = model.unk_token ?? null;
  const trimOffsets = ['ByteLevel', 'RobertaProcessing'].some((type) =>
    partsOf(json.post_processor, type).some((part) => part.trim_offsets),
  );

  // Lowercasing: the library's String.prototype.toLowerCase turns a word-final Σ into ς, Rust lowercases
  // character by character (σ). BERT's CJK characters outside the BMP: the library looks at UTF-16 units and
  // misses them, Rust puts spaces around them as around the others.
  const lowercases =
    partsOf(json.normalizer, 'Lowercase').length > 0 ||
    partsOf(json.normalizer, 'BertNormalizer').some((part) => part.lowercase);
  const cjkSpaced = partsOf(json.normalizer, 'BertNormalizer').some((part) => part.handle_chinese_chars);
  const normalize =
    library.normalizer &&
    ((text) => {
      if (lowercases) text = text.replaceAll('Σ', 'σ');
      if (cjkSpaced) text = text.replace(/[\u{20000}-\u{2A6DF}\u{2A700}-\u{2CEAF}\u{2F800}-\u{2FA1F}]/gu, ' $& ');
      return library.normalizer(text);
    });

  // Metaspace with split (the default): Rust splits at each ▁, keeping it with the word after it; the library
  // does not split.
  const splitMetaspace = metaspace && (metaspace.split ?? true) ? (piece) => piece.split(/(?=▁)/u) : (piece) => [piece];
  const preTokenize = (text, index) =>
    (library.pre_tokenizer ? library.pre_tokenizer(text, { section_index: index }) : [text]).flatMap(splitMetaspace);

  const added = json.added_tokens.map((token) => ({ ...token, normalized: token.normalized ?? !token.special }));
  const addedByContent = new Map(added.map((token) => [token.content, token]));
  const normalizedAdded = new Map(
    library.normalizer
      ? added.filter((token) => token.normalized).map((token) => [normalize(token.content), token])
      : [],
  );
  const findAdded = matcher(
    added.filter((token) => !token.normalized || !library.normalizer).map((token) => token.content),
  );
  const findNormalizedAdded = matcher([...normalizedAdded.keys()]);
  const specialIds = new Set(added.filter((token) => token.special).map((token) => token.id));

  const idOf = (token) => library.token_to_id(token);
  const unkId = unk === null ? undefined : idOf(unk);
  const ids = [...Object.values(model.vocab), ...added.map((token) => token.id)];
  const maxId = ids.reduce((max, id) => Math.max(max, id), -1);
  const vocabularySize = new Set(ids).size;

  /** A token's bytes, as its place in the text is measured: Ġ and <0xNN> as bytes, ## and </w> left out. */
  function bytesOf(token, first, last) {
    const byteLevelBytes = byteLevel && bytesOfByteLevel(token);
    if (byteLevelBytes) return byteLevelBytes;
    if (model.byte_fallback && /^<0x[0-9A-F]{2}>$/.test(token)) return Uint8Array.of(parseInt(token.slice(3, 5), 16));
    if (!first && prefix && token.startsWith(prefix)) token = token.slice(prefix.length);
    if (last && suffix && token.endsWith(suffix)) token = token.slice(0, -suffix.length);
    return utf8.encode(token);
  }

  /** The text a token stands for. */
  function shown(token, bytes, isAdded) {
    if (isAdded) return token;
    if (byteLevel || (model.byte_fallback && /^<0x[0-9A-F]{2}>$/.test(token))) return bytesAsText(bytes);
    const text = fromUtf8.decode(bytes);
    return spaceChar ? text.replaceAll(spaceChar, ' ') : text;
  }

  /**
   * The tokens of one pre-token, found at `start` in the normalized text, with their [start, end) there. `needle`
   * is the pre-token as text (byte-level characters decoded); `virtual` is 1 when the pre-tokenizer put a space
   * or ▁ before it that the text does not have.
   */
  function placePiece(piece, needle, start, virtual, out) {
    const tokens = library.model([piece]);
    const bytes = tokens.map((token, i) => bytesOf(token, i === 0, i === tokens.length - 1));
    const { total, start: charStart, end: charEnd, bytes: charBytes } = charsOfBytes(needle);
    // Each token takes as many bytes as it stands for; an unknown token what the others leave (WordPiece's [UNK]:
    // the whole word) or, of several in a BPE word, one character each but the last.
    const lengths = bytes.map((b) => b.length);
    const unknown = tokens.flatMap((token, i) => (token === unk ? [i] : []));
    const sum = () => lengths.reduce((a, b) => a + b, 0);
    if (unknown.length > 0) {
      let at = 0;
      tokens.forEach((token, i) => {
        if (token === unk) lengths[i] = i !== unknown.at(-1) && at < total ? charBytes[at] : 0;
        at += lengths[i];
      });
      lengths[unknown.at(-1)] = Math.max(0, total - sum());
    }
    const exact = sum() === total;
    const place = (index) => Math.max(start, start + index - virtual);
    const leadBytes = virtual ? charBytes[0] : 0;
    let at = 0;
    tokens.forEach((token, i) => {
      let range = [start, place(needle.length)]; // the whole pre-token, if its tokens do not add up to it
      if (exact && lengths[i] > 0) {
        let end = charEnd[at + lengths[i] - 1];
        // What the pre-tokenizer put before the text stands, alone, for the character after it (as in Rust).
        if (end <= virtual && leadBytes < total) end = charEnd[leadBytes];
        range = [place(charStart[at]), place(end)];
      }
      at += lengths[i];
      out.push({ token, bytes: bytes[i], range, added: false });
    });
  }

  /** The tokens of a text (before the post-processor), each with its [start, end) in the text. */
  function encodeText(text) {
    const out = [];
    splitAdded(text, findAdded, addedByContent).forEach((section, index) => {
      if (section.token) {
        out.push({ token: section.token.content, bytes: null, range: [section.start, section.end], added: true });
        return;
      }
      const original = text.slice(section.start, section.end);
      const normalized = normalize ? normalize(original) : original;
      const { from, to } = alignment(original, normalized, normalize);
      const back = ([start, end]) =>
        start >= end
          ? [section.start + (from[start] ?? original.length), section.start + (from[start] ?? original.length)]
          : [section.start + from[start], section.start + to[end - 1]];
      const mark = out.length;
      for (const part of splitAdded(normalized, findNormalizedAdded, normalizedAdded)) {
        if (part.token) {
          out.push({ token: part.token.content, bytes: null, range: [part.start, part.end], added: true });
          continue;
        }
        const sub = normalized.slice(part.start, part.end);
        // Pre-tokens are found in the normalized text as they write it: Metaspace's ▁ for spaces, byte-level
        // characters decoded back to text.
        const space = metaspace ? sub.replaceAll(' ', spaceChar) : sub;
        const lead = metaspace ? spaceChar : byteLevel ? ' ' : null;
        let cursor = 0;
        preTokenize(sub, index).forEach((piece, n) => {
          const needle = byteLevel ? fromUtf8.decode(bytesOfByteLevel(piece) ?? utf8.encode(piece)) : piece;
          let at = space.indexOf(needle, cursor);
          let virtual = 0;
          if (n === 0 && lead && needle.startsWith(lead)) {
            const bare = space.indexOf(needle.slice(lead.length), cursor);
            if (bare >= 0 && (at < 0 || bare < at)) [at, virtual] = [bare, lead.length];
          }
          if (at < 0) at = cursor; // not found (a pre-tokenizer that rewrites text): offsets from here on are rough
          placePiece(piece, needle, part.start + at, virtual, out);
          cursor = Math.max(cursor, at + needle.length - virtual);
        });
      }
      for (let i = mark; i < out.length; i++) out[i].range = back(out[i].range);
    });
    return out;
  }

  function tokenize(text, pair) {
    if (typeof text !== 'string') fail(`text must be a string, got ${describe(text)}`, 'text', { type: true });
    if (pair != null && typeof pair !== 'string')
      fail(`pair must be a string, got ${describe(pair)}`, 'pair', { type: true });
    // A lone surrogate reaches Rust (and so the model) as U+FFFD: the library would take it as three bytes.
    const texts = [text, pair].map((t) => (t == null ? null : (t.toWellFormed?.() ?? t.replace(/\p{Cs}/gu, '\uFFFD'))));
    const pieces = texts.map((t) => (t == null ? null : encodeText(t)));
    // The library's post-processor arranges markers of the pieces, so that each place is known to be a piece of
    // the text, of the pair or one the post-processor adds. The library's ByteLevel post-processor drops a pair:
    // Rust appends it.
    const markers = pieces.map((list, s) => list && list.map((_, i) => `\u0000${s}:${i}`));
    const arranged = library.post_processor
      ? library.post_processor(markers[0], markers[1], true)
      : { tokens: [...markers[0], ...(markers[1] ?? [])] };
    const order = [...arranged.tokens, ...(arranged.token_type_ids ? [] : (arranged.tokens_pair ?? []))];
    const n = order.length;
    const result = {
      ids: new Int32Array(n),
      tokens: new Array(n),
      offsets: new Array(n),
      special: new Array(n),
      tokenTypes: new Int32Array(n),
      sequence: new Int8Array(n),
    };
    order.forEach((marker, i) => {
      const [s, index] = marker.startsWith('\u0000') ? marker.slice(1).split(':').map(Number) : [-1, -1];
      const piece = s >= 0 ? pieces[s][index] : { token: marker, bytes: null, range: [0, 0], added: true };
      const id = idOf(piece.token) ?? unkId;
      if (id === undefined) throw new Error(`the token ${JSON.stringify(piece.token)} has no id`);
      result.ids[i] = id;
      result.tokens[i] = shown(piece.token, piece.bytes, piece.added);
      result.offsets[i] = trimOffsets && s >= 0 ? trimmed(texts[s], piece.range) : piece.range;
      result.special[i] = s < 0 || specialIds.has(id);
      result.sequence[i] = s;
      result.tokenTypes[i] = arranged.token_type_ids?.[i] ?? (s >= 0 ? s : i > 0 ? result.tokenTypes[i - 1] : 0);
    });
    return result;
  }

  /** Token ids, checked: each an id of the vocabulary. */
  function idList(ids) {
    const list = Array.isArray(ids) || (ArrayBuffer.isView(ids) && !(ids instanceof DataView)) ? Array.from(ids) : null;
    if (list === null) fail(`ids must be an array of token ids, got ${describe(ids)}`, 'ids', { type: true });
    const wrong = list.findIndex((id) => !isId(id) || library.id_to_token(id) === undefined);
    if (wrong >= 0) fail(`ids[${wrong}] is ${String(list[wrong])}, not an id of the vocabulary (0 to ${maxId})`, 'ids');
    return list;
  }

  function decode(ids) {
    const list = idList(ids);
    if (list.length === 0) return '';
    // clean_up_tokenization_spaces as tokenizer_config.json says (transformers' default now: false, which keeps
    // decode(tokenize(text).ids) the text for the lossless tokenizers).
    return library.decode(list, {
      skip_special_tokens: false,
      clean_up_tokenization_spaces: config.clean_up_tokenization_spaces ?? false,
    });
  }

  /** Each id's token as the text it stands for, as tokenize shows it (a WordPiece piece after a word's first). */
  const addedIds = new Set(added.map((token) => token.id));
  function tokensOf(ids) {
    return idList(ids).map((id) => {
      const token = library.id_to_token(id);
      return addedIds.has(id) ? token : shown(token, bytesOf(token, false, true), false);
    });
  }

  /** Every id's token from 0 to maxId as tokensOf shows it ("#id" for an id of no token). */
  const everyToken = () =>
    Array.from({ length: maxId + 1 }, (_, id) =>
      library.id_to_token(id) === undefined ? `#${id}` : tokensOf([id])[0],
    );

  const roles = {};
  for (const [role, names] of Object.entries(ROLES)) {
    const key = `${role}_token`;
    const named = Object.hasOwn(config, key) ? contentOf(config[key]) : role === 'unk' ? unk : undefined;
    const content =
      named !== undefined
        ? named
        : names.find((name) => added.some((token) => token.special && token.content === name));
    roles[role] = content == null ? null : (idOf(content) ?? null);
  }

  return Object.freeze({
    tokenize,
    decode,
    tokensOf,
    everyToken,
    vocabularySize,
    maxId,
    specialIds: Object.freeze(roles),
    // for a masked-LM head and for generation: the [MASK] token's id, and the ids that end a text
    maskId: roles.mask ?? undefined,
    endIds: Object.freeze(roles.eos === null ? [] : [roles.eos]),
  });
}

/** Offsets without the spaces at their ends, as Rust's trim_offsets gives them (never narrower than empty). */
function trimmed(text, [start, end]) {
  while (start < end && text[start] === ' ') start++;
  while (end > start && text[end - 1] === ' ') end--;
  return [start, end];
}
