// The published package: `npm pack`, install the tarball in a scratch folder, import it by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { installPackedPackage, npm, root } from '../pack.js';

test('the tarball holds the engine, its wasm and types, and nothing of the sources', () => {
  const [{ files }] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], root));
  const paths = files.map((file) => file.path);
  for (const expected of [
    'web/engine/index.js',
    'web/engine/index.node.js',
    'web/engine/engine.js',
    'web/engine/index.d.ts',
    'web/engine/wasm/attention-engine.mjs',
    'web/engine/wasm/attention-engine.wasm',
  ]) {
    assert.ok(paths.includes(expected), `${expected} missing from ${paths.join(', ')}`);
  }
  assert.ok(!paths.some((path) => /^(cpp|tests|scripts|build)\//.test(path)), paths.join(', '));
});

test('installed from the tarball, a plain Node import reproduces the seed numbers', () => {
  const scratch = installPackedPackage('node-scratch');
  writeFileSync(
    join(scratch, 'check.js'),
    `import { loadAttention } from 'attention-stepper';
const attn = await loadAttention();
const scores = attn.dotScores([5, 1, 20], [[3, 12, 45], [59, 2, 5], [1, 43, 5], [4, 3, 45.3]]);
const context = attn.contextVector(attn.applyWeights(attn.softmax(scores), [[3, 12, 45], [59, 2, 5], [1, 43, 5], [4, 3, 45.3]]));
console.log(JSON.stringify({ scores: Array.from(scores), context: Array.from(context), tiny: attn.decimalFromLog(attn.logSoftmax(scores)[2]) }));
`,
  );
  const result = JSON.parse(execFileSync('node', ['check.js'], { cwd: scratch, encoding: 'utf8' }));
  assert.deepEqual(result.scores, [927, 397, 148, 929]);
  assert.equal(result.tiny, '5.7661442e-340');
  assert.ok(Math.abs(result.context[2] - 45.26423912) < 1e-8);
});
