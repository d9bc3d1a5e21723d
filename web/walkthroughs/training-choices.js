// The training choices every model panel offers (a spec's `models.training.fields`): the seed of a
// new model, and train()'s learning rate from a spec's own menu.

export const SEED_CHOICE = {
  name: 'seed',
  label: 'field.seed',
  into: 'model',
  number: { min: 0, value: 0 },
  options: (v) => ({ seed: v }),
};

/** The learning rate's menu of `choices`, `value` chosen. */
export const learningRateChoice = (choices, value) => ({
  name: 'learningRate',
  label: 'model.learningRate',
  into: 'train',
  choices,
  value,
  options: (v) => ({ learningRate: Number(v) }),
});
