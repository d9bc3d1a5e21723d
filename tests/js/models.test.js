// The trained models the package ships (web/models/shipped.js): made again from scratch, they are
// the committed files bit for bit, and the package serves them; and a training run from scratch.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention, trainSeq2seq, TRAINING_DEFAULTS } from 'attention-stepper';
import { makeShippedModel, modelFile, SHIPPED_MODELS, TARGET } from '../../web/models/shipped.js';

const attn = await loadAttention();

for (const shipped of SHIPPED_MODELS) {
  test(`${modelFile(shipped)}: trained again, the same bytes; loaded, a trained ${shipped.task} model`, () => {
    const committed = readFileSync(new URL(`../../web/models/${modelFile(shipped)}`, import.meta.url));
    const { bytes, exactMatch } = makeShippedModel(attn, shipped);
    assert.ok(exactMatch >= TARGET);
    assert.ok(Buffer.from(bytes).equals(committed), 'the committed model is not what scripts/make-models.js makes');

    const published = readFileSync(
      fileURLToPath(import.meta.resolve(`attention-stepper/models/${modelFile(shipped)}`)),
    );
    assert.ok(published.equals(committed));
    const model = attn.loadSeq2seq(new Uint8Array(published));
    assert.deepEqual({ task: model.config.task, scoring: model.config.scoring }, shipped);
    model.dispose();
  });
}

test('trainSeq2seq: progress as it learns, pause and resume, then a model that translates', async () => {
  const trainer = trainSeq2seq({ task: 'en-zh', sentence: 'I eat rice at home today', evaluateEvery: 50 });
  const reports = [];
  trainer.addEventListener('progress', ({ detail }) => {
    reports.push(detail);
    if (detail.step === 50) {
      trainer.pause();
      assert.equal(trainer.state, 'paused');
      setTimeout(() => trainer.resume(), 20);
    }
  });
  const { step, bytes } = await trainer.finished;
  assert.equal(trainer.state, 'done');
  assert.deepEqual(
    reports.map((report) => report.step),
    Array.from({ length: step / 25 + 1 }, (_, i) => i * 25),
  );
  const measured = reports.filter((report) => report.exactMatch !== undefined);
  assert.ok(measured[0].exactMatch < 0.5 && measured.at(-1).exactMatch >= TRAINING_DEFAULTS.target);
  assert.ok(reports.at(-1).loss < reports[1].loss, 'the loss falls');
  const { alignment } = measured.at(-1);
  assert.deepEqual(alignment.source, ['I', 'eat', 'rice', 'at', 'home', 'today', '<eos>']);
  assert.equal(alignment.rows, alignment.target.length);
  const model = attn.loadSeq2seq(bytes);
  assert.equal(model.translate('I eat rice at home today').target.join(' '), '我 今天 在 家 吃 饭');
  model.dispose();

  const failing = trainSeq2seq({ task: 'en-de', sentence: 'x' });
  await assert.rejects(failing.finished, { argument: 'task' });
  assert.equal(failing.state, 'failed');
});
