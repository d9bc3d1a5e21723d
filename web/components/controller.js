// The one controller behind the page and the <attention-stepper> element: which walkthrough and
// stage are on screen, the inputs of each walkthrough (a session each), the options (language,
// theme, palette, exercise mode) and the learner's answers. It moves between stages, takes edits
// and describes the stage on screen; whoever draws listens to its `change` event, whose
// detail.reason is 'stage', 'walkthrough', 'inputs', 'options', 'answer' or 'loading' (the
// models' code or the texts are on their way for the walkthrough asked for: `loading` names it).
import { describeStage, hasModels, loadSpec, SPECS, stageTitle, WALKTHROUGHS } from '../walkthroughs/index.js';
import { hasTexts, LANGUAGES, loadLanguage, translator } from './i18n.js';
import { MODEL_KINDS } from 'attention-stepper';

import { loadModelPanel, modelPanelLoaded } from './model-panel-slot.js';
import { ModelStore } from './model-store.js';
import { PALETTES } from './palettes.js';
import { WalkthroughSession } from './session.js';

const THEMES = ['light', 'dark'];

// Keys that move between stages, and by how much.
const MOVES = { ArrowLeft: -1, ArrowRight: 1, PageUp: -1, PageDown: 1, Home: -Infinity, End: Infinity };

const pick = (value, allowed, fallback) => (allowed.includes(value) ? value : fallback);
// A walkthrough's name given that is none of them (none given, or '', is no name), cut short.
const unknownName = (name) => (name && !WALKTHROUGHS.includes(name) ? String(name).slice(0, 40) : null);

// Whether the page lacks what a walkthrough needs before it shows: its texts in `lang`, and for a
// walkthrough of trained models the models' code (attn.loadModels()), the model panel's and the
// walkthrough's spec.
const lacks = (attn, walkthrough, lang) =>
  !hasTexts(lang, walkthrough) ||
  (hasModels(walkthrough) && !(attn.modelsLoaded && modelPanelLoaded() && Object.hasOwn(SPECS, walkthrough)));

/**
 * `attn` once it computes `walkthrough` (a name, or basics for an unknown one) and its texts in
 * `lang` are in: a page makes its controller with it.
 */
export async function readyFor(attn, walkthrough, lang) {
  const name = pick(walkthrough, WALKTHROUGHS, 'basics');
  const models = hasModels(name);
  await Promise.all([
    models && !attn.modelsLoaded && attn.loadModels(),
    models && loadModelPanel(),
    models && loadSpec(name),
    loadLanguage(lang, [name]),
  ]);
  return attn;
}

export class StepperController extends EventTarget {
  #attn;
  #given;
  #sessions = new Map();
  #readerTasks = new Map(); // id -> the task
  #answers = {}; // "walkthrough/stage" -> the learner's answer in exercise mode
  #models = null;
  // A stage asked for (a link, an attribute) that the walkthrough's trace has not got until its
  // trained model is in (the words of a caption it writes): { walkthrough, stage }, until the
  // reader moves.
  #asked = null;
  // A walkthrough a link or an attribute asked for that there is none of (basics shows instead),
  // until the reader goes elsewhere.
  #unknownWalkthrough = null;
  /** The walkthrough whose models' code or texts are on their way (setWalkthrough), or null. */
  loading = null;
  /** Why they did not load, when they did not. */
  loadError = null;

  /**
   * attn: a loaded engine that computes the walkthrough asked for, its texts in (readyFor). state: { walkthrough, stage, lang, theme, palette, exercise, inputs },
   * inputs given per walkthrough ({ basics: { … } }); anything unknown falls back to the default.
   */
  constructor(attn, state = {}) {
    super();
    this.#attn = attn;
    this.#given = state.inputs ?? {};
    this.options = {};
    this.#setOptions(state);
    this.walkthrough = pick(state.walkthrough, WALKTHROUGHS, 'basics');
    this.#unknownWalkthrough = unknownName(state.walkthrough);
    if (lacks(attn, this.walkthrough, this.options.lang)) this.walkthrough = 'basics';
    this.stageId = this.#askedStage(state.stage);
  }

  // ---- state ----------------------------------------------------------------------------------

  /** The engine the walkthroughs are computed with. */
  get attn() {
    return this.#attn;
  }

