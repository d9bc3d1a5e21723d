// The trained models the walkthroughs show, of any kind the engine makes, one per identity (the
// fields the engine's modelFacts(kind) marks `identity`, each completed with the engine's defaults,
// so that the inputs' 'default' encoder and a model's 'bidirectional' are one): the one the reader trained, else the trained one the package ships,
// else an untrained one (seed 0) until either arrives; for a kind whose models are only loaded
// (its facts' abilities: not creates), the one it ships, else none until the reader loads one
// (origin 'none').
// model() answers at once, so a trace can always be drawn; a shipped model loads in the background
// and `change` fires when it (or a model the reader trained) takes over.
import { fieldsThat, modelIdentity, SHIPPED_MODELS } from 'attention-stepper';

export class ModelStore extends EventTarget {
  #attn;
  #entries = new Map(); // key -> { model, origin: 'untrained' | 'loading' | 'shipped' | 'trained', error }
  #files = new WeakMap(); // a model -> the bytes it came as (a training run's, a file's, the browser's)

  constructor(attn) {
    super();
    this.#attn = attn;
  }

  /** The model of `kind` with `identity` to draw now. */
  model(kind, identity) {
    return this.#entry(kind, identity).model;
  }

  /** Where that model comes from: 'untrained', 'loading' (untrained, the shipped one on its way), 'shipped', 'trained', or 'none' (a kind only loaded, none loaded yet: model() is null). */
  origin(kind, identity) {
    return this.#entry(kind, identity).origin;
  }

  /** The file of the model of `kind` with `identity`: the bytes it came as, else written now. */
  file(kind, identity) {
    const { model } = this.#entry(kind, identity);
    return this.#files.get(model) ?? model.save();
  }

  /** Why the shipped model could not load, or null. */
  error(kind, identity) {
    return this.#entry(kind, identity).error ?? null;
  }

  /** The trained models (shipped, or trained here) among `identities`, in their order. Makes no model. */
  trained(kind, identities) {
    return identities
      .map((identity) => this.#entries.get(this.#key(kind, identity)))
      .filter((entry) => entry?.origin === 'shipped' || entry?.origin === 'trained')
      .map(({ model }) => model);
  }

  /** The identities whose model is not trained yet (nor on its way). Makes no model. */
  untrained(kind, identities) {
    return identities.filter(
      (identity) =>
        (this.#entries.get(this.#key(kind, identity))?.origin ??
          (this.shipped(kind, identity) ? 'loading' : 'untrained')) === 'untrained',
    );
  }

  /** The entry of SHIPPED_MODELS that ships the model of `kind` with `identity` (its steps), or undefined. */
  shipped(kind, identity) {
    const key = this.#key(kind, identity);
    return SHIPPED_MODELS.find((entry) => entry.kind === kind && this.#key(kind, entry) === key);
  }

  /** The whole identity of `object` (the inputs, a model's config): what the store keys by. */
  identity(kind, object) {
    return modelIdentity(kind, object, this.#attn.modelFacts(kind));
  }

  /**
   * A model the reader trained (or loaded from a file) replaces the one of its identity; a shipped
   * model takes the place of the identity it ships as (`identity`). Resolves once it is in place:
   * first what its walkthrough computes once per model is computed a part per task (prepare()),
   * so that no task of the page's runs long when it arrives. `bytes`: the file it was loaded from,
   * kept as its file.
   */
  async adopt(model, { origin = 'trained', identity = model.config, bytes } = {}) {
    if (bytes) this.#files.set(model, bytes);
    await model.prepare();
    // the reader's model, trained or loaded meanwhile, stays
    if (origin === 'shipped' && this.#entries.get(this.#key(model.kind, identity))?.origin === 'trained')
      return model.dispose();
    this.#place(model, origin, identity);
    this.#changed(model.kind, identity);
  }

  /** Models the reader trained ([{ model, bytes }], each with its file), adopted together: one `change`, for the last of them. */
  adoptAll(models) {
    for (const { model, bytes } of models) {
      this.#files.set(model, bytes);
      this.#place(model, 'trained', model.config);
    }
    const last = models.at(-1)?.model;
    if (last) this.#changed(last.kind, last.config);
  }

  /** The reader's model of `kind` with `identity` let go: the one the package ships (or none) takes its place again. */
  forget(kind, identity) {
    const key = this.#key(kind, identity);
    this.#entries.get(key)?.model?.dispose();
    this.#entries.delete(key);
    this.#changed(kind, identity);
  }

  #place(model, origin, identity) {
    const key = this.#key(model.kind, identity);
    const entry = this.#entries.get(key);
    if (entry?.model && entry.model !== model) entry.model.dispose();
    this.#entries.set(key, Object.assign(entry ?? {}, { model, origin, error: null }));
  }

  #entry(kind, identity) {
    const key = this.#key(kind, identity);
    let entry = this.#entries.get(key);
    if (entry) return entry;
    const whole = this.identity(kind, identity);
    const facts = this.#attn.modelFacts(kind);
    // a kind only loaded has no model until one loads; the others an untrained one meanwhile
    let model = null;
    if (facts.abilities.creates) {
      // the create function's options: the identity but what training gives
      const trained = fieldsThat(facts, 'trained');
      const made = Object.fromEntries(Object.entries(whole).filter(([name]) => !trained.includes(name)));
      model = this.#attn.createModel({ kind, ...made });
    }
    const without = model ? 'untrained' : 'none';
    entry = { model, origin: without, error: null };
    this.#entries.set(key, entry);
    if (this.shipped(kind, identity)) {
      entry.origin = 'loading';
      this.#attn.loadShippedModel({ kind, ...whole }).then(
        (shipped) =>
          entry.origin === 'loading' ? this.adopt(shipped, { origin: 'shipped', identity: whole }) : shipped.dispose(),
        (error) => {
          if (entry.origin !== 'loading') return;
          Object.assign(entry, { origin: without, error: error.message });
          this.#changed(kind, identity);
        },
      );
    }
    return entry;
  }

  #key(kind, identity) {
    return JSON.stringify([kind, ...Object.values(this.identity(kind, identity))]);
  }

  #changed(kind, identity) {
    this.dispatchEvent(new CustomEvent('change', { detail: { kind, identity: this.identity(kind, identity) } }));
  }
}
