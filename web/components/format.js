// Number formatting for heatmap cells: Python's '%.2g', which is what seaborn's annot=True prints,
// and the full-precision text the page exposes as data-value.

/** Python's format(value, '.{precision}g'): 927 -> '9.3e+02', 0.119 -> '0.12', 45 -> '45'. */
export function pythonG(value, precision = 2) {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan';
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= precision) return `${trimZeros(mantissa)}e${sign(exponent)}`;
  return trimZeros(value.toFixed(Math.max(0, precision - 1 - exponent)));
}

/** The same for a decimal string beyond the double range, such as '5.7661442e-340'. */
export function pythonGFromText(text, precision = 2) {
  const [mantissa, exponentText] = text.toLowerCase().split('e');
  const rounded = Number(mantissa).toExponential(precision - 1);
  const [digits, carry] = rounded.split('e');
  return `${trimZeros(digits)}e${sign(Number(exponentText) + Number(carry))}`;
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

/** Cell i as seaborn would annotate it. */
export function cellText(panel, index, precision = 2) {
  const exact = panel.exact?.[index];
  return exact ? pythonGFromText(exact, precision) : pythonG(panel.data[index], precision);
}
