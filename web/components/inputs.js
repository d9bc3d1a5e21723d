// The editable inputs of each walkthrough: how a field is drawn, parsed and validated. A field
// that does not parse keeps its text and shows why next to it; the others keep theirs.

export const DEFAULT_INPUTS = {
  basics: {
    decoderState: [5, 1, 20],
    annotations: [
      [3, 12, 45],
      [59, 2, 5],
      [1, 43, 5],
      [4, 3, 45.3],
    ],
    seed: 0,
  },
  'self-attention': {
    embeddings: [
      [1, 0, 0],
      [0, 1, 0],
      [1, 1, 0],
      [0, 0, 1],
    ],
    seed: 42,
    high: 3,
    word: 0,
  },
  scoring: { score: 'dot', length: 4, width: 4, seed: 4, sourceTokens: [], targetTokens: [] },
};

/** A parse failure: `key` is a locale key under errors., `params` fills it. */
export class FieldError extends Error {
  constructor(key, params = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

const MAX_SEED = 2 ** 32 - 1;

const vector = {
  kind: 'text',
  format: (value) => value.join(', '),
  parse: (text) => parseRow(text, 1),
};
const matrix = {
  kind: 'textarea',
  format: (value) => value.map((row) => row.join(', ')).join('\n'),
  parse: (text) => {
    const lines = text.split(/\n|;/).filter((line) => line.trim() !== '');
    if (lines.length === 0) throw new FieldError('empty');
    const rows = lines.map((line, i) => parseRow(line, i + 1));
    rows.forEach((row, i) => {
      if (row.length !== rows[0].length) {
        throw new FieldError('ragged', { line: i + 1, count: row.length, expected: rows[0].length });
      }
    });
    return rows;
  },
};
const integer = (min, max) => ({
  kind: 'number',
  min,
  max,
  format: String,
  parse: (text) => {
    const value = Number(text.trim());
    if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
      throw new FieldError('integer', { min, max });
    }
    return value;
  },
});
const tokens = {
  kind: 'text',
  format: (value) => value.join(' '),
  parse: (text) => text.split(/\s+/).filter(Boolean),
};

/** Fields per walkthrough, in form order: [key, spec, label key, hint key]. */
export const FIELDS = {
  basics: [
    ['decoderState', vector, 'field.decoderState', 'field.decoderStateHint'],
    ['annotations', matrix, 'field.annotations', 'field.annotationsHint'],
    ['seed', integer(0, MAX_SEED), 'field.seedWc'],
  ],
  'self-attention': [
    ['embeddings', matrix, 'field.embeddings', 'field.embeddingsHint'],
    ['seed', integer(0, MAX_SEED), 'field.seed'],
    ['high', integer(1, 1000), 'field.high'],
    [
      'word',
      {
        kind: 'select',
        options: (inputs) => inputs.embeddings.map((_, i) => [i, `word_${i + 1}`]),
        parse: Number,
        format: String,
      },
      'field.word',
    ],
  ],
  scoring: [
    [
      'score',
      {
        kind: 'select',
        options: () => ['additive', 'dot', 'general', 'concat'].map((name) => [name, `scoreNames.${name}`]),
        parse: String,
        format: String,
      },
      'field.score',
    ],
    ['length', integer(1, 256), 'field.length'],
    ['width', integer(1, 64), 'field.width'],
    ['seed', integer(0, MAX_SEED), 'field.seed'],
    ['sourceTokens', tokens, 'field.sourceTokens', 'field.tokensHint'],
    ['targetTokens', tokens, 'field.targetTokens', 'field.tokensHint'],
  ],
};

function parseRow(text, line) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) throw new FieldError('empty');
  return parts.map((part) => {
    const value = Number(part);
    if (!Number.isFinite(value)) throw new FieldError('notNumber', { text: part.slice(0, 20), line });
    return value;
  });
}

/** The field an engine error is about, if its message names one (engine messages name arguments). */
export function fieldOfMessage(walkthrough, message) {
  const keys = FIELDS[walkthrough].map(([key]) => key);
  const aliases = {
    'annotation length': 'annotations',
    'number of words': 'embeddings',
    'embedding width': 'embeddings',
  };
  for (const [phrase, key] of Object.entries(aliases)) if (message.includes(phrase) && keys.includes(key)) return key;
  return keys.find((key) => message.includes(key)) ?? null;
}
