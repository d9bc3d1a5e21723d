// A pretrained checkpoint's model methods over the engine's (pretrained.js loads the checkpoint):
// text or ids in, its tokenizer's tokens, every head's attention, one head's steps and generation.
// A module of its own, with the tokenizer (pretrained-tokenizer.js) and @huggingface/tokenizers
// inside (scripts/build.sh), which only loadPretrained imports: a page without a checkpoint never
// downloads it.
import { deepFreeze, describe, fail, integer, options } from './checks.js';

export { createPretrainedTokenizer } from './pretrained-tokenizer.js';
// a checkpoint's files found in a folder or fetched from its URL (only loadPretrained needs them)
export { checkpointFromFiles, checkpointFromUrl } from './pretrained-files.js';

// What run() and trace() read besides the input: BERT's second text or token types, and the mask.
const INPUT_OPTIONS = ['pair', 'tokenTypes', 'attentionMask'];

// Rows of a matrix as a matrix of their own (null for none).
function rowsOf(matrix, rows) {
  if (!matrix || rows.length === 0) return null;
  const data = new matrix.data.constructor(rows.length * matrix.cols);
  rows.forEach((row, i) => data.set(matrix.data.subarray(row * matrix.cols, (row + 1) * matrix.cols), i * matrix.cols));
  return { rows: rows.length, cols: matrix.cols, data };
}
const lastRow = (matrix) => rowsOf(matrix, [matrix.rows - 1]);