  /** The session of a walkthrough (the one on screen by default), made on first use. */
  session(walkthrough = this.walkthrough) {
    if (!this.#sessions.has(walkthrough)) {
      const session = new WalkthroughSession(this.#attn, walkthrough, {
        // the walkthroughs of trained models take them from controller.models, as their spec says
        context:
          SPECS[walkthrough].models && ((inputs) => SPECS[walkthrough].models.context(inputs, this.models, this.#attn)),
        defaults: SPECS[walkthrough].defaults?.(this.options.lang),
      });
      session.applyGiven(this.#given[walkthrough]);
      this.#sessions.set(walkthrough, session);
    }
    return this.#sessions.get(walkthrough);
  }

  /**
   * The inputs that differ from the defaults, by walkthrough, for links that carry the whole
   * state: a session's, or for a walkthrough not opened yet, what the link gave.
   */
  changedInputs() {
    return Object.fromEntries(
      WALKTHROUGHS.map((name) => [
        name,
        this.#sessions.has(name) ? this.#sessions.get(name).changedInputs() : (this.#given[name] ?? {}),
      ]).filter(([, inputs]) => Object.keys(inputs).length),
    );
  }

  /** The trained models the walkthroughs show (made on first use). */
  get models() {
    if (!this.#models) {
      this.#models = new ModelStore(this.#attn);
      // a model that arrives (the shipped one, or one the reader trained) redraws the walkthroughs
      this.#models.addEventListener('change', () => this.#recomputeModels());
    }
    return this.#models;
  }

  // The walkthroughs of trained models computed again (their models or tasks changed).
  #recomputeModels() {
    for (const [name, session] of this.#sessions) if (SPECS[name].models) session.compute();
    if (this.spec.models) {
      const asked = this.#askedHere();
      this.stageId = asked ? this.#askedStage(asked) : this.#validStage(this.stageId, 'last');
      this.#changed('inputs');
    }
  }

  /**
   * The tasks of the reader's text (made by a kind's reader functions: createTranslationTask,
   * loadClassificationTask…), by id: a training run takes one to its worker as the task's bytes.
   */
  get readerTasks() {
    return this.#readerTasks;
  }

  /** The engine's functions that make a task of the reader's text, or of its bytes, for the models on screen (their kind's `reader`: { create, load }). */
  get reader() {
    return MODEL_KINDS[this.spec.models.kind].reader;
  }

  /**
   * A task of the reader's text: the walkthrough on screen shows its model, on a held-out
   * sentence. Returns '' or why the walkthrough cannot show it.
   */
  addReaderTask(task) {
    this.#readerTasks.set(task.id, task);
    const [source] = task.validation[0] ?? task.test[0] ?? [];
    return this.fill({ task: task.id, ...(source ? { sentence: source } : {}) });
  }

  /**
   * The reader's tasks and models kept from an earlier visit (tasks, and { model, bytes } of them),
   * all at once: the walkthroughs that name them are computed once, with the models in place (none
   * of them starts training as untrained on the way).
   */
  restoreReader(tasks, models) {
    for (const task of tasks) this.#readerTasks.set(task.id, task);
    if (models.length) this.models.adoptAll(models);
    else this.#recomputeModels();
  }

  /**
   * The task a link named for the walkthrough on screen that is neither one of the engine's nor
   * one of the reader's kept tasks ('' when there is none): a task of someone's own pairs lives
   * only in the browser that read them, so a link to it cannot show it here.
   */
  unkeptTask() {
    const task = this.#given[this.walkthrough]?.task;
    if (typeof task !== 'string' || !this.spec.models?.data) return '';
    const field = this.session().fields.find(({ name }) => name === 'task');
    return field?.field.choices.includes(task) || this.#readerTasks.has(task) ? '' : task;
  }

  /**
   * Forgets a task of the reader's text (its models stay until replaced): a walkthrough that
   * showed it goes back to its default task.
   */
  removeReaderTask(id) {
    this.#readerTasks.get(id)?.dispose();
    this.#readerTasks.delete(id);
    for (const [name, session] of this.#sessions) {
      if (session.inputs.task !== id) continue;
      if (name === this.walkthrough) this.edit('task', session.defaults.task);
      else session.setText('task', session.defaults.task);
    }
  }

  /** The spec of the walkthrough on screen (web/walkthroughs/). */
  get spec() {
    return SPECS[this.walkthrough];
  }

  get trace() {
    return this.session().trace;
  }

  /** The trace's stages: none while the walkthrough awaits a model the reader loads (session().awaitsModel). */
  get stages() {
    return this.trace?.stages ?? [];
  }

  get index() {
    return Math.max(
      0,
      this.stages.findIndex((stage) => stage.id === this.stageId),
    );
  }

  get stage() {
    return this.stages[this.index];
  }

  /** Whether the walkthrough on screen asks questions in exercise mode. */
  get hasQuestions() {
    return Object.values(SPECS[this.walkthrough].stages).some((entry) => entry.question);
  }

  // ---- moves ----------------------------------------------------------------------------------

  goTo(stageId) {
    if (!this.stages.some((stage) => stage.id === stageId))
      throw new RangeError(
        `goTo: no stage "${stageId}" in ${this.walkthrough}; stages: ${this.stages.map((stage) => stage.id).join(', ')}`,
      );
    this.#asked = null;
    this.#unknownWalkthrough = null;
    if (stageId === this.stageId) return;
    this.stageId = stageId;
    this.#changed('stage');
  }

  /** Moves `delta` stages (±Infinity: to the first or last), stopping at either end. */
  step(delta) {
    const index = Math.min(this.stages.length - 1, Math.max(0, this.index + delta));
    this.goTo(this.stages[index].id);
  }

  next() {
    this.step(1);
  }

  prev() {
    this.step(-1);
  }

  setWalkthrough(walkthrough, stageId) {
    const name = pick(walkthrough, WALKTHROUGHS, 'basics');
    this.#unknownWalkthrough = unknownName(walkthrough);
    if (lacks(this.#attn, name, this.options.lang)) {
      // the models' code and the texts first (once): the walkthrough opens when they are in
      this.loading = name;
      this.#changed('loading');
      readyFor(this.#attn, name, this.options.lang).then(
        () => {
          if (this.loading !== name) return;
          this.loading = null;
          this.setWalkthrough(walkthrough, stageId);
        },
        (error) => {
          this.loading = null;
          this.loadError = error.message;
          this.#changed('loading');
        },
      );
      return;
    }
    this.loading = null;
    const changed = name !== this.walkthrough;
    this.walkthrough = name;
    const stage = this.#askedStage(stageId);
    if (!changed && stage === this.stageId) return;
    this.stageId = stage;
    this.#changed(changed ? 'walkthrough' : 'stage');
  }

  /**
   * The keys every stepper shares: arrows, PageUp/PageDown, Home/End. Returns whether the event
   * moved the stage (and then prevents its default). Keys typed into a field are left alone, and
   * so are arrows, Home and End in a heatmap, which move between its cells (PageUp and PageDown
   * move the stage from there).
   */
  handleKey(event) {
    const target = event.composedPath?.()[0] ?? event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || !(event.key in MOVES)) return false;
    if (target?.closest?.('input, textarea, select')) return false;
    if (!event.key.startsWith('Page') && target?.closest?.('.hm-grid')) return false;
    event.preventDefault();
    this.step(MOVES[event.key]);
    return true;
  }

  // ---- inputs and options -----------------------------------------------------------------------

  /** The user typed `text` into the field `name` of the walkthrough on screen. */
  edit(name, text) {
    this.session().setText(name, text);
    this.#clearAnswers();
    this.stageId = this.#validStage(this.stageId, 'last');
    this.#changed('inputs');
  }

  /**
   * Texts for several fields of the walkthrough on screen at once (a file's tensors): all are
   * taken, or none, and the message says why. Returns '' or that message.
   */
  fill(texts) {
    const problem = this.session().setTexts(texts, this.t);
    if (problem) return problem;
    this.#clearAnswers();
    this.stageId = this.#validStage(this.stageId, 'last');
    this.#changed('inputs');
    return '';
  }

  /** Back to the notebook's inputs. */
  reset() {
    this.session().reset();
    this.#clearAnswers();
    this.stageId = this.#validStage(this.stageId);
    this.#changed('inputs');
  }

  /** Changes any of lang, theme, palette, exercise. */
  setOptions(options) {
    this.#setOptions({ ...this.options, ...options });
    this.#changed('options');
  }

  answer(value) {
    this.#answers[`${this.walkthrough}/${this.stageId}`] = value;
    this.#changed('answer');
  }

  // ---- what is on screen --------------------------------------------------------------------------

  /** The title of a stage of the walkthrough on screen, in the current language ('' for none: it awaits a model). */
  stageTitle(stage = this.stage) {
    return stage ? stageTitle(this.trace, stage, this.session().traceInputs, this.t) : '';
  }

  /** "Stage 2 of 9". */
  stageCount() {
    return this.t('stageOf', { n: this.index + 1, total: this.stages.length });
  }

  /** "Stage 2 of 9: One annotation", what assistive technology announces for the stage on screen. */
  stageLabel() {
    return this.stage
      ? this.t('stageLabel', { count: this.stageCount(), title: this.stageTitle() })
      : this.t('model.idle.none');
  }

  /**
   * The stage on screen: { stage, index, total, title, paragraphs, formula, code, question, stale }.
   * In exercise mode the paragraphs that answer the question wait until the reader has answered.
   * `stale`: the labels of the fields whose typed text keeps the stage on the last valid inputs.
   */
  view() {
    const stage = this.stage;
    const { reveal, ...described } = describeStage(this.trace, stage, this.session().traceInputs, this.t);
    const question = this.#question(stage);
    const paragraphs = question && !question.answered ? described.paragraphs : [...described.paragraphs, ...reveal];
    const session = this.session();
    const stale = session.fields
      .filter((field) => session.fieldError(field.name, this.t))
      .map((field) => this.t(field.label));
    return { stage, index: this.index, total: this.stages.length, ...described, paragraphs, question, stale };
  }

  /**
   * What is wrong with the inputs, as one message: engine errors about no field. `withFields` adds
   * each field's problem with its label, for a stepper that shows no form. (The stage itself says
   * that it shows the last valid inputs: view().stale.)
   */
  problems({ withFields = false, extra = [] } = {}) {
    const session = this.session();
    const t = this.t;
    const fieldProblems = withFields
      ? session.fields
          .map((field) => [t(field.label), session.fieldError(field.name, t)])
          .filter(([, problem]) => problem)
          .map(([label, problem]) => t('fieldProblem', { label, problem }))
      : [];
    return [this.#unknownLink(), ...extra, ...fieldProblems, session.formError].filter(Boolean).join(' ');
  }

  // What a link asked for that is not here, or '': a walkthrough there is none of, or a stage the
  // walkthrough on screen lacks once its stages are in (one of a trained model may come with it).
  #unknownLink() {
    const t = this.t;
    if (this.#unknownWalkthrough)
      return t('unknownWalkthrough', { name: this.#unknownWalkthrough, shown: t(`${this.walkthrough}.title`) });
    const asked = this.#askedHere();
    if (!asked || !this.stages.length || this.stages.some((stage) => stage.id === asked)) return '';
    return t('unknownStage', { stage: asked.slice(0, 40), walkthrough: t(`${this.walkthrough}.title`) });
  }

  // ---- internals ------------------------------------------------------------------------------------

  #setOptions(options) {
    const lang = pick(options.lang, LANGUAGES, 'en');
    /** A translator in the current language: t('stageOf', { n: 2, total: 9 }). */
    this.t = translator(lang);
    this.options = {
      lang,
      theme: pick(options.theme, THEMES, 'light'),
      palette: pick(options.palette, PALETTES, 'notebook'),
      exercise: options.exercise === true,
    };
  }

  // The stage a link or an attribute asks for, if the walkthrough on screen has it; else its first,
  // with the stage remembered until its trained model comes (#recomputeModels) or the reader moves.
  #askedStage(stageId) {
    const stage = this.#validStage(stageId);
    this.#asked = stageId && stage !== stageId ? { walkthrough: this.walkthrough, stage: stageId } : null;
    return stage;
  }

  // The stage a link or an attribute asked for that the walkthrough on screen still waits for, or null.
  #askedHere() {
    return this.#asked?.walkthrough === this.walkthrough ? this.#asked.stage : null;
  }

  // A stage of the walkthrough on screen: `stageId` if it has one, else its first (or last); null
  // while it has none (it awaits a model).
  #validStage(stageId, fallback = 'first') {
    const stages = this.stages;
    if (stages.some((stage) => stage.id === stageId)) return stageId;
    return (fallback === 'last' && stageId ? stages.at(-1) : stages[0])?.id ?? null;
  }

  #question(stage) {
    const ask = SPECS[this.walkthrough].stages[stage.kind].question;
    if (!this.options.exercise || !ask) return null;
    const session = this.session();
    const question = ask({
      trace: this.trace,
      stage,
      inputs: session.traceInputs,
      notebookInputs: session.isDefault(),
    });
    if (!question) return null;
    const t = this.t;
    const given = this.#answers[`${this.walkthrough}/${stage.id}`];
    const key = `${this.walkthrough}.questions.${question.id}`;
    return {
      prompt: t(`${key}.prompt`, question.params),
      choices: question.choices.map(([value, label]) => [value, t(label)]),
      answered: given !== undefined,
      feedback: t(`${key}.${given === question.answer ? 'right' : 'wrong'}`, question.params),
    };
  }

  #clearAnswers() {
    for (const key of Object.keys(this.#answers)) if (key.startsWith(`${this.walkthrough}/`)) delete this.#answers[key];
  }

  #changed(reason) {
    this.dispatchEvent(new CustomEvent('change', { detail: { reason } }));
  }
}
