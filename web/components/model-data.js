// The model panel's data (model-panel.js), for walkthroughs whose models learn the reader's own
// text (their spec's `models.data`, which says what its lines are: sentence pairs, labelled
// sentences): the text pasted, dropped or opened as a file, or one of the engine's tasks as a
// sample; how to read it; what reading kept and the first lines as the model reads them; then a
// task of them (made by the kind's reader function, MODEL_KINDS[kind].reader.create), which the
// form's task field picks and the runs train on. The text is read once: the task's bytes (its
// save()) are what a run's worker and a later visit take (reader.load). They never leave the
// reader's machine: they are kept, with the models trained on them, in this browser
// (reader-store.js), listed with their size.
import { button, el, setText } from './dom.js';
import { byteSize, taskName } from '../locales/format.js';
import { readerStore } from './reader-store.js';

const PREVIEW = 3; // lines shown as tokens

/**
 * The data: { element, draw() }, for the walkthrough on screen: one panel for each spec's `data`
 * (sentence pairs, labelled sentences), made when first shown. A model the reader trains on a
 * task of theirs is kept with it.
 */
export function modelData(controller) {
  const element = el('div', 'model-data-panels');
  const store = readerStore();
  const panels = new Map(); // a spec's data -> its panel
  controller.models.addEventListener('change', ({ detail: { kind, identity } }) => {
    if (!store || !controller.readerTasks.has(identity.task) || controller.models.origin(kind, identity) !== 'trained')
      return;
    const bytes = controller.models.file(kind, identity);
    store.putModel({ key: JSON.stringify([kind, identity]), task: identity.task, bytes }).then(
      () => [...panels.values()].forEach((panel) => panel.list()),
      () => {},
    );
  });
  function draw() {
    const { data } = controller.spec.models;
    if (!panels.has(data)) panels.set(data, readerData(controller, data, controller.reader, store));
    const panel = panels.get(data);
    if (element.firstChild !== panel.element) element.replaceChildren(panel.element);
    panel.draw();
  }
  return { element, draw };
}

/**
 * The panel of one kind of reader's text (`data`, the spec's), whose tasks `reader` (the kind's:
 * the engine's functions that make them of text and of bytes) makes: { element, draw(), list() }. Lines read into a task go to
 * controller.addReaderTask, which puts the walkthrough on it; lines that cannot be read leave the
 * text, and the task on screen, as they were, with the engine's message next to the text.
 */