// The next task of the event loop, so that a page draws between two tokens: a message, not a
// timer, which browsers hold back 4 ms once timers nest five deep (a token at a time would).
function nextTask() {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * The methods of a model of `info` (the engine's) over `call` and `live()` (its handle), with the
 * checkpoint's `tokenizer` (or null: ids only).
 */
export function pretrainedMethods(call, info, live, tokenizer) {
  const config = deepFreeze({ ...info.config, head: info.head === 'none' ? null : info.head });
  const needTokenizer = () =>
    tokenizer ?? fail('this model was loaded without a tokenizer: give ids, or load it with one', 'tokenizer');
  // a row of an embedding table padded past the tokenizer's vocabulary is no token's: null
  const tokenOf = (id) => (tokenizer && id <= tokenizer.maxId ? tokenizer.tokensOf([id])[0] : null);
  const idsOf = (input, name) => {
    if (input instanceof Int32Array) return input;
    if (Array.isArray(input)) return Int32Array.from(input, (id, i) => integer(id, `${name}[${i}]`, 0, 2 ** 31 - 1));
    return fail(`${name} must be text or an array of token ids, got ${describe(input)}`, name);
  };
  // The tokens of `input` (text, or ids) with a second text (BERT's sentence B), or for ids
  // their token types.
  const read = (input, { pair, tokenTypes }) => {
    if (typeof input === 'string') {
      if (tokenTypes !== undefined)
        fail('token types come with text from its pair: give ids to give them', 'tokenTypes');
      const tokens = needTokenizer().tokenize(input, pair);
      // a tokenizer types every token (0 but a pair's second text); a model without types reads none
      return config.tokenTypes ? tokens : { ...tokens, tokenTypes: undefined };
    }
    if (pair !== undefined) fail('a pair is read with text: give the first text as text too', 'pair');
    const ids = idsOf(input, 'input');
    return {
      ids,
      tokens: tokenizer ? Array.from(ids, tokenOf) : null,
      tokenTypes: tokenTypes === undefined ? undefined : idsOf(tokenTypes, 'tokenTypes'),
    };
  };
  let generating = false;
  const maskPositions = (ids) =>
    tokenizer?.maskId === undefined ? [] : [...ids.keys()].filter((i) => ids[i] === tokenizer.maskId);
  const maskOf = (mask, length) => {
    if (mask === undefined) return null;
    const values = idsOf(mask, 'attentionMask');
    if (values.length !== length)
      fail(`attentionMask has ${values.length} values for ${length} tokens`, 'attentionMask');
    return values;
  };
  return {
    family: config.family,
    config,
    tokenize: (text, pair) => needTokenizer().tokenize(text, pair),
    decode: (ids) => needTokenizer().decode(ids),
    run(input, opts) {
      const o = options(opts, 'options', [...INPUT_OPTIONS, 'attentions', 'hiddenStates', 'logits', 'topK']);
      const tokens = read(input, o);
      const asked = o.logits === undefined ? 'last' : o.logits === false ? 'none' : o.logits;
      if (!['last', 'all', 'none'].includes(asked))
        fail(`options.logits must be 'last', 'all' or false, got ${describe(o.logits)}`, 'options.logits');
      const topK = integer(o.topK ?? 10, 'options.topK', 1, 2 ** 31);
      // the masked-LM head's logits are of the [MASK] tokens, its top of the first
      const masks = config.head === 'mlm' ? maskPositions(tokens.ids) : [];
      const logits = config.head === 'mlm' && asked === 'last' ? (masks.length ? 'all' : 'none') : asked;
      const topRow = config.head === 'lm' && logits !== 'none' ? (logits === 'all' ? tokens.ids.length - 1 : 0) : -1;
      const out = call(
        'pretrainedRun',
        live(),
        tokens.ids,
        tokens.tokenTypes ?? null,
        maskOf(o.attentionMask, tokens.ids.length),
        o.attentions ?? true,
        o.hiddenStates ?? false,
        logits,
        topK,
        config.head === 'mlm' ? (masks[0] ?? -1) : topRow,
      );
      const named = (top) => top?.map(({ id, probability }) => ({ token: tokenOf(id), id, probability })) ?? null;
      return {
        ids: tokens.ids,
        tokens: tokens.tokens,
        attentions: o.attentions === false ? null : out.attentions,
        hiddenStates: o.hiddenStates ? out.hiddenStates : null,
        logits: config.head === 'mlm' && asked === 'last' ? rowsOf(out.logits, masks) : out.logits,
        top: named(out.top),
      };
    },
    async generate(prompt, opts) {
      const o = options(opts, 'options', ['maxTokens', 'temperature', 'topK', 'seed', 'stopAtEnd', 'onStep']);
      if (config.head !== 'lm') fail(`a ${config.family} model without an LM head does not generate`, 'model');
      if (generating) fail('this model is generating already: await that first', 'model');
      const { ids } = read(prompt, {});
      const maxTokens = integer(o.maxTokens ?? 20, 'options.maxTokens', 1, 2 ** 31);
      if (ids.length + maxTokens > config.positions)
        fail(
          `${ids.length} prompt tokens and ${maxTokens} more are more than the model's ${config.positions} positions`,
          'options.maxTokens',
        );
      const temperature = o.temperature ?? 0;
      const topK = integer(o.topK ?? 0, 'options.topK', 0, 2 ** 31);
      const seed = integer(o.seed ?? 0, 'options.seed', 0, 2 ** 32 - 1);
      if (o.onStep !== undefined && typeof o.onStep !== 'function')
        fail(`options.onStep must be a function, got ${describe(o.onStep)}`, 'options.onStep');
      const ends = new Set(o.stopAtEnd === false ? [] : [...info.config.endTokens, ...(tokenizer?.endIds ?? [])]);
      const steps = [];
      generating = true;
      try {
        let next = ids;
        while (steps.length < maxTokens) {
          const step = call(
            'pretrainedGenerateStep',
            live(),
            next,
            steps.length === 0,
            seed,
            temperature,
            topK,
            !!o.onStep,
          );
          const entry = { id: step.id, token: tokenOf(step.id), probability: step.probability };
          steps.push(entry);
          // the attention of the token whose logits chose this one: the last row of each head
          o.onStep?.({ ...entry, attentions: step.attentions.map((heads) => heads.map(lastRow)) });
          if (ends.has(step.id)) break;
          next = Int32Array.of(step.id);
          await nextTask(); // the page draws between tokens
        }
      } finally {
        generating = false;
      }
      const generated = Int32Array.from(steps, (step) => step.id);
      return { ids: generated, tokens: steps.map((step) => step.token), steps };
    },
    trace(input, opts) {
      const o = options(opts, 'options', [...INPUT_OPTIONS, 'layer', 'head']);
      const tokens = read(input, o);
      const layer = integer(o.layer ?? 0, 'layer', 0, 2 ** 31);
      const head = integer(o.head ?? 0, 'head', 0, 2 ** 31);
      return call(
        'pretrainedTrace',
        live(),
        tokens.ids,
        tokens.tokenTypes ?? null,
        maskOf(o.attentionMask, tokens.ids.length),
        layer,
        head,
      );
    },
  };
}
