// How a walkthrough input is typed: one parser and formatter per kind of input the engine
// publishes (attn.walkthroughInputs). A field that does not parse keeps its text and shows why
// next to it; the others keep theirs.

/** A parse failure: `key` is a locale key under errors., `params` fills it. */
export class FieldError extends Error {
  constructor(key, params = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

// A decimal number as numpy would read it: Number() alone would also take 0x10, 0b1 and 1e999.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function parseRow(text, line) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) throw new FieldError('empty');
  return parts.map((part) => {
    const value = Number(part);
    if (!DECIMAL.test(part) || !Number.isFinite(value))
      throw new FieldError('notNumber', { text: part.slice(0, 20), line });
    return value;
  });
}

const CONTROLS = {
  vector: () => ({
    control: 'text',
    format: (value) => value.join(', '),
    parse: (text) => parseRow(text, 1),
  }),
  matrix: () => ({
    control: 'textarea',
    format: (value) => value.map((row) => row.join(', ')).join('\n'),
    parse: (text) => {
      const lines = text.split(/\n|;/).filter((line) => line.trim() !== '');
      if (lines.length === 0) throw new FieldError('empty');
      const rows = lines.map((line, i) => parseRow(line, i + 1));
      rows.forEach((row, i) => {
        if (row.length !== rows[0].length)
          throw new FieldError('ragged', { line: i + 1, count: row.length, expected: rows[0].length });
      });
      return rows;
    },
  }),
  integer: ({ min, max }) => ({
    control: 'number',
    format: String,
    parse: (text) => {
      const value = Number(text.trim());
      if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max)
        throw new FieldError('integer', { min, max });
      return value;
    },
  }),
  choice: () => ({ control: 'select', format: String, parse: String }),
  tokens: () => ({
    control: 'text',
    format: (value) => value.join(' '),
    parse: (text) => text.split(/\s+/).filter(Boolean),
  }),
  // a sentence as typed: the model's tokenizer, the engine's, reads it (given as its words, by a
  // link of an earlier version, they are shown separated by spaces)
  text: () => ({
    control: 'text',
    format: (value) => (Array.isArray(value) ? value.join(' ') : String(value)),
    parse: String,
  }),
};

/**
 * How to draw, parse and format the input `field` (one the engine published: { name, kind, min,
 * max, … }) as the spec presents it (`shown`: { label, hint, options, control }): { control, parse,
 * format }. A spec's `options` makes a menu of any kind (the word to follow is an integer picked by
 * name); its `control` a control of its own over the kind's text ('scene': scene-composer.js).
 */
export function controlFor(field, shown = {}) {
  const control = CONTROLS[field.kind](field);
  return { ...control, control: shown.options ? 'select' : (shown.control ?? control.control) };
}
