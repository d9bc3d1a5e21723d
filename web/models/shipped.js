// How the trained models the package ships (web/engine/models.js lists them; dist/engine/models/)
// are made, so that a page shows a trained model at once. Each is made by the engine itself, deterministically: createSeq2seq with its defaults (seed 0),
// trained on one thread for STEPS steps (twice what en-fr needs to reach TARGET exact match on the
// test split; its alignment sharpens on), then saved as float16 (half the size), and checked: the
// saved model's greedy translations of the test split reach TARGET. `node scripts/make-models.js` writes them; tests/js/models.test.js trains them again
// and compares the bytes.
export { modelFile, SHIPPED_MODELS } from '../engine/models.js';
export const STEPS = 600;
export const TARGET = 0.98;

/** Trains one shipped model from scratch → { bytes, exactMatch, alignmentAccuracy } (of the saved,
 * float16 model). Throws if it does not reach TARGET. */
export function makeShippedModel(attn, { task, scoring }) {
  // One-way encoders, as the committed models were made before additive's default became
  // bidirectional (issue 19): making them again is issue 19's choice of shipped models.
  const model = attn.createSeq2seq({ task, scoring, encoder: 'forward' });
  model.train({ steps: STEPS });
  const bytes = model.save({ dtype: 'float16' });
  model.dispose();
  const saved = attn.loadModel(bytes);
  const { exactMatch, alignmentAccuracy } = saved.evaluate({ split: 'test' });
  saved.dispose();
  if (exactMatch < TARGET) throw new Error(`${task} ${scoring}: ${exactMatch} exact match after ${STEPS} steps`);
  return { bytes, exactMatch, alignmentAccuracy };
}
