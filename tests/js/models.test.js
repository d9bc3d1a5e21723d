// The trained models the package ships (web/models/shipped.js): made again from scratch, they are
// the committed files bit for bit, and the package serves them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention } from 'attention-stepper';
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
