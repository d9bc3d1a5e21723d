// The translation tasks the encoder–decoder learns, as the engine generates them (issue 11's
// `attn.seq2seqTasks()`): vocabularies, seed-0 splits and gold alignments.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention();
const tasks = attn.seq2seqTasks();
const byId = Object.fromEntries(tasks.map((task) => [task.id, task]));

test('three tasks, made once and shared read-only', () => {
  assert.deepEqual(
    tasks.map((task) => [task.id, task.unit]),
    [
      ['en-fr', 'word'],
      ['en-zh', 'word'],
      ['dates', 'character'],
    ],
  );
  assert.equal(attn.seq2seqTasks(), tasks);
  assert.ok(Object.isFrozen(tasks) && Object.isFrozen(tasks[0].examples[0][2]));
});

test('vocabularies start with <sos> and <eos>; splits of 2000 and 400 pairs, none in both', () => {
  for (const task of tasks) {
    for (const vocabulary of [task.source, task.target]) {
      assert.deepEqual(vocabulary.slice(0, 2), ['<sos>', '<eos>'], task.id);
      assert.equal(new Set(vocabulary).size, vocabulary.length, `${task.id}: no token twice`);
    }
    assert.equal(task.examples.length, 2000);
    assert.equal(task.test.length, 400);
    const training = new Set(task.examples.map(([source]) => source));
    assert.ok(
      task.test.every(([source]) => !training.has(source)),
      `${task.id}: a test sentence in training`,
    );
  }
});

test('every pair within its limits, every target token aligned inside its source', () => {
  const tokens = (task, text, side) =>
    task.unit === 'word' ? text.split(' ') : [...(side === 'source' ? text.replaceAll(' ', '▁') : text)];
  for (const task of tasks) {
    for (const [source, target, alignment] of [...task.examples, ...task.test]) {
      const [src, tgt] = [tokens(task, source, 'source'), tokens(task, target, 'target')];
      assert.ok(src.length <= task.maxSourceLength && tgt.length <= task.maxTargetLength, source);
      assert.ok(
        src.every((token) => task.source.includes(token)),
        source,
      );
      assert.ok(
        tgt.every((token) => task.target.includes(token)),
        target,
      );
      assert.equal(alignment.length, tgt.length + 1, `${source}: one entry per target token and <eos>`);
      // positions count the source's <eos> too, which the target's <eos> aligns to
      assert.ok(
        alignment.flat().every((position) => position <= src.length),
        source,
      );
      assert.deepEqual(alignment.at(-1), [src.length], `${source}: <eos> aligns to <eos>`);
    }
  }
});

test("the WebAssembly build draws the same splits as the native core (numpy's RandomState)", () => {
  // the first training pairs of seed 0, as the C++ tests and numpy's randint give them
  assert.deepEqual(byId.dates.examples[0].slice(0, 2), ['October 21, 1991', '1991-10-21']);
  assert.deepEqual(byId['en-fr'].examples[0], [
    'the big white car is wet and new',
    'la grande voiture blanche est mouillée et nouvelle',
    [[0], [1], [3], [2], [4], [5], [6], [7], [8]],
  ]);
  assert.deepEqual(byId['en-zh'].examples[0].slice(0, 2), [
    'you do not buy bread in the park tomorrow',
    '你 明天 不 在 公园 买 面包',
  ]);
});

test('the alignments leave the diagonal: French adjectives follow the noun, Chinese time and place lead', () => {
  const reordered = (task) =>
    task.examples.filter(([, , alignment]) =>
      alignment.some(
        (positions, i) => positions.length && i > 0 && positions[0] < Math.max(...alignment.slice(0, i).flat(), -1),
      ),
    ).length / task.examples.length;
  assert.ok(reordered(byId['en-fr']) > 0.5, `en-fr ${reordered(byId['en-fr'])}`);
  assert.ok(reordered(byId['en-zh']) > 0.9, `en-zh ${reordered(byId['en-zh'])}`);
});
