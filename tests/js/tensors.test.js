// Tensor files: attn.readTensors on files numpy wrote (tests/fixtures/make_tensor_fixtures.py),
// writeNpy byte for byte as np.save, writeNpz read back, bad files refused with argument 'bytes',
// and a seeded mutation test over the valid files (the JS half of the loaders; the C++ half is in
// the libFuzzer target).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { zipSync } from 'fflate';

import { loadAttention, writeNpy, writeNpz } from 'attention-stepper';

const attn = await loadAttention();
const dir = new URL('../fixtures/tensors/', import.meta.url);
const file = (name) => new Uint8Array(readFileSync(new URL(name, dir)));
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8'));
const files = Object.keys(expected).filter((name) => name !== 'written');

function assertRefused(call, pattern) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Error, String(error));
    assert.equal(error.argument, 'bytes', error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

test("numpy's and safetensors files read with numpy's names, dtypes, shapes and values", () => {
  assert.ok(files.length >= 20);
  for (const name of files) {
    const tensors = attn.readTensors(file(name));
    assert.deepEqual(Object.keys(tensors), Object.keys(expected[name]), name);
    for (const [key, want] of Object.entries(expected[name])) {
      const got = tensors[key];
      assert.equal(got.dtype, want.dtype, `${name} ${key}`);
      assert.deepEqual(got.shape, want.shape, `${name} ${key}`);
      assert.ok(got.data instanceof Float64Array);
      // bit for bit, -0 included
      assert.deepEqual(Array.from(got.data), want.data, `${name} ${key}`);
    }
  }
  // an ArrayBuffer does as well
  assert.deepEqual(attn.readTensors(file('int64.npy').slice().buffer).arr_0.shape, [3, 3]);
});

test('writeNpy writes the bytes np.save writes', () => {
  const { rows, cols, data } = expected.written;
  assert.deepEqual(writeNpy({ rows, cols, data: Float64Array.from(data) }), file('written.npy'));
  assert.deepEqual(writeNpy({ shape: [rows, cols], data }), file('written.npy'));
  // and every shape's header reads back, 64-byte aligned as numpy aligns it
  for (const shape of [[], [5], [2, 3, 4], [1, 64, 1, 1]]) {
    const count = shape.reduce((a, b) => a * b, 1);
    const bytes = writeNpy({ shape, data: Array.from({ length: count }, (_, i) => i / 7) });
    assert.equal((bytes.length - 8 * count) % 64, 0);
    const back = attn.readTensors(bytes).arr_0;
    assert.deepEqual(back.shape, shape);
    assert.deepEqual(
      Array.from(back.data),
      Array.from({ length: count }, (_, i) => i / 7),
    );
  }
  assert.throws(() => writeNpy({ rows: 2, cols: 2, data: [1, 2, 3] }), { argument: 'tensor' });
  assert.throws(() => writeNpy({ shape: [-1], data: [] }), { argument: 'tensor' });
});

test('writeNpz round trips through readTensors, in order, as float64', () => {
  const tensors = {
    attention_weights: { rows: 1, cols: 3, data: [0.25, 0.5, 0.25] },
    'applied attention': { shape: [2, 2], data: Float32Array.of(1.5, -2, 0, 1e-30) },
  };
  const back = attn.readTensors(writeNpz(tensors));
  assert.deepEqual(Object.keys(back), ['attention_weights', 'applied attention']);
  assert.deepEqual(back.attention_weights.shape, [1, 3]);
  assert.equal(back['applied attention'].dtype, 'float64');
  assert.deepEqual(Array.from(back['applied attention'].data), Array.from(Float32Array.of(1.5, -2, 0, 1e-30)));
  assert.throws(() => writeNpz({ x: { rows: 1, cols: 1, data: [] } }), { argument: 'tensors' });
});

// The central directory's uncompressed size of every member set to `size` (a zip bomb's claim).
function claimSize(zip, size) {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 4 <= out.length; at++)
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
  return out;
}

test('bad files are refused with a message about the bytes, and the engine goes on', () => {
  const npz = file('attention_compressed.npz');
  assertRefused(() => attn.readTensors(npz.subarray(0, npz.length - 30)), /zip container is corrupt or cut short/);
  assertRefused(() => attn.readTensors(claimSize(npz, 2 ** 31)), /would unpack to more than 256 MiB/);
  // a member claiming fewer bytes than it inflates to stops at its claim (and then is cut short)
  assertRefused(() => attn.readTensors(claimSize(npz, 200)), /member attention\.npy: .*cut short/);
  assertRefused(
    () => attn.readTensors(zipSync({ 'notes.txt': new Uint8Array(3) })),
    /member "notes.txt" is not a \.npy/,
  );
  assertRefused(() => attn.readTensors(zipSync({})), /holds no arrays|corrupt/);
  assertRefused(
    () => attn.readTensors(zipSync({ 'x.npy': file('complex.npy') })),
    /member x\.npy: dtype '<c16' is not supported/,
  );
  const corrupt = npz.slice();
  for (let i = 60; i < 200; i++) corrupt[i] ^= 0x5a;
  assert.throws(() => attn.readTensors(corrupt), { argument: 'bytes' });
  assertRefused(() => attn.readTensors(file('model.safetensors').subarray(0, 100)), /safetensors/);
  assertRefused(() => attn.readTensors(new Uint8Array([1, 2, 3])), /neither a \.npy, \.npz nor safetensors/);
  assert.throws(() => attn.readTensors('weights.npy'), { argument: 'bytes' });
  assert.deepEqual(attn.readTensors(file('int64.npy')).arr_0.shape, [3, 3]);
});

// mulberry32: a small seeded generator, so a failure names a case that reproduces
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function mutate(bytes, next) {
  const pick = (n) => Math.floor(next() * n);
  let out = bytes.slice();
  const edits = 1 + pick(4);
  for (let e = 0; e < edits; e++) {
    const at = pick(out.length + 1);
    switch (pick(5)) {
      case 0: // flip a bit
        if (out.length) out[at % out.length] ^= 1 << pick(8);
        break;
      case 1: // an interesting byte
        if (out.length) out[at % out.length] = [0, 0xff, 0x7f, 0x80, 0x30, 0x28][pick(6)];
        break;
      case 2: // cut short
        out = out.subarray(0, at);
        break;
      case 3: {
        // insert a few bytes
        const grown = new Uint8Array(out.length + 1 + pick(8));
        grown.set(out.subarray(0, at));
        grown.set(out.subarray(at), grown.length - (out.length - at));
        out = grown;
        break;
      }
      default: // duplicate a chunk over another place
        if (out.length > 8) out.copyWithin(at % out.length, pick(out.length), pick(out.length));
    }
  }
  return out;
}

test('seeded mutations of valid files read whole or fail with argument "bytes"', () => {
  const next = random(20261123);
  let read = 0;
  let refused = 0;
  for (const name of files) {
    const bytes = file(name);
    for (let i = 0; i < 120; i++) {
      const mutated = mutate(bytes, next);
      let tensors;
      try {
        tensors = attn.readTensors(mutated);
      } catch (error) {
        assert.equal(error.argument, 'bytes', `${name} mutation ${i}: ${error.stack}`);
        refused++;
        continue;
      }
      for (const tensor of Object.values(tensors))
        assert.equal(
          tensor.data.length,
          tensor.shape.reduce((a, b) => a * b, 1),
          `${name} mutation ${i}`,
        );
      read++;
    }
  }
  // both outcomes happen: the mutations reach past the first checks
  assert.ok(read > 50 && refused > 500, `read ${read}, refused ${refused}`);
});
