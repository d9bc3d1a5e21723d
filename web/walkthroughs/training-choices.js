// What the specs of trained models share: the training choices every model panel offers (a spec's
// `models.training.fields`): the seed of a new model, and train()'s learning rate from a spec's
// own menu; and the task field of models that learn the reader's own text too.

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

/**
 * The task field: the engine's tasks, each named by the locale's `keyOf(id)`, and the task of the
 * reader's text the form is on (named by its id).
 */
export const taskField = (keyOf) => ({
  name: 'task',
  label: 'field.task',
  options: ({ field, inputs }) =>
    [...field.choices, ...(field.choices.includes(inputs.task) ? [] : [inputs.task])].map((id) => [
      id,
      field.choices.includes(id) ? keyOf(id) : id,
    ]),
});
