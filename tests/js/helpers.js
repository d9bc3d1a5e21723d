import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

export const fixtures = JSON.parse(readFileSync(new URL('../fixtures/reference.json', import.meta.url), 'utf8'));

/** Row-major data of number[][] */
export const flat = (rows) => rows.flat();

/** Checks two number sequences element-wise to a relative-plus-absolute tolerance. */
export function assertClose(actual, expected, tolerance = 1e-12) {
  const a = Array.from(actual);
  const e = Array.from(expected);
  assert.equal(a.length, e.length, `length ${a.length} != ${e.length}`);
  a.forEach((value, i) => {
    const bound = tolerance * (1 + Math.max(Math.abs(value), Math.abs(e[i])));
    assert.ok(Math.abs(value - e[i]) <= bound || value === e[i], `index ${i}: ${value} != ${e[i]}`);
  });
}

/** Checks a {rows, cols, data} result against number[][]. */
export function assertMatrixClose(actual, expected, tolerance) {
  assert.equal(actual.rows, expected.length);
  assert.equal(actual.cols, expected[0].length);
  assertClose(actual.data, flat(expected), tolerance);
}
