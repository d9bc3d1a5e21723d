// The scene input (the captioning walkthrough's): a scene as text, objects separated by ";", each
// "<size> <colour> <shape> <row> <column>" (what an HTML attribute holds: "big red circle 0 0;
// small blue square 1 1", read by the engine's parseScene, as the walkthrough reads it), composed
// with menus: for each of one to facts.maxObjects objects its size, colour, shape and place in the
// layout, buttons that add and remove an object, and one that draws a random scene. The engine
// reads the scene (readScene): the menus show it as written, a value no menu offers among their
// choices, marked; the form shows every fault under it, in words (sceneFaultText).
import { el } from './dom.js';

/** The text of `objects` ([{ size, colour, shape, row, column }], or [{ text }] as written), as the engine's parseScene reads it. */
export const sceneText = (objects) =>
  objects
    .map(({ text, size, colour, shape, row, column }) => text ?? `${size} ${colour} ${shape} ${row} ${column}`)
    .join('; ');

// A number in [0, 1) for each draw k: the same scenes in the same order on every page (mulberry32).
function uniform(k) {
  let x = (k * 0x6d2b79f5) >>> 0;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
}

/** The draw-th random scene of `facts` (its kind's facts: what scenes are made of): 1 … maxObjects objects in distinct places. */
export function randomScene(facts, draw) {
  let k = draw * 16;
  const pick = (list) => list[Math.floor(uniform(++k) * list.length)];
  const places = placesOf(facts);
  const count = 1 + Math.floor(uniform(++k) * facts.maxObjects);
  return Array.from({ length: count }, () => {
    const [row, column] = places.splice(Math.floor(uniform(++k) * places.length), 1)[0];
    return { size: pick(facts.sizes), colour: pick(facts.colours), shape: pick(facts.shapes), row, column };
  });
}

const placesOf = ({ layout }) =>
  Array.from({ length: layout.rows * layout.columns }, (_, i) => [Math.floor(i / layout.columns), i % layout.columns]);

/**
 * Every fault of the scene `text` in words (`t`), a line each; '' when it has none. `facts`: those
 * of the kind the walkthrough shows, which say what scenes are made of.
 */
export function sceneFaultText(attn, text, t, facts) {
  const { objects, faults } = attn.readScene(text);
  const name = (k) => t('scene.object', { n: k + 1 });
  const worded = ({ kind, object: k, other, part }) => {
    const [size, colour, shape, row, column] = objects[k] ?? [];
    if (kind === 'count') return t('scene.faults.count', { max: facts.maxObjects, count: objects.length });
    if (kind === 'words') return t('scene.faults.words', { object: name(k), text: objects[k].join(' ') });
    if (kind === 'place') {
      const last = { rows: facts.layout.rows - 1, columns: facts.layout.columns - 1 };
      return t('scene.faults.place', { object: name(k), row, column, ...last });
    }
    if (kind === 'slot') {
      const place = t(`scene.places.${row}${column}`);
      return t('scene.faults.slot', { object: name(k), other: other + 1, place });
    }
    const known = facts[`${part}s`].map((name) => t(`scene.names.${name}`)).join(t('listSeparator'));
    return t(`scene.faults.${part}`, { object: name(k), value: { size, colour, shape }[part], known });
  };
  return faults.map(worded).join('\n');
}

/**
 * The composer: { element, set(text) }. `id` prefixes its controls' ids, `legend` names it, `attn`
 * (the engine) reads scenes, `facts` (those of the walkthrough's kind) say what they are made of, `t` words it, and
 * `onChange(text)` runs on every change; set(text) shows the scene of `text` (the session's), as
 * written, its faulty menus marked.
 */
