// One walkthrough's state: its inputs (and the text the user typed for each), the errors that
// keep a field from being used, and the trace computed from the last valid inputs. The controller
// keeps one per walkthrough. Inputs, their limits and defaults are the engine's; the form's
// fields, labels and menus are the spec's.
import { SPECS } from '../walkthroughs/index.js';
import { controlFor, FieldError } from './inputs.js';
import { sceneFaultText } from './scene-composer.js';

// The controls that word the engine's refusal of their text themselves.
const ENGINE_ERRORS = { scene: sceneFaultText };

export class WalkthroughSession {
  /**
   * `context(inputs)`: inputs the engine needs besides the form's (the trained models it shows), added at
   * each computation, or null while there is none to show (a kind whose models are only loaded,
   * before the reader loads one: the session then has no trace, and `awaitsModel`). `defaults`:
   * the edition's own, over the engine's.
   */
  constructor(attn, walkthrough, { context, defaults } = {}) {
    this.attn = attn;
    this.walkthrough = walkthrough;
    this.context = context;
    this.spec = SPECS[walkthrough];
    /** The facts of the kind of model the walkthrough shows (its spec's models.kind), if it shows one. */
    this.facts = this.spec.models && attn.modelFacts(this.spec.models.kind);
    const published = attn.walkthroughInputs(walkthrough);
    this.defaults = {
      // a model input has no default: the context gives it
      ...Object.fromEntries(
        published.filter((field) => !field.optional && 'default' in field).map((field) => [field.name, field.default]),
      ),
      ...defaults,
    };
    const byName = new Map(published.map((field) => [field.name, field]));
    this.published = published;
    /** The form: [{ name, label, hint, options, field (the engine's), control, parse, format }]. */
    this.fields = this.spec.fields.map((shown) => {
      const field = byName.get(shown.name);
      return { ...shown, field, ...controlFor(field, shown) };
    });
    this.reset();
  }

  /** Back to the notebook's inputs. */
  reset() {
    this.inputs = structuredClone(this.defaults);
    this.texts = {}; // name -> text as typed, kept even while it does not parse
    this.parseErrors = {}; // name -> FieldError
    this.trace = null;
    this.compute();
  }

  /**
   * Recomputes the trace; on an engine error keeps the last good trace and records the error on
   * the field its `argument` names, or for the form as a whole.
   */
  compute() {
    this.engineErrors = {}; // name -> the engine's message about that field
    this.formError = null; // an engine message about no field of the form
    try {
      this.#computeFrom(this.inputs);
    } catch (error) {
      this.#blame(error);
      if (!this.trace) throw error; // the notebook's inputs always compute: nothing to fall back on
      // The last valid inputs again when what the engine needs besides them has changed since (the
      // trained model arrived): the stages they keep show the model the page shows. Where the new
      // model takes neither them nor the defaults, the stages stay and the field says why.
      const context = this.context?.(this.traceInputs) ?? {};
      if (Object.keys(context).some((name) => context[name] !== this.traceContext[name]))
        try {
          this.#computeAgain(this.traceInputs);
        } catch (again) {
          this.#blame(again);
        }
    }
  }

