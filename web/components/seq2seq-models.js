// The translation models of the seq2seq and scoring walkthroughs, one per task and scoring
// function: the one the reader trained, else the trained one the package ships, else an untrained
// one (seed 0) until either arrives.
// model() answers at once, so a trace can always be drawn; a shipped model loads in the background
// and `change` fires when it (or a model the reader trained) takes over.
import { SHIPPED_MODELS } from 'attention-stepper';

export class Seq2seqModels extends EventTarget {
  #attn;
  #entries = new Map(); // "task/scoring" -> { model, origin: 'untrained' | 'loading' | 'shipped' | 'trained', error }

  #scorings; // the scoring functions, as the engine publishes the walkthrough's choices

  constructor(attn) {
    super();
    this.#attn = attn;
    this.#scorings = attn.seq2seqFacts().scorings;
  }

  /** The model to translate with now. */
  model(task, scoring) {
    return this.#entry(task, scoring).model;
  }

  /** Where the current model comes from: 'untrained', 'loading' (untrained, the shipped one on its way), 'shipped' or 'trained'. */
  origin(task, scoring) {
    return this.#entry(task, scoring).origin;
  }

  /** Why the shipped model could not load, or null. */
  error(task, scoring) {
    return this.#entry(task, scoring).error ?? null;
  }

  /**
   * The models of `task` for every scoring function, when each one is trained (shipped, or trained
   * here): what the walkthrough compares; otherwise null. Makes no model.
   */
  trainedSet(task) {
    const trained = this.#trained(task);
    return trained.length === this.#scorings.length ? trained : null;
  }

  /**
   * What the scoring walkthrough compares: the trained models of `task` (shipped, or trained
   * here), in the engine's order of scoring functions; while there is none, the additive one
   * model() gives (the shipped one, once it loads).
   */
  compared(task) {
    const trained = this.#trained(task);
    return trained.length ? trained : [this.model(task, this.#scorings[0])];
  }

  // The trained models of `task` (shipped, or trained here), in the order of scoring functions.
  #trained(task) {
    return this.#scorings
      .map((scoring) => this.#entries.get(`${task}/${scoring}`))
      .filter((entry) => entry?.origin === 'shipped' || entry?.origin === 'trained')
      .map(({ model }) => model);
  }

  /** The scoring functions whose model of `task` is not trained yet (nor on its way). Makes no model. */
  untrained(task) {
    return this.#scorings.filter(
      (scoring) =>
        (this.#entries.get(`${task}/${scoring}`)?.origin ?? (shipped(task, scoring) ? 'loading' : 'untrained')) ===
        'untrained',
    );
  }

  /** A model the reader trained (or loaded from a file) replaces the one of its task and scoring. */
  adopt(model, origin = 'trained') {
    const { task, scoring } = model.config;
    const key = `${task}/${scoring}`;
    const entry = this.#entries.get(key);
    if (entry && entry.model !== model) entry.model.dispose();
    this.#entries.set(key, Object.assign(entry ?? {}, { model, origin, error: null }));
    this.#changed(task, scoring);
  }

  #entry(task, scoring) {
    const key = `${task}/${scoring}`;
    let entry = this.#entries.get(key);
    if (entry) return entry;
    entry = { model: this.#attn.createSeq2seq({ task, scoring }), origin: 'untrained', error: null };
    this.#entries.set(key, entry);
    if (shipped(task, scoring)) {
      entry.origin = 'loading';
      this.#attn.loadShippedSeq2seq({ task, scoring }).then(
        (model) => (entry.origin === 'loading' ? this.adopt(model, 'shipped') : model.dispose()),
        (error) => {
          if (entry.origin !== 'loading') return;
          Object.assign(entry, { origin: 'untrained', error: error.message });
          this.#changed(task, scoring);
        },
      );
    }
    return entry;
  }

  #changed(task, scoring) {
    this.dispatchEvent(new CustomEvent('change', { detail: { task, scoring } }));
  }
}

const shipped = (task, scoring) => SHIPPED_MODELS.some((model) => model.task === task && model.scoring === scoring);
