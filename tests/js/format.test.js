// web/locales/format.js: cell annotations as seaborn's annot=True prints them (Python's '%.2g'),
// checked against Python 3's format(value, '.2g').
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cellText, fullValue, pythonG, pythonGFromText } from '../../web/locales/format.js';

test('pythonG: two significant digits, exponent form outside 1e-4 .. 1e2', () => {
  assert.equal(pythonG(927), '9.3e+02');
  assert.equal(pythonG(929), '9.3e+02');
  assert.equal(pythonG(148), '1.5e+02');
  assert.equal(pythonG(0.119), '0.12');
  assert.equal(pythonG(0.8807970779778823), '0.88');
  assert.equal(pythonG(45), '45');
  assert.equal(pythonG(1), '1');
  assert.equal(pythonG(-0.5), '-0.5');
  assert.equal(pythonG(7.947151507960154e-232), '7.9e-232');
  assert.equal(pythonG(5e-324), '4.9e-324');
});

test('pythonG: small numbers switch to exponent form below 1e-4, like Python', () => {
  assert.equal(pythonG(0.00026), '0.00026');
  assert.equal(pythonG(0.0026), '0.0026');
  assert.equal(pythonG(1e-4), '0.0001');
  assert.equal(pythonG(1e-5), '1e-05');
  assert.equal(pythonG(4.8e-5), '4.8e-05');
  assert.equal(pythonG(-1e-7), '-1e-07');
});

test('pythonG: zero, negative zero, infinities and nan', () => {
  assert.equal(pythonG(0), '0');
  assert.equal(pythonG(-0), '-0');
  assert.equal(pythonG(Infinity), 'inf');
  assert.equal(pythonG(-Infinity), '-inf');
  assert.equal(pythonG(NaN), 'nan');
});

test('pythonG: rounding that carries into a new digit moves the exponent', () => {
  assert.equal(pythonG(9.96), '10');
  assert.equal(pythonG(99.5), '1e+02');
  assert.equal(pythonG(99.4), '99');
  assert.equal(pythonG(0.00999), '0.01');
  assert.equal(pythonG(9.96e-5), '0.0001');
  assert.equal(pythonG(999.7, 3), '1e+03');
});

test('pythonG: an exact tie rounds half to even as Python does, not away from zero', () => {
  // 0.125, 2.25 and 12345 are exact doubles halfway between two candidates
  assert.equal(pythonG(0.125), '0.12');
  assert.equal(pythonG(-0.125), '-0.12');
  assert.equal(pythonG(0.375), '0.38');
  assert.equal(pythonG(2.25), '2.2');
  assert.equal(pythonG(12345, 4), '1.234e+04');
  assert.equal(pythonG(1234.5, 4), '1234');
  assert.equal(pythonG(0.25, 1), '0.2');
  // 0.995 and 0.15 are stored a little below the tie, 0.45 a little above: the nearest wins
  assert.equal(pythonG(0.995), '0.99');
  assert.equal(pythonG(0.15, 1), '0.1');
  assert.equal(pythonG(0.45, 1), '0.5');
});

test('pythonG: other precisions', () => {
  assert.equal(pythonG(Math.PI * 1000, 1), '3e+03');
  assert.equal(pythonG(Math.PI * 1000, 4), '3142');
  assert.equal(pythonG(Math.PI * 1000, 6), '3141.59');
  assert.equal(pythonG(Math.PI * 1000, 17), '3141.5926535897929');
  assert.equal(pythonG(0.1, 17), '0.10000000000000001');
  assert.equal(pythonG(0.119, 3), '0.119');
  assert.equal(pythonG(100, 4), '100');
});

test('pythonGFromText: decimals beyond the double range', () => {
  assert.equal(pythonGFromText('5.7661442e-340'), '5.8e-340');
  assert.equal(pythonGFromText('5.7661442E-340'), '5.8e-340');
  assert.equal(pythonGFromText('5.7661442e-340', 4), '5.766e-340');
  assert.equal(pythonGFromText('-5.7661442e-340'), '-5.8e-340');
  assert.equal(pythonGFromText('1.2e-4951'), '1.2e-4951');
  assert.equal(pythonGFromText('57.66e-341'), '5.8e-340', 'mantissa not normalised');
  assert.equal(pythonGFromText('0.0057e-337'), '5.7e-340', 'leading zeros');
});

test('pythonGFromText: rounding carries into the exponent', () => {
  assert.equal(pythonGFromText('9.96e-340'), '1e-339');
  assert.equal(pythonGFromText('9.999e-340', 3), '1e-339');
  assert.equal(pythonGFromText('9.94e-340'), '9.9e-340');
  assert.equal(pythonGFromText('9.96e-340', 4), '9.96e-340');
});

// Attention Basics: softmax of the scores [927, 397, 148, 929]; one weight underflows a double.
const weights = {
  rows: 1,
  cols: 4,
  data: Float64Array.of(0.11920292202211755, 7.947151507960154e-232, 0, 0.8807970779778823),
  exact: ['', '', '5.7661442e-340', ''],
};

test('fullValue: the double in full, or the exact text where the double underflowed', () => {
  assert.equal(fullValue(weights, 0), '0.11920292202211755');
  assert.equal(fullValue(weights, 1), '7.947151507960154e-232');
  assert.equal(fullValue(weights, 2), '5.7661442e-340');
  assert.equal(fullValue({ data: [3] }, 0), '3');
});

test('cellText: seaborn annotation, from the exact text where there is one', () => {
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => cellText(weights, i)),
    ['0.12', '7.9e-232', '5.8e-340', '0.88'],
  );
  assert.equal(cellText(weights, 2, 4), '5.766e-340');
  assert.equal(cellText(weights, 0, 3), '0.119');
  assert.equal(cellText({ data: [927] }, 0), '9.3e+02');
});
