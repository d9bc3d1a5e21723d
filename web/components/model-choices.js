// The model panel's training choices (model-panel.js): the spec's `models.training.fields`, each a
// number field or a menu, and the options a training run takes from them.
import { el, setText } from './dom.js';

/**
 * The choices: { element, draw(training), options(into) }. draw(training) shows the choices of a
 * spec's `models.training` in the language on screen; options(into) is a run's options from the
 * choices that go `into` 'model' (the create function's) or 'train' (train()'s).
 */
export function trainingChoices(controller) {
  const element = el('div', 'model-choices');
  let fields = []; // [{ field, label, control }]
  let fieldsOf = null; // the training spec they were made for

  function draw(training) {
    // made again for another spec's choices (a choice keeps its value while the walkthroughs share them)
    if (fieldsOf !== training) {
      fieldsOf = training;
      fields = training.fields.map((field) => {
        const label = el('label', 'field');
        const control = field.number ? numberField(field.number) : selectField(field);
        label.append(el('span'), control);
        return { field, label, control };
      });
      element.replaceChildren(...fields.map(({ label }) => label));
    }
    for (const { field, label, control } of fields) {
      setText(label.firstChild, controller.t(field.label));
      // choices worded by the locale where the spec says so (the others are numbers)
      if (field.choiceLabel)
        for (const option of control.options) setText(option, controller.t(field.choiceLabel(option.value)));
    }
  }

  const options = (into) =>
    Object.assign(
      {},
      ...fields.filter(({ field }) => field.into === into).map(({ field, control }) => field.options(valueOf(control))),
    );

  return { element, draw, options };
}

function numberField({ value, min }) {
  const input = el('input');
  Object.assign(input, { type: 'number', value: String(value), min: String(min), step: '1' });
  return input;
}

function selectField({ choices, value }) {
  const select = el('select');
  for (const choice of choices) select.append(new Option(choice, choice));
  select.value = value;
  return select;
}

// A number field's value as a number (0 when empty or not a number), a select's as its text.
const valueOf = (control) => (control.type === 'number' ? Number(control.value) || 0 : control.value);
