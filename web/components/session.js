// One walkthrough's state: its inputs (and the text the user typed for each), the errors that
// keep a field from being used, and the trace computed from the last valid inputs. The page and
// the <attention-stepper> element both keep one per walkthrough.
import { DEFAULT_INPUTS, FIELDS, FieldError, fieldOfMessage } from './inputs.js';

export class WalkthroughSession {
  constructor(attn, walkthrough, inputs = {}) {
    this.attn = attn;
    this.walkthrough = walkthrough;
    this.inputs = { ...structuredClone(DEFAULT_INPUTS[walkthrough]), ...inputs };
    this.texts = {}; // key -> text as typed, kept even while it does not parse
    this.parseErrors = {}; // key -> FieldError
    this.engineErrors = {}; // key -> the engine's message about that field
    this.formError = null; // an engine message about no field in particular
    this.trace = null;
    this.compute();
  }

  /** Recomputes the trace; on an engine error keeps the last good trace and records the error. */
  compute() {
    this.engineErrors = {};
    this.formError = null;
    try {
      this.trace = this.attn.walkthrough(this.walkthrough, this.engineInputs());
    } catch (error) {
      const field = fieldOfMessage(this.walkthrough, error.message);
      if (field) this.engineErrors[field] = error.message;
      else this.formError = error.message;
      if (!this.trace) throw error; // nothing to fall back on
    }
  }

  engineInputs() {
    if (this.walkthrough !== 'scoring') return this.inputs;
    // Empty token lists mean "the default words", which the engine picks when they are absent.
    const { sourceTokens, targetTokens, ...rest } = this.inputs;
    return { ...rest, ...(sourceTokens.length && { sourceTokens }), ...(targetTokens.length && { targetTokens }) };
  }

  /** The user typed `text` into field `key`: parse it, and recompute when it parses. */
  setText(key, text) {
    const spec = FIELDS[this.walkthrough].find(([name]) => name === key)[1];
    this.texts[key] = text;
    try {
      this.inputs[key] = spec.parse(text);
      delete this.parseErrors[key];
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      this.parseErrors[key] = error;
      return false;
    }
    if (key === 'embeddings') this.inputs.word = Math.min(this.inputs.word, this.inputs.embeddings.length - 1);
    this.compute();
    return true;
  }

  /**
   * Inputs given from outside (a link, an embedding page's JSON): each goes through the same
   * parser as typing, so a malformed value is marked on its field instead of being run.
   */
  applyGiven(given) {
    if (given === null || typeof given !== 'object') return;
    for (const [key, spec] of FIELDS[this.walkthrough]) {
      const value = given[key];
      if (value === undefined) continue;
      let text;
      try {
        text = typeof value === 'string' ? value : spec.format(value);
      } catch {
        text = String(value);
      }
      this.setText(key, text);
    }
  }

  /** The text a field shows: what the user typed, or the formatted input. */
  text(key, spec) {
    return this.texts[key] ?? spec.format(this.inputs[key]);
  }

  /** The message to show next to a field, translated by `t`; '' when the field is fine. */
  fieldError(key, t) {
    const parseError = this.parseErrors[key];
    return parseError ? t(`errors.${parseError.key}`, parseError.params) : (this.engineErrors[key] ?? '');
  }

  hasErrors() {
    return (
      Boolean(this.formError) || Object.keys(this.parseErrors).length > 0 || Object.keys(this.engineErrors).length > 0
    );
  }

  /** The inputs that differ from the notebook's, for links that carry the whole state. */
  changedInputs() {
    const defaults = DEFAULT_INPUTS[this.walkthrough];
    return Object.fromEntries(
      Object.entries(this.inputs).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(defaults[key])),
    );
  }

  isDefault() {
    return Object.keys(this.changedInputs()).length === 0;
  }

  reset() {
    this.inputs = structuredClone(DEFAULT_INPUTS[this.walkthrough]);
    this.texts = {};
    this.parseErrors = {};
    this.compute();
  }
}
