// The walkthroughs: their names, inputs (kinds, limits, defaults) and traces, all as the engine
// publishes them; an input is checked and converted by its kind, whichever walkthrough it is of.
import { deepFreeze, describe, fail, integer, options, toMatrix, toVector } from './checks.js';

const isWords = (value) => Array.isArray(value) && value.every((token) => typeof token === 'string');

/**
 * The walkthrough functions over `call` (runs an export, throws its error); handleOf(model): a
 * model's handle; `elsewhere`: what an unknown name's error adds (where the other walkthroughs are).
 */
export function walkthroughApi(call, handleOf, elsewhere = '') {
  const names = deepFreeze(call('walkthroughNames'));
  const inputFields = new Map(names.map((name) => [name, deepFreeze(call('walkthroughInputs', name))]));
  const fieldsOf = (name) =>
    inputFields.get(name) ??
    fail(`walkthrough name must be one of ${names.join(', ')}, got ${describe(name)}${elsewhere}`, 'walkthrough');

  const modelHandle = (model, name) =>
    handleOf(model) ??
    fail(`${name} must be a model of this engine (createModel, loadModel), got ${describe(model)}`, name);
  const converters = {
    vector: (field, value, name) => toVector(value, name, Float64Array),
    matrix: (field, value, name) => toMatrix(value, name, Float64Array),
    integer: (field, value, name) => integer(value, name, field.min, field.max),
    // the engine checks the choice itself, with a message that lists the choices
    choice: (field, value, name) =>
      typeof value === 'string'
        ? value
        : fail(`${name} must be one of ${field.choices.join(', ')}, got ${describe(value)}`, name),
    tokens: (field, value, name) =>
      isWords(value) ? value : fail(`${name} must be an array of strings, got ${describe(value)}`, name),
    // a sentence as typed, which the model's tokenizer reads; or its words, separated by spaces
    text: (field, value, name) =>
      typeof value === 'string'
        ? value
        : isWords(value)
          ? value.join(' ')
          : fail(`${name} must be a string (or an array of words), got ${describe(value)}`, name),
    model: (field, value, name) => modelHandle(value, name),
    // a text's token ids, from the model's tokenizer
    ids: (field, value, name) =>
      value instanceof Int32Array
        ? value
        : Array.isArray(value) && value.every((id) => Number.isInteger(id) && id >= 0 && id < 2 ** 31)
          ? Int32Array.from(value)
          : fail(`${name} must be an Int32Array or an array of token ids, got ${describe(value)}`, name),
    models: (field, value, name) =>
      Array.isArray(value)
        ? value.map((model, i) => modelHandle(model, `${name}[${i}]`))
        : fail(`${name} must be an array of models, got ${describe(value)}`, name),
  };

  return {
    /** The walkthrough names, in the page's order. */
    walkthroughNames: names,
    walkthrough(name, inputs) {
      const fields = fieldsOf(name);
      const given = options(
        inputs,
        'inputs',
        fields.map((field) => field.name),
      );
      const converted = {};
      for (const field of fields) {
        const value = given[field.name];
        // an input with no default (a model) must be given; the others take their defaults
        const required = !field.optional && !('default' in field);
        if (required || (value !== undefined && value !== null))
          converted[field.name] = converters[field.kind](field, value, `inputs.${field.name}`);
      }
      return call('walkthrough', name, converted);
    },
    walkthroughInputs(name) {
      return fieldsOf(name);
    },
  };
}
