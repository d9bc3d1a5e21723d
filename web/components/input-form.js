// The inputs form of a walkthrough session: one labelled control per field, its hint, and the
// message that says why its text cannot be used. Used by the page and by editable steppers.
import { el } from './dom.js';
import { FIELDS } from './inputs.js';

/**
 * Fills `container` with the fields of `session`. `onChange(key)` runs after the user edits a
 * field (whether or not its text parsed). Returns a function that refreshes the error messages.
 */
export function renderInputForm(container, session, t, onChange) {
  const controls = FIELDS[session.walkthrough].map(([key, spec, labelKey, hintKey]) => {
    const id = `input-${key}`;
    const wrapper = el('div', 'field');
    const label = el('label', '', t(labelKey));
    label.htmlFor = id;
    const control = spec.kind === 'textarea' ? el('textarea') : spec.kind === 'select' ? el('select') : el('input');
    control.id = id;
    control.name = key;
    control.spellcheck = false;
    if (spec.kind === 'number') Object.assign(control, { type: 'number', min: spec.min, max: spec.max, step: 1 });
    if (spec.kind === 'text') control.type = 'text';
    if (spec.kind === 'textarea') control.rows = Math.min(8, session.inputs[key].length + 1);
    if (spec.kind === 'select') {
      for (const [value, labelKeyOrText] of spec.options(session.inputs)) {
        const option = el('option', '', t(labelKeyOrText));
        option.value = String(value);
        option.selected = String(value) === String(session.inputs[key]);
        control.append(option);
      }
    } else {
      control.value = session.text(key, spec);
    }
    wrapper.append(label, control);
    const describedBy = [];
    if (hintKey) {
      const hint = el('p', 'field-hint', t(hintKey));
      hint.id = `${id}-hint`;
      describedBy.push(hint.id);
      wrapper.append(hint);
    }
    const error = el('p', 'field-error');
    error.id = `${id}-error`;
    error.setAttribute('aria-live', 'polite');
    describedBy.push(error.id);
    control.setAttribute('aria-describedby', describedBy.join(' '));
    wrapper.append(error);
    control.addEventListener(spec.kind === 'select' ? 'change' : 'input', () => {
      session.setText(key, control.value);
      onChange(key);
    });
    return [key, control, error, wrapper];
  });
  container.replaceChildren(...controls.map(([, , , wrapper]) => wrapper));

  return function showErrors() {
    for (const [key, control, error] of controls) {
      const message = session.fieldError(key, t);
      control.setAttribute('aria-invalid', String(Boolean(message)));
      error.textContent = message;
    }
  };
}
