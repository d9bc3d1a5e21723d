// How the page writes numbers and words that are not plain locale strings: Python's '%.2g' for
// heatmap cells (what seaborn's annot=True prints), the full-precision text the page exposes as
// data-value, and the wording of structured labels, shares and task names. It imports nothing, so
// the specs (web/walkthroughs/) and the components both build on it.

/** Python's format(value, '.{precision}g'): 927 -> '9.3e+02', 0.119 -> '0.12', 45 -> '45'. */
export function pythonG(value, precision = 2) {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan';
  // A double's exact decimal expansion, to 101 digits: enough to tell a tie (0.125 is exactly
  // halfway between 0.12 and 0.13) from a near miss, which toExponential cannot.
  const [mantissa, exponent] = value.toExponential(100).split('e');
  return formatG(mantissa, Number(exponent), precision);
}

/** The same for a decimal string beyond the double range, such as '5.7661442e-340'. */
export function pythonGFromText(text, precision = 2) {
  const [mantissa, exponent = '0'] = text.toLowerCase().split('e');
  return formatG(mantissa, Number(exponent), precision);
}

// '%g' of the decimal mantissa × 10^exponent (the mantissa may have any sign, point and leading zeros).
function formatG(mantissa, exponent, precision) {
  const negative = mantissa.startsWith('-');
  const unsigned = mantissa.replace(/^[-+]/, '');
  const allDigits = unsigned.replace('.', '');
  const leadingZeros = allDigits.match(/^0*/)[0].length;
  if (leadingZeros === allDigits.length) return negative ? '-0' : '0';
  const integerDigits = unsigned.includes('.') ? unsigned.indexOf('.') : unsigned.length;
  // the exponent of the first significant digit
  const scientific = exponent + integerDigits - 1 - leadingZeros;
  const { digits, carry } = roundHalfEven(allDigits.slice(leadingZeros), precision);
  const shown = scientific + carry;
  const body =
    shown < -4 || shown >= precision
      ? `${trimZeros(withPoint(digits, 1))}e${sign(shown)}`
      : trimZeros(shown < 0 ? `0.${'0'.repeat(-shown - 1)}${digits}` : withPoint(digits, shown + 1));
  return `${negative ? '-' : ''}${body}`;
}

// The first `precision` significant digits, rounded half to even as Python does (JavaScript's
// toFixed and toExponential round a tie away from zero: 0.125 -> '0.13' where Python prints 0.12).
// carry is 1 when rounding up added a digit (9.96 -> 10).
function roundHalfEven(digits, precision) {
  const kept = digits.slice(0, precision).padEnd(precision, '0');
  const rest = digits.slice(precision);
  const up = /^50*$/.test(rest) ? Number(kept.at(-1)) % 2 === 1 : rest > '5';
  if (!up) return { digits: kept, carry: 0 };
  const next = String(BigInt(kept) + 1n).padStart(precision, '0');
  return next.length > precision ? { digits: next.slice(0, precision), carry: 1 } : { digits: next, carry: 0 };
}

function withPoint(digits, at) {
  return at < digits.length ? `${digits.slice(0, at)}.${digits.slice(at)}` : digits;
}

function trimZeros(text) {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

function sign(exponent) {
  return `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** Cell i of a panel as the engine computed it: the exact text where a double cannot hold it. */
export function fullValue(panel, index) {
  return panel.exact?.[index] || String(panel.data[index]);
}

/**
 * The bits of cell i of a panel that carries them (the numerics lab), "sign 0 · exponent 01111 ·
 * mantissa 0000000000" with the words of `names` ({ bitsSign, bitsExponent, bitsMantissa }); ''
 * for a panel without bits.
 */
export function bitsText(panel, index, names) {
  const bits = panel.bits?.[index];
  if (!bits) return '';
  const [sign, exponent, mantissa] = bits.split(' ');
  return `${names.bitsSign} ${sign} · ${names.bitsExponent} ${exponent} · ${names.bitsMantissa} ${mantissa}`;
}

/** A share (0 … 1) as a whole percentage: 0.98 → "98%". */
export const percent = (share) => `${Math.round(share * 100)}%`;

/** A kind of target word ('noun'), as the task's grammar names it, in the language of `t`. */
export const categoryName = (category, t) => t(`labels.category.${category}`);

/** A task's name: a grammar's as the locale words it, a task from the reader's text as its id. */
export function taskName(id, t) {
  const key = `taskNames.${id}`;
  const name = t(key);
  return name === key ? id : name;
}

/**
 * A panel's row or column label in the language of `t` (the locale's translator). The engine gives
 * plain text, shown as it is (a token, 'x1'), or a structured label of names and numbers, worded
 * here and nowhere else: { precision, allMasked?, width?, temperature? } for a row computed in a
 * precision ('float16 d=64', 'float16 (all masked)'), { width } ('d=64'), { total } ('sum'),
 * { metric } ('exact match'), a model by what tells it apart, any of its kind's fields the locale
 * words ({ scoring: 'additive', encoder: 'bidirectional' }: 'Bahdanau additive, bidirectional'),
 * { category, count } ('noun (612)'), { category, count,
 * instead } ('article (400) · instead: is').
 */
// The characters a token may be that would show as nothing, as the signs that stand for them.
const INVISIBLE = { '\n': '↵', '\r': '␍', '\t': '⇥' };

/** Text as a label shows it: a line break or tab (a tokenizer's piece) as a visible sign. */
export const visibleText = (text) => text.replace(/[\n\r\t]/g, (c) => INVISIBLE[c]);

export function labelText(label, t) {
  if (typeof label === 'string') return visibleText(label);
  if (label.total) return t('labels.total');
  if (label.metric) return t(`labels.metric.${label.metric}`);
  const model = modelParts(label, t);
  if (model.length) return model.join(t('labels.separator'));
  if (label.category) {
    const kind = { label: categoryName(label.category, t), count: label.count, instead: label.instead };
    return label.instead ? t('labels.countedInstead', kind) : t('labels.counted', kind);
  }
  const parts = [
    label.precision,
    label.width !== undefined && t('labels.width', { width: label.width }),
    label.temperature !== undefined && t('labels.temperature', { temperature: label.temperature }),
  ];
  const text = parts.filter(Boolean).join(' ');
  return label.allMasked ? t('labels.allMasked', { label: text }) : text;
}

// The fields of a model a label gives, in its order, each worded: any kind's field that the
// locale words (`labels.model.<field>`: a word for each value, or `value` with the value in it:
// 'additive' → 'Bahdanau additive', layers 2 → '2-layer').
function modelParts(label, t) {
  return Object.entries(label).flatMap(([field, value]) => {
    const words = t(`labels.model.${field}`);
    if (typeof words !== 'object') return [];
    // a value is looked up whole: 0.5 is no path
    return [Object.hasOwn(words, value) ? words[value] : t(`labels.model.${field}.value`, { value })];
  });
}

/** Cell i as seaborn would annotate it. */
export function cellText(panel, index, precision = 2) {
  const exact = panel.exact?.[index];
  return exact ? pythonGFromText(exact, precision) : pythonG(panel.data[index], precision);
}

/** A size in bytes as people read it, in decimal units: 980 B, 2.7 KB, 12 KB, 548 MB, 3.9 GB. */
export function byteSize(bytes) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit > 0 && value < 9.95 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
