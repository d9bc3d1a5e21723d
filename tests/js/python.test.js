// web/walkthroughs/python.js writes numbers in the code the stages show as the notebooks' Python
// prints them: CPython's repr() of a float (the shortest digits that read back, exponent from
// 1e16 up and below 1e-4, at least two exponent digits), except that whole numbers drop the ".0".
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pythonList, pythonNumber, pythonShape } from '../../web/walkthroughs/python.js';

test("as CPython's repr()", () => {
  for (const [value, repr] of [
    [0.1, '0.1'],
    [45.3, '45.3'],
    [-45.3, '-45.3'],
    [12345.678, '12345.678'],
    [123456.5, '123456.5'],
    [0.30000000000000004, '0.30000000000000004'],
    [1.0000000000000002, '1.0000000000000002'],
    [0.001, '0.001'],
    [0.0001, '0.0001'], // the smallest exponent written out
    [0.00012, '0.00012'],
    [0.00030000000000000003, '0.00030000000000000003'],
    [9.999999999999999e-5, '9.999999999999999e-05'], // below 1e-4: exponent
    [1e-5, '1e-05'],
    [-2.5e-5, '-2.5e-05'],
    [1.5e-7, '1.5e-07'],
    [5e-324, '5e-324'],
    [1e15 + 0.5, '1000000000000000.5'],
    [1e16, '1e+16'], // from 1e16 up: exponent
    [1.5e16, '1.5e+16'],
    [123456789012345680.0, '1.2345678901234568e+17'],
    [1e22, '1e+22'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [NaN, 'nan'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
  ]) {
    assert.equal(pythonNumber(value), repr, `repr(${value})`);
  }
});

test('whole numbers below 1e16 print without ".0", as the notebooks write them', () => {
  for (const [value, shown] of [
    [5, '5'], // repr: '5.0'
    [0, '0'],
    [-0, '-0'], // repr: '-0.0'
    [-3, '-3'],
    [927, '927'],
    [1e15, '1000000000000000'],
    [2 ** 53, '9007199254740992'],
  ]) {
    assert.equal(pythonNumber(value), shown, String(value));
  }
});

test('lists as the stages write them, and shapes', () => {
  assert.equal(pythonList([5, 1, 20]), '[5,1,20]');
  assert.equal(pythonList(Float64Array.of(4, 3, 45.3)), '[4,3,45.3]');
  assert.equal(pythonList([0.1, -1e-5, 1e16]), '[0.1,-1e-05,1e+16]');
  assert.equal(pythonList([]), '[]');
  assert.equal(pythonShape(4, 3), '(4, 3)');
});