  // An engine error on the field its argument names, or on the form.
  #blame(error) {
    if (this.fields.some((field) => field.name === error.argument)) this.engineErrors[error.argument] = error.message;
    else this.formError = error.message;
  }

  // The last valid inputs for a new model; where it takes them not (a layer past its own), the
  // defaults of the fields the engine blames, each once.
  #computeAgain(inputs, blamed = new Set()) {
    try {
      this.#computeFrom(inputs);
    } catch (error) {
      const field = error.argument;
      if (blamed.has(field) || !(field in this.defaults) || !this.fields.some((f) => f.name === field)) throw error;
      this.#computeAgain({ ...inputs, [field]: this.defaults[field] }, blamed.add(field));
    }
  }

  #computeFrom(inputs) {
    const context = this.context?.(inputs);
    this.awaitsModel = context === null;
    this.trace = this.awaitsModel ? null : this.attn.walkthrough(this.walkthrough, { ...inputs, ...context });
    this.traceInputs = structuredClone(inputs);
    this.traceContext = context ?? {};
  }

  /** The user typed `text` into field `name`: parse it, and recompute when it parses. */
  setText(name, text) {
    if (
      !this.#parse(
        this.fields.find((field) => field.name === name),
        text,
      )
    )
      return false;
    this.compute();
    return true;
  }

  /**
   * The inputs a tensor file can fill, in the form or not (self-attention's W_Q, W_K, W_V):
   * [{ name, kind: 'vector' | 'matrix', label }], labelled by `t` as the form labels them.
   */
  fileInputs(t) {
    return this.published
      .filter((field) => field.kind === 'vector' || field.kind === 'matrix')
      .map(({ name, kind }) => {
        const shown = this.fields.find((field) => field.name === name);
        return { name, kind, label: shown ? t(shown.label) : name };
      });
  }

  /**
   * Texts for several inputs at once (a file's tensors), each parsed as its field parses typing:
   * kept only if all of them parse and the engine takes them together; otherwise everything
   * stays as it was. Inputs outside the form take the value alone. Returns '' or why not.
   */
  setTexts(texts, t) {
    const before = {
      inputs: structuredClone(this.inputs),
      texts: { ...this.texts },
      parseErrors: { ...this.parseErrors },
    };
    const formError = this.formError;
    let problem = '';
    for (const [name, text] of Object.entries(texts)) {
      const field = this.fields.find((candidate) => candidate.name === name);
      if (field) {
        if (!this.#parse(field, text)) problem ||= `${t(field.label)}: ${this.fieldError(name, t)}`;
        continue;
      }
      try {
        this.inputs = {
          ...this.inputs,
          [name]: controlFor(this.published.find((input) => input.name === name)).parse(text),
        };
      } catch (error) {
        if (!(error instanceof FieldError)) throw error;
        problem ||= `${name}: ${t(`errors.${error.key}`, error.params)}`;
      }
    }
    if (!problem) {
      this.compute();
      const refused = Object.keys(texts).find((name) => this.engineErrors[name]);
      problem = refused ? this.engineErrors[refused] : this.formError !== formError ? (this.formError ?? '') : '';
    }
    if (problem) {
      Object.assign(this, before);
      this.compute();
    }
    return problem;
  }

  /**
   * Inputs given from outside (a link, an embedding page's JSON). A field of the form goes through
   * the same parser as typing, so a malformed value is marked on its field instead of being run;
   * any other input goes to the engine as it is, which says what is wrong with it.
   */
  applyGiven(given) {
    if (given === null || typeof given !== 'object' || Array.isArray(given)) return;
    const others = []; // given inputs the form does not show (encoder states, say)
    for (const [name, value] of Object.entries(given)) {
      const field = this.fields.find((candidate) => candidate.name === name);
      if (field) this.#parse(field, typeof value === 'string' ? value : formatted(field, value));
      else {
        others.push(name);
        this.inputs[name] = value;
      }
    }
    this.compute();
    // Refused, they would keep every later edit from computing: the message stays, they go.
    if (this.formError && others.length) {
      const message = this.formError;
      for (const name of others) delete this.inputs[name];
      this.compute();
      this.formError ??= message;
    }
  }

  // Keeps `text` as the field's text and, when it parses, its value; false when it does not.
  #parse(field, text) {
    this.texts[field.name] = text;
    try {
      this.inputs[field.name] = field.parse(text);
      delete this.parseErrors[field.name];
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      this.parseErrors[field.name] = error;
      return false;
    }
    // the spec may change other inputs to fit this one; their fields then show the new values
    const adjusted = this.spec.adjust?.(this.inputs, field.name) ?? this.inputs;
    for (const name of Object.keys(adjusted))
      if (name !== field.name && adjusted[name] !== this.inputs[name]) {
        delete this.texts[name];
        delete this.parseErrors[name];
      }
    this.inputs = adjusted;
    return true;
  }

  /** The text a field shows: what the user typed, or the formatted input. */
  text(field) {
    return this.texts[field.name] ?? field.format(this.inputs[field.name]);
  }

  /**
   * The message to show next to a field, translated by `t`; '' when the field is fine. A control of
   * its own words what the engine refused its text for (a scene: every fault).
   */
  fieldError(name, t) {
    const parseError = this.parseErrors[name];
    if (parseError) return t(`errors.${parseError.key}`, parseError.params);
    if (!this.engineErrors[name]) return '';
    const field = this.fields.find((candidate) => candidate.name === name);
    return ENGINE_ERRORS[field.control]?.(this.attn, this.text(field), t, this.facts) || this.engineErrors[name];
  }

  hasErrors() {
    return (
      Boolean(this.formError) || Object.keys(this.parseErrors).length > 0 || Object.keys(this.engineErrors).length > 0
    );
  }

  /** The inputs that differ from the notebook's, for links that carry the whole state. */
  changedInputs() {
    return Object.fromEntries(
      Object.entries(this.inputs).filter(
        ([name, value]) => JSON.stringify(value) !== JSON.stringify(this.defaults[name]),
      ),
    );
  }

  isDefault() {
    return Object.keys(this.changedInputs()).length === 0;
  }
}

// A given value as the text the user would have typed for it (what cannot be formatted, as
// String() prints it, so its field shows what was wrong).
function formatted(field, value) {
  try {
    return field.format(value);
  } catch {
    return String(value);
  }
}
