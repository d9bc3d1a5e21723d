// How the notebooks' Python prints the numbers the specs quote in code: repr() of a float, and
// lists as the stages show them ("[5,1,20]").

/** Python's repr() of a float, except that whole numbers print without ".0", as a notebook writes them. */
export function pythonNumber(value) {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return Object.is(value, -0) ? '-0' : String(value);
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  // toExponential() without digits gives the shortest digits that read back as the same double
  const [digits, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? '-' : '+';
    return `${digits}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const mantissa = digits.replace('.', '').replace('-', '');
  const point = exponent + 1; // digits before the decimal point
  const fixed =
    point <= 0
      ? `0.${'0'.repeat(-point)}${mantissa}`
      : `${mantissa.padEnd(point, '0').slice(0, point)}.${mantissa.slice(point) || '0'}`;
  return value < 0 ? `-${fixed}` : fixed;
}

/** A list of numbers as the notebook's code writes it: "[5,1,20]". */
export function pythonList(values) {
  return `[${Array.from(values, pythonNumber).join(',')}]`;
}

/** A shape tuple: "(4, 3)". */
export function pythonShape(rows, cols) {
  return `(${rows}, ${cols})`;
}
