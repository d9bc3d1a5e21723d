// The trained models the walkthroughs show, of any kind the engine makes, one per identity (for
// seq2seq, a task and a scoring function: MODEL_KINDS): the one the reader trained, else the
// trained one the package ships, else an untrained one (seed 0) until either arrives.
// model() answers at once, so a trace can always be drawn; a shipped model loads in the background
// and `change` fires when it (or a model the reader trained) takes over.
import { MODEL_KINDS, SHIPPED_MODELS } from 'attention-stepper';

export class ModelStore extends EventTarget {
  #attn;
  #entries = new Map(); // key -> { model, origin: 'untrained' | 'loading' | 'shipped' | 'trained', error }

  constructor(attn) {
    super();
    this.#attn = attn;
  }

  /** The model of `kind` with `identity` to draw now. */
  model(kind, identity) {
    return this.#entry(kind, identity).model;
  }

  /** Where that model comes from: 'untrained', 'loading' (untrained, the shipped one on its way), 'shipped' or 'trained'. */
  origin(kind, identity) {
    return this.#entry(kind, identity).origin;
  }

  /** Why the shipped model could not load, or null. */
  error(kind, identity) {
    return this.#entry(kind, identity).error ?? null;
  }

  /** The trained models (shipped, or trained here) among `identities`, in their order. Makes no model. */
  trained(kind, identities) {
    return identities
      .map((identity) => this.#entries.get(key(kind, identity)))
      .filter((entry) => entry?.origin === 'shipped' || entry?.origin === 'trained')
      .map(({ model }) => model);
  }

  /** The identities whose model is not trained yet (nor on its way). Makes no model. */
  untrained(kind, identities) {
    return identities.filter(
      (identity) =>
        (this.#entries.get(key(kind, identity))?.origin ?? (shipped(kind, identity) ? 'loading' : 'untrained')) ===
        'untrained',
    );
  }

  /** A model the reader trained (or loaded from a file) replaces the one of its identity. */
  adopt(model, origin = 'trained') {
    const { kind, config } = model;
    const entry = this.#entries.get(key(kind, config));
    if (entry && entry.model !== model) entry.model.dispose();
    this.#entries.set(key(kind, config), Object.assign(entry ?? {}, { model, origin, error: null }));
    this.#changed(kind, config);
  }

  #entry(kind, identity) {
    let entry = this.#entries.get(key(kind, identity));
    if (entry) return entry;
    const fields = identityOf(kind, identity);
    entry = { model: this.#attn[MODEL_KINDS[kind].create](fields), origin: 'untrained', error: null };
    this.#entries.set(key(kind, identity), entry);
    if (shipped(kind, identity)) {
      entry.origin = 'loading';
      this.#attn.loadShippedModel({ kind, ...fields }).then(
        (model) => (entry.origin === 'loading' ? this.adopt(model, 'shipped') : model.dispose()),
        (error) => {
          if (entry.origin !== 'loading') return;
          Object.assign(entry, { origin: 'untrained', error: error.message });
          this.#changed(kind, identity);
        },
      );
    }
    return entry;
  }

  #changed(kind, identity) {
    this.dispatchEvent(new CustomEvent('change', { detail: { kind, identity: identityOf(kind, identity) } }));
  }
}

// The identity's own fields, whatever else the object holds (a model's config, the inputs).
const identityOf = (kind, object) => Object.fromEntries(MODEL_KINDS[kind].identity.map((name) => [name, object[name]]));
const key = (kind, identity) => JSON.stringify([kind, ...MODEL_KINDS[kind].identity.map((name) => identity[name])]);
const shipped = (kind, identity) =>
  SHIPPED_MODELS.some(
    (entry) => entry.kind === kind && MODEL_KINDS[kind].identity.every((name) => entry[name] === identity[name]),
  );
