// The inputs form of a walkthrough session: one labelled control per field of the spec, its hint,
// and the message that says why its text cannot be used. Used by the page and by editable
// steppers, through the controller.
import { el, setChildren } from './dom.js';
import { sceneComposer } from './scene-composer.js';

/**
 * Fills `container` with the fields of `session`. `onChange(name, text)` runs when the user edits
 * a field. `withFiles(name, wrapper)`, if given, returns what a vector or matrix field adds to take
 * a tensor file (file-panel.js). Returns refresh(), which brings the texts (a field filled from a
 * file), the error messages and the menus whose options depend on the trace (the words of
 * self-attention) up to date.
 */
export function renderInputForm(container, session, t, onChange, withFiles) {
  const controls = session.fields.map((field) => {
    const id = `input-${field.name}`;
    if (field.control === 'scene') return sceneField(field, id, session, t, onChange);
    const wrapper = el('div', 'field');
    const label = el('label', '', t(field.label));
    label.htmlFor = id;
    const kind = field.control;
    const control = el(kind === 'textarea' ? 'textarea' : kind === 'select' ? 'select' : 'input');
    control.id = id;
    control.name = field.name;
    control.spellcheck = false;
    if (kind === 'number')
      Object.assign(control, { type: 'number', min: field.field.min, max: field.field.max, step: 1 });
    if (kind === 'text') control.type = 'text';
    if (kind === 'textarea') control.rows = Math.min(8, session.inputs[field.name].length + 1);
    if (kind !== 'select') control.value = session.text(field);
    wrapper.append(label, control);
    const describedBy = [];
    if (field.hint) {
      const hint = el('p', 'field-hint', t(field.hint));
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
    if (withFiles && (field.field.kind === 'vector' || field.field.kind === 'matrix'))
      wrapper.append(...withFiles(field.name, wrapper));
    control.addEventListener(kind === 'select' ? 'change' : 'input', () => onChange(field.name, control.value));
    return { field, control, error, wrapper };
  });
  container.replaceChildren(...controls.map(({ wrapper }) => wrapper));

  return function refresh() {
    for (const { field, control, error, composer } of controls) {
      if (composer) composer.set(session.text(field));
      else if (field.control === 'select') setOptions(control, field, session, t);
      else if (control.value !== session.text(field)) control.value = session.text(field);
      const message = session.fieldError(field.name, t);
      control.setAttribute('aria-invalid', String(Boolean(message)));
      error.textContent = message;
    }
  };
}

// A menu's options: the spec's, from the trace on screen, or the engine's choices.
function setOptions(select, field, session, t) {
  const context = { trace: session.trace, field: field.field, inputs: session.inputs };
  const options = field.options ? field.options(context) : field.field.choices.map((choice) => [choice, choice]);
  setChildren(
    select,
    options.map(([value, label]) => {
      const option = el('option', '', t(label));
      option.value = String(value);
      return option;
    }),
  );
  select.value = String(session.inputs[field.name]);
}

// A scene field: the composer, its legend the field's label, its faults under it.
function sceneField(field, id, session, t, onChange) {
  const wrapper = el('div', 'field');
  const composer = sceneComposer({
    id,
    legend: t(field.label),
    attn: session.attn,
    facts: session.facts,
    t,
    onChange: (text) => onChange(field.name, text),
  });
  const error = el('p', 'field-error');
  error.id = `${id}-error`;
  error.setAttribute('aria-live', 'polite');
  composer.element.setAttribute('aria-describedby', error.id);
  wrapper.append(composer.element, error);
  return { field, control: composer.element, error, wrapper, composer };
}