function readerData(controller, data, reader, store) {
  const { attn } = controller;
  const facts = () => data.facts(attn);
  // the words of these lines (data.pairs.*, data.sentences.*)
  const say = (key, params) => controller.t(`${data.texts}.${key}`, params);
  const element = el('section', 'model-data');
  const heading = el('h3', 'model-data-heading');
  const intro = el('p', 'field-hint');
  const textLabel = el('label', '');
  const text = el('textarea', 'model-data-text');
  text.id = `model-data-text-${++textAreas}`;
  text.rows = 6;
  text.spellcheck = false;
  textLabel.htmlFor = text.id;
  const error = el('p', 'field-error');
  error.id = `${text.id}-error`;
  error.setAttribute('aria-live', 'polite');
  text.setAttribute('aria-describedby', error.id);

  const open = el('input');
  open.type = 'file';
  open.accept = '.txt,.tsv,text/plain,text/tab-separated-values';
  const openLabel = el('label', 'field model-data-open');
  openLabel.append(el('span'), open);
  const samples = el('div', 'model-data-samples');
  const sampleLabels = new Map(); // a sample's button -> its name in a language (made once, named at each draw)

  // how to read the lines: the column the data names (the source, the label), tokens, lower case,
  // rare words, length
  const column = select(Array.from({ length: data.column.count }, (_, i) => String(i)));
  const unit = select(['word', 'character']);
  const lowercase = el('input');
  lowercase.type = 'checkbox';
  const minCount = number(1, 1000);
  const maxLength = number(1); // its max is the engine's, set on the first draw
  const options = el('div', 'model-data-options');
  const optionLabels = {};
  for (const [name, control] of Object.entries({ [data.column.name]: column, unit, lowercase, minCount, maxLength })) {
    const label = el('label', 'field');
    const span = el('span');
    label.append(span, control);
    optionLabels[name] = span;
    options.append(label);
  }
  const read = button('model-data-read', () => readLines());
  const stats = el('p', 'model-data-stats');
  stats.setAttribute('role', 'status');
  const preview = el('ol', 'model-data-preview');
  const privacy = el('p', 'field-hint');
  const savedHeading = el('h4', 'model-data-heading');
  const saved = el('ul', 'model-data-saved');
  element.append(heading, intro, textLabel, text, error, openLabel, samples, options, read, stats, preview);
  element.append(savedHeading, saved, privacy);
  let kept = []; // the store's task entries, with the bytes of their models

  let sampleOptions = {}; // what a sample needs read with (its unit and longest sentence)
  let task = null; // the task on screen
  let started = false; // the options take the engine's defaults on the first draw (the models loaded)

  function resetOptions(given = {}) {
    const { defaults } = facts();
    column.value = String(given[data.column.name] ?? defaults[data.column.name]);
    unit.value = given.unit ?? defaults.unit;
    lowercase.checked = given.lowercase ?? defaults.lowercase;
    minCount.value = String(given.minCount ?? defaults.minCount);
    maxLength.value = String(given.maxLength ?? defaults.maxLength);
  }

  text.addEventListener('input', () => (sampleOptions = {}));
  text.addEventListener('dragover', (event) => event.preventDefault());
  text.addEventListener('drop', (event) => {
    const [file] = event.dataTransfer?.files ?? [];
    if (!file) return;
    event.preventDefault();
    readFile(file);
  });
  open.addEventListener('change', () => open.files[0] && readFile(open.files[0]));

  async function readFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // the engine checks the bytes are UTF-8 text; the text area shows what they say
    const shown = new TextDecoder().decode(bytes.subarray(0, 200_000));
    text.value = bytes.length > 200_000 ? `${shown}\n…` : shown;
    sampleOptions = {};
    readLines(bytes, file.name);
    open.value = '';
  }

  // the lines of `bytes` (a file's, named `file`: the task is named after it) or of the text area
  async function readLines(bytes, file) {
    const given = {
      text: bytes ?? text.value,
      file,
      name: sampleOptions.name,
      [data.column.name]: Number(column.value),
      unit: unit.value,
      lowercase: lowercase.checked,
      minCount: Number(minCount.value),
      maxLength: Number(maxLength.value),
    };
    // The engine reads on this thread, some 25,000 lines (1.5 MB) in half a second: a large text
    // says so, painted, before the page waits on it.
    if (text.value.length > SLOW_TEXT) {
      setText(stats, say('reading'));
      element.setAttribute('aria-busy', 'true');
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    }
    try {
      const made = attn[reader.create](given);
      // the same text read with the same options already (pasted, then opened as a file): that
      // task, not a second copy of it under another name
      const twin = [...controller.readerTasks.values()].find(
        (other) => other.id !== made.id && other.hash === made.hash,
      );
      if (twin) made.dispose();
      task = twin ?? made;
      // the walkthrough on the task: a problem there (the engine refusing its trace) shows here
      const problem = controller.addReaderTask(task);
      if (!twin) keep(entryOf(made));
      error.textContent = problem;
      text.setAttribute('aria-invalid', String(Boolean(problem)));
      draw();
    } catch (problem) {
      // the text stays where it was, and so does the task on screen
      error.textContent = say('failed', { error: problem.message });
      text.setAttribute('aria-invalid', 'true');
      draw(); // the statistics of the task still on screen, if any, not the notice
    } finally {
      element.removeAttribute('aria-busy');
    }
  }

  // ---- what this browser keeps ------------------------------------------------------------------

  // a task as the store keeps it: its bytes, which make it again without reading its text
  function entryOf(made) {
    const bytes = made.save();
    return {
      id: made.id,
      name: made.name,
      reader: reader.create,
      bytes,
      lines: data.lines(made.stats),
      size: bytes.length,
    };
  }

  async function keep(entry) {
    if (!store) return;
    await store.putTask(entry).catch(() => {}); // a full or blocked store keeps nothing, silently
    await list();
  }

  // this panel's kept tasks (those its reader made), with the store's models
  async function list() {
    const [all, models] = await Promise.all([store.tasks(), store.models()]);
    const tasks = all.filter((entry) => entry.reader === reader.create);
    kept = tasks.map((entry) => ({
      ...entry,
      size:
        entry.size +
        models.filter((model) => model.task === entry.id).reduce((sum, model) => sum + model.bytes.length, 0),
    }));
    drawKept();
    // read from the store at least once: an empty list now means none is kept
    saved.dataset.listed = '';
    return { tasks, models };
  }

  // The tasks and models of earlier visits: the engine makes the tasks again of their bytes (a task
  // kept before tasks had bytes is read from its text once more, and kept as bytes from then on),
  // then loads the models (which share them), and the controller takes both at once.
  async function restore() {
    const { tasks, models } = await list();
    const made = tasks.flatMap((entry) => {
      try {
        if (entry.bytes) return [attn[reader.load](entry.bytes)];
        const read = attn[reader.create](entry.data);
        store.putTask(entryOf(read)).catch(() => {});
        return [read];
      } catch {
        return []; // bytes this engine no longer reads stay listed, to be deleted
      }
    });
    const ids = new Set(made.map((task) => task.id));
    const loaded = models
      .filter((model) => ids.has(model.task))
      .map(({ bytes }) => ({ model: attn.loadModel(bytes), bytes }));
    // their test measures a batch per task first, as every model the store adopts
    await Promise.all(loaded.map(({ model }) => model.prepare()));
    controller.restoreReader(made, loaded);
    // a link to lines this browser never read: say why their task cannot show
    const unkept = controller.unkeptTask();
    if (unkept) error.textContent = say('unkept', { task: unkept });
  }

  function drawKept() {
    const { t } = controller;
    savedHeading.hidden = saved.hidden = !kept.length;
    setText(savedHeading, t('data.kept'));
    saved.replaceChildren(
      ...kept.map((entry) => {
        const item = el('li');
        const use = button('model-data-use', () => {
          const present = controller.readerTasks.get(entry.id);
          if (present) controller.addReaderTask(present);
        });
        const remove = button('model-data-delete', async () => {
          await store.deleteTask(entry.id);
          controller.removeReaderTask(entry.id);
          await list();
        });
        use.hidden = !controller.readerTasks.has(entry.id);
        setText(use, t('data.use'));
        setText(remove, t('data.delete'));
        remove.setAttribute('aria-label', t('data.deleteNamed', { name: taskName(entry.id, t) }));
        const size = byteSize(entry.size);
        item.append(
          el('span', '', say('keptTask', { name: taskName(entry.id, t), lines: entry.lines, size })),
          use,
          remove,
        );
        return item;
      }),
    );
  }

  function drawStats() {
    const { t } = controller;
    if (!task) return (setText(stats, ''), preview.replaceChildren());
    const s = task.stats;
    const dropped = Object.entries(s.dropped)
      .map(([reason, count]) => say(`dropped.${reason}`, { count }))
      .join(t('listSeparator'));
    setText(
      stats,
      say('stats', {
        ...data.stats(task, t),
        name: taskName(task.id, t),
        train: s.train,
        validation: s.validation,
        test: s.test,
        unknown: `${(s.unknownShare * 100).toFixed(1)}%`,
      }) + (dropped ? ` ${t('data.droppedAll', { dropped })}` : ''),
    );
    // each line's two sides as the model reads them (tokens, or the label as it is)
    preview.replaceChildren(
      ...task.test.slice(0, PREVIEW).map((line) => {
        const item = el('li');
        const [input, output] = data
          .preview(task, line)
          .map((tokens) => el('span', 'model-data-tokens', tokens.join(' · ')));
        item.append(input, el('span', '', ' → '), output);
        return item;
      }),
    );
  }

  function draw() {
    const { t } = controller;
    if (!started) {
      maxLength.max = facts().maxLength;
      resetOptions();
      started = true;
      if (store) restore().catch(() => {}); // no store (private mode…): nothing was kept
    }
    setText(heading, say('heading'));
    setText(intro, say('intro'));
    setText(textLabel, say('text'));
    text.placeholder = data.placeholder;
    setText(openLabel.firstChild, t('data.open'));
    setText(read, say('read'));
    setText(privacy, t('data.private'));
    for (const [name, span] of Object.entries(optionLabels)) setText(span, t(`data.options.${name}`));
    [...unit.options].forEach((option) => setText(option, t(`data.units.${option.value}`)));
    [...column.options].forEach((option) => setText(option, t('data.column', { n: Number(option.value) + 1 })));
    if (!samples.childElementCount)
      samples.append(
        el('span', '', ''),
        ...data.samples(attn).map(({ id, label, read: readSample }) => {
          const sample = button('model-data-sample', () => {
            const { name, text: lines, unit: sampleUnit, maxLength: longest } = readSample();
            text.value = lines;
            resetOptions({ unit: sampleUnit, maxLength: longest, lowercase: false });
            sampleOptions = { name };
            readLines();
          });
          sample.dataset.task = id;
          sampleLabels.set(sample, label);
          return sample;
        }),
      );
    setText(samples.firstChild, t('data.samples'));
    for (const [sample, label] of sampleLabels) setText(sample, label(t));
    drawStats();
    drawKept();
  }

  return { element, draw, list };
}

let textAreas = 0; // the pages' text areas, numbered for their ids

const SLOW_TEXT = 200_000; // characters: a text longer than this takes a noticeable moment to read

function select(values) {
  const element = el('select');
  for (const value of values) element.append(new Option(value, value));
  return element;
}

function number(min, max = 1000) {
  const element = el('input');
  Object.assign(element, { type: 'number', min, max, step: 1 });
  return element;
}