export function sceneComposer({ id, legend, attn, facts, t, onChange }) {
  const element = el('fieldset', 'scene-composer');
  element.id = id;
  element.append(el('legend', '', legend));
  const list = el('ol', 'scene-objects');
  const add = button('scene-add', t('scene.add'), () => change([...objects, newObject()], objects.length));
  let draws = 0;
  const random = button('scene-random', t('scene.random'), () => change(randomScene(facts, draws++)));
  const actions = el('div', 'scene-actions');
  actions.append(add, random);
  element.append(list, actions);
  let objects = []; // { size, colour, shape, row, column } as written, or { text } if not five words
  let faults = [];
  let shown = null; // the text the menus show

  // an object in the first free place
  function newObject() {
    const taken = new Set(objects.map(({ row, column }) => `${row} ${column}`));
    const [row, column] = placesOf(facts).find((place) => !taken.has(place.join(' '))) ?? [0, 0];
    return { size: facts.sizes[0], colour: facts.colours[1], shape: facts.shapes[2], row, column };
  }

  // the objects changed: the menus follow, keyboard focus goes to the `focus`-th object's first menu,
  // or stays on the control that had it (the menus are drawn anew, each with the id it had)
  function change(next, focus) {
    const focused = element.getRootNode().activeElement;
    const focusedId = element.contains(focused) ? focused.id : '';
    set(sceneText(next));
    onChange(shown);
    if (focus !== undefined) (list.children[focus]?.querySelector('select, button') ?? add).focus();
    else if (focusedId) element.querySelector(`#${CSS.escape(focusedId)}`)?.focus();
  }

  // the session's text, as written, even when it is no scene
  function set(text) {
    if (text === shown) return;
    shown = text;
    const written = attn.readScene(text);
    objects = written.objects.map((words) => {
      if (words.length !== 5) return { text: words.join(' ') };
      const [size, colour, shape, row, column] = words;
      return { size, colour, shape, row, column };
    });
    faults = written.faults;
    list.replaceChildren(...objects.map(objectRow));
    add.disabled = objects.length >= facts.maxObjects;
  }

  function objectRow(object, k) {
    const item = el('li', 'scene-object');
    const name = `${id}-${k}-name`; // each menu is named with its object's name: "Object 2 Colour"
    const heading = el('span', 'scene-object-name', t('scene.object', { n: k + 1 }));
    heading.id = name;
    item.setAttribute('aria-labelledby', heading.id);
    item.append(heading);
    const faulty = (kind, part) => faults.some((f) => f.object === k && f.kind === kind && f.part === part);
    // an object that is not five words: its text, to remove
    if (object.text !== undefined) {
      const text = el('code', 'scene-written', object.text);
      item.append(text);
      item.classList.add('scene-object-fault');
    } else {
      const placeFault = faulty('place') || faulty('slot');
      for (const [key, names] of [
        ['size', facts.sizes],
        ['colour', facts.colours],
        ['shape', facts.shapes],
      ])
        item.append(
          menu(
            `${id}-${k}-${key}`,
            t(`scene.${key}`),
            names.map((name) => [name, t(`scene.names.${name}`)]),
            [object[key], object[key]],
            faulty('name', key),
            (value) => change(objects.map((o, i) => (i === k ? { ...o, [key]: value } : o))),
            name,
          ),
        );
      const places = placesOf(facts).map(([row, column]) => [`${row} ${column}`, t(`scene.places.${row}${column}`)]);
      item.append(
        menu(
          `${id}-${k}-place`,
          t('scene.place'),
          places,
          [`${object.row} ${object.column}`, t('scene.placeAt', { row: object.row, column: object.column })],
          placeFault,
          (value) => {
            const [row, column] = value.split(' ').map(Number);
            change(objects.map((o, i) => (i === k ? { ...o, row, column } : o)));
          },
          name,
        ),
      );
      if (placeFault || faults.some((f) => f.object === k)) item.classList.add('scene-object-fault');
    }
    const remove = button('scene-remove', t('scene.remove'), () =>
      change(
        objects.filter((_, i) => i !== k),
        Math.max(0, k - 1),
      ),
    );
    remove.setAttribute('aria-label', t('scene.removeObject', { n: k + 1 }));
    remove.disabled = objects.length === 1;
    item.append(remove);
    return item;
  }

  return { element, set };
}

// A menu of `options` ([value, text]) showing `value`; one it does not offer (a faulty scene's) is
// its first option, worded as `written`.
function menu(id, label, options, [value, written], invalid, onChange, objectName) {
  const wrapper = el('span', 'scene-menu');
  const labelElement = el('label', '', label);
  labelElement.htmlFor = id;
  labelElement.id = `${id}-label`;
  const select = el('select');
  select.id = id;
  select.setAttribute('aria-labelledby', `${objectName} ${labelElement.id}`);
  select.setAttribute('aria-invalid', String(invalid));
  if (!options.some(([optionValue]) => optionValue === value)) select.append(new Option(written, value));
  for (const [optionValue, text] of options) select.append(new Option(text, optionValue));
  select.value = value;
  select.addEventListener('change', () => onChange(select.value));
  wrapper.append(labelElement, select);
  return wrapper;
}

function button(className, text, onClick) {
  const element = el('button', className, text);
  element.type = 'button';
  element.addEventListener('click', onClick);
  return element;
}
