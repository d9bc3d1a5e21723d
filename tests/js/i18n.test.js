// A walkthrough's texts come when it is first shown (i18n.js, texts.js), and the spec of a
// walkthrough of trained models with it (walkthroughs/index.js): in a fresh
// process none is loaded, the controller waits for them ('loading') before it shows a walkthrough,
// and loading one walkthrough's texts loads no other's.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { readyFor, StepperController } from '../../web/components/controller.js';
import { hasTexts, translator } from '../../web/components/i18n.js';
import { SPECS } from '../../web/walkthroughs/index.js';

const attn = await loadAttention({ threads: 1 });
const en = translator('en');

test("the walkthroughs' names are bundled; their stages' texts are not, until loaded", async () => {
  assert.equal(en('basics.title'), 'Attention Basics');
  assert.equal(hasTexts('en', 'basics'), false);
  assert.equal(en('basics.stages.softmax.title'), 'basics.stages.softmax.title');
  await readyFor(attn, 'basics', 'en');
  assert.equal(hasTexts('en', 'basics'), true);
  assert.notEqual(en('basics.stages.softmax.title'), 'basics.stages.softmax.title');
  // one walkthrough's texts, in one language
  assert.equal(hasTexts('en', 'numerics'), false);
  assert.equal(hasTexts('zh', 'basics'), false);
});

test('the controller shows a walkthrough once its texts are in, and says it is loading them', async () => {
  const controller = new StepperController(await readyFor(attn, 'basics', 'en'), { walkthrough: 'basics' });
  const reasons = [];
  const shown = new Promise((resolve) =>
    controller.addEventListener('change', ({ detail: { reason } }) => {
      reasons.push(reason);
      if (reason === 'walkthrough') resolve();
    }),
  );
  controller.setWalkthrough('numerics');
  assert.equal(controller.loading, 'numerics');
  assert.equal(controller.walkthrough, 'basics');
  await shown;
  assert.deepEqual(reasons, ['loading', 'walkthrough']);
  assert.equal(controller.walkthrough, 'numerics');
  assert.equal(controller.loading, null);
  assert.equal(hasTexts('en', 'numerics'), true);
  assert.doesNotMatch(controller.stageTitle(), /^numerics\./);
  assert.equal(hasTexts('en', 'sentiment'), false);
});

test("the spec of a walkthrough of trained models comes when it is first shown, beside the models' code", async () => {
  assert.deepEqual(Object.keys(SPECS).sort(), ['basics', 'numerics', 'self-attention']);
  // asked for at once, a walkthrough of models the page cannot show yet is basics
  const controller = new StepperController(await readyFor(attn, 'basics', 'en'), { walkthrough: 'sentiment' });
  assert.equal(controller.walkthrough, 'basics');
  const shown = new Promise((resolve) =>
    controller.addEventListener('change', ({ detail: { reason } }) => reason === 'walkthrough' && resolve()),
  );
  controller.setWalkthrough('sentiment');
  assert.equal(controller.loading, 'sentiment');
  await shown;
  assert.deepEqual(Object.keys(SPECS).sort(), ['basics', 'numerics', 'self-attention', 'sentiment']);
  assert.equal(controller.spec, SPECS.sentiment);
  assert.equal(controller.spec.name, 'sentiment');
  assert.ok(attn.modelsLoaded);
});

test('an unknown walkthrough is basics, and its texts in an unknown language are English', async () => {
  await readyFor(attn, 'no-such-walkthrough', 'fr');
  assert.equal(hasTexts('fr', 'basics'), true);
});
