// The toy kind through the tests' package's types (tsc -p tests/kinds): its types file joins the
// public ones as a kind's does, and what takes any kind takes it.
import { loadAttention, MODEL_KINDS, trainModel, type ModelKind, type ToyModel } from 'attention-stepper';

const attn = await loadAttention({ threads: 1, models: true });
const toy: ToyModel = attn.createModel({ kind: 'toy', task: 'reviews', embedding: 4 });
const alias: ToyModel<'float64'> = attn.createToy({ task: 'reviews', precision: 'float64' });
const kind: ModelKind = 'toy';
const accuracy: number = toy.evaluate().accuracy;
const walkthroughs: readonly string[] = MODEL_KINDS.toy.walkthroughs;
const trace = attn.walkthrough('toy', { model: toy, sentence: 'the food' });
const run = trainModel({
  kind: 'toy',
  model: { task: 'reviews' },
  probe: { sentence: 'the food' },
  train: { rationale: 0 },
});
// @ts-expect-error a toy takes no scoring function
attn.createModel({ kind: 'toy', task: 'reviews', scoring: 'dot' });
export { alias, kind, accuracy, walkthroughs, trace, run };
