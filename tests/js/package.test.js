// The published package: `npm pack`, install the tarball in a scratch folder, import it by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { installPackedPackage, npm, root } from '../pack.js';
import { assertSeedNumbers } from '../seeds.js';

test('the tarball holds the engine, its wasm and types, and nothing of the sources', () => {
  const [{ files }] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], root));
  const paths = files.map((file) => file.path);
  for (const expected of [
    'dist/engine/index.js',
    'dist/engine/index.node.js',
    'dist/engine/engine.js',
    'dist/engine/tensors.js',
    'dist/engine/index.d.ts',
    'dist/engine/wasm/attention-engine.mjs',
    'dist/engine/wasm/attention-engine.wasm',
    'dist/engine/wasm/attention-engine-threads.mjs',
    'dist/engine/wasm/attention-engine-threads.wasm',
    'dist/engine/wasm/attention-engine-threads.worker.js',
    'dist/engine/wasm/node/attention-engine-threads.cjs',
    'dist/engine/wasm/node/attention-engine-threads.worker.js',
    'dist/engine/wasm/node/package.json',
    'dist/components/index.d.ts',
    'dist/components/attention-stepper.js',
    'dist/components/katex.js', // loaded by the bundle when a formula is first drawn
    'dist/components/styles.css',
  ]) {
    assert.ok(paths.includes(expected), `${expected} missing from ${paths.join(', ')}`);
  }
  // only the built package: no sources, no page
  assert.ok(!paths.some((path) => /^(web|cpp|tests|scripts|build|dist\/site)\//.test(path)), paths.join(', '));
  // Node's threaded loader reads the browsers' threaded .wasm (the same file), not a copy
  assert.ok(!paths.includes('dist/engine/wasm/node/attention-engine-threads.wasm'));
});

test('installed from the tarball, examples/node/seeds.js reproduces the seed numbers', () => {
  const scratch = installPackedPackage('node-scratch');
  copyFileSync(join(root, 'examples/node/seeds.js'), join(scratch, 'seeds.js'));
  const { threads, ...numbers } = JSON.parse(execFileSync('node', ['seeds.js'], { cwd: scratch, encoding: 'utf8' }));
  assert.deepEqual(Object.keys(numbers), ['score', 'scores', 'weights', 'context', 'W_Q', 'word1']);
  assertSeedNumbers(numbers, 'examples/node/seeds.js'); // the third weight as float128 text
  assert.equal(threads, Math.min(availableParallelism(), 8)); // the threaded module where cores allow
});
