// The core module: loadAttention() brings the numeric API and the walkthroughs of no trained
// model; the models' code comes with attn.loadModels(), after which every model function works
// and the numbers stay the same. Its own process (node --test runs each file alone), so that no
// other test has loaded the models first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention({ threads: 1 });
const basics = () => attn.walkthrough('basics').output;

test('the core computes the walkthroughs of no model; each model function says to call loadModels', () => {
  assert.equal(attn.modelsLoaded, false);
  assert.deepEqual(attn.walkthroughNames, ['basics', 'self-attention', 'numerics']);
  for (const call of [
    () => attn.createSeq2seq({ task: 'dates' }),
    () => attn.createModel({ kind: 'captioner', task: 'shapes' }),
    () => attn.modelFacts('transformer'),
    () => attn.seq2seqTasks(),
    () => attn.loadModel(new Uint8Array(8)),
  ])
    assert.throws(call, { message: /needs the models: call `await attn.loadModels\(\)` first/ });
  assert.throws(() => attn.walkthrough('seq2seq', {}), {
    message:
      /walkthrough name must be one of basics, self-attention, numerics, got the string "seq2seq"; the walkthroughs of trained models needs the models/,
  });
});

test('loadModels brings every kind and walkthrough, once; numbers and earlier results stay', async () => {
  const before = basics();
  const stream = attn.randomState(42);
  stream.rand(1, 3);
  await Promise.all([attn.loadModels(), attn.loadModels()]);
  assert.equal(attn.modelsLoaded, true);
  assert.equal(attn.walkthroughNames.length, 9);
  assert.deepEqual(basics(), before);
  const model = attn.createModel({ kind: 'seq2seq', task: 'dates', embedding: 4, hidden: 8 });
  assert.equal(model.kind, 'seq2seq');
  model.dispose();
  // a stream made on the core goes on there, as numpy's would
  const rest = Array.from(attn.randomState(42).rand(1, 5).data).slice(3);
  assert.deepEqual(Array.from(stream.rand(1, 2).data), rest);
  assert.equal(await loadAttention({ threads: 1, models: true }), attn);
});

test('options.models must be a boolean', async () => {
  await assert.rejects(loadAttention({ models: 'yes' }), { message: /options.models must be true or false/ });
});
