// The model panel's data (model-panel.js), for walkthroughs whose models learn translation tasks
// (their spec's `models.data`): the reader's own sentence pairs, pasted, dropped or opened as a
// file, or a grammar's task as a sample; how to read them; what reading kept and the first pairs
// as the model reads them; then a task of them (the engine's createTranslationTask), which the
// form's task field picks and the runs train on. The text never leaves the reader's machine: it is
// kept, with the models trained on it, in this browser (reader-store.js), listed with its size.
import { button, el, setText } from './dom.js';
import { taskName } from './format.js';
import { readerStore } from './reader-store.js';

const PREVIEW = 3; // pairs shown as tokens

/**
 * The data: { element, draw() }. Pairs read into a task go to controller.addReaderTask, which
 * puts the walkthrough on it; pairs that cannot be read leave the text, and the task on screen,
 * as they were, with the engine's message next to the text.
 */
export function modelData(controller) {
  const { attn } = controller;
  const facts = () => attn.translationTaskFacts();
  const element = el('section', 'model-data');
  const heading = el('h3', 'model-data-heading');
  const intro = el('p', 'field-hint');
  const textLabel = el('label', '');
  const text = el('textarea', 'model-data-text');
  text.id = `model-data-text-${++panels}`;
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

  // how to read the pairs: which column is the source, tokens, lower case, rare words, length
  const sourceColumn = select(['0', '1']);
  const unit = select(['word', 'character']);
  const lowercase = el('input');
  lowercase.type = 'checkbox';
  const minCount = number(1, 1000);
  const maxLength = number(1); // its max is the engine's, set on the first draw
  const options = el('div', 'model-data-options');
  const optionLabels = {};
  for (const [name, control] of Object.entries({ sourceColumn, unit, lowercase, minCount, maxLength })) {
    const label = el('label', 'field');
    const span = el('span');
    label.append(span, control);
    optionLabels[name] = span;
    options.append(label);
  }
  const read = button('model-data-read', () => readPairs());
  const stats = el('p', 'model-data-stats');
  stats.setAttribute('role', 'status');
  const preview = el('ol', 'model-data-preview');
  const privacy = el('p', 'field-hint');
  const savedHeading = el('h4', 'model-data-heading');
  const saved = el('ul', 'model-data-saved');
  element.append(heading, intro, textLabel, text, error, openLabel, samples, options, read, stats, preview);
  element.append(savedHeading, saved, privacy);
  const store = readerStore();
  let kept = []; // the store's task entries, with the bytes of their models

  let sampleOptions = {}; // what a sample needs read with (its unit and longest sentence)
  let task = null; // the task on screen
  let started = false; // the options take the engine's defaults on the first draw (the models loaded)

  function resetOptions(given = {}) {
    const { defaults } = facts();
    sourceColumn.value = String(given.sourceColumn ?? defaults.sourceColumn);
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
    readPairs(bytes, file.name.replace(/\.[^.]*$/, '').replace(/[\s/\\]+/g, '-'));
    open.value = '';
  }

  async function readPairs(bytes, name) {
    const given = {
      text: bytes ?? text.value,
      name: name || sampleOptions.name || undefined,
      sourceColumn: Number(sourceColumn.value),
      unit: unit.value,
      lowercase: lowercase.checked,
      minCount: Number(minCount.value),
      maxLength: Number(maxLength.value),
    };
    // The engine reads on this thread, some 25,000 pairs (1.5 MB) in half a second: a large text
    // says so, painted, before the page waits on it.
    if (text.value.length > SLOW_TEXT) {
      setText(stats, controller.t('data.reading'));
      element.setAttribute('aria-busy', 'true');
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    }
    try {
      const made = attn.createTranslationTask(given);
      task = made;
      // the walkthrough on the task: a problem there (the engine refusing its trace) shows here
      const problem = controller.addReaderTask(made, given);
      keep({ id: made.id, name: made.name, data: given, pairs: made.stats.pairs, size: byteLength(given.text) });
      error.textContent = problem;
      text.setAttribute('aria-invalid', String(Boolean(problem)));
      draw();
    } catch (problem) {
      // the text stays where it was, and so does the task on screen
      error.textContent = controller.t('data.failed', { error: problem.message });
      text.setAttribute('aria-invalid', 'true');
      draw(); // the statistics of the task still on screen, if any, not the notice
    } finally {
      element.removeAttribute('aria-busy');
    }
  }

  // ---- what this browser keeps ------------------------------------------------------------------

  async function keep(entry) {
    if (!store) return;
    await store.putTask(entry).catch(() => {}); // a full or blocked store keeps nothing, silently
    await list();
  }

  async function list() {
    const [tasks, models] = await Promise.all([store.tasks(), store.models()]);
    kept = tasks.map((entry) => ({
      ...entry,
      size:
        entry.size +
        models.filter((model) => model.task === entry.id).reduce((sum, model) => sum + model.bytes.length, 0),
    }));
    drawKept();
    return { tasks, models };
  }

  // The tasks and models of earlier visits: the engine makes the tasks again, then loads the models
  // (which share them), and the controller takes both at once.
  async function restore() {
    const { tasks, models } = await list();
    const made = tasks.flatMap((entry) => {
      try {
        return [{ task: attn.createTranslationTask(entry.data), data: entry.data }];
      } catch {
        return []; // a text this engine no longer reads stays listed, to be deleted
      }
    });
    const ids = new Set(made.map(({ task }) => task.id));
    const loaded = models.filter((model) => ids.has(model.task)).map((model) => attn.loadModel(model.bytes));
    // their test measures a batch per task first, as every model the store adopts
    await Promise.all(loaded.map((model) => model.prepare()));
    controller.restoreReader(made, loaded);
    // a link to pairs this browser never read: say why their task cannot show
    const unkept = controller.unkeptTask();
    if (unkept) error.textContent = controller.t('data.unkept', { task: unkept });
  }

  // a model the reader trained on a task of theirs is kept with it
  controller.models.addEventListener('change', ({ detail: { kind, identity } }) => {
    if (!store || !controller.readerTasks.has(identity.task) || controller.models.origin(kind, identity) !== 'trained')
      return;
    const bytes = controller.models.model(kind, identity).save();
    store.putModel({ key: JSON.stringify([kind, identity]), task: identity.task, bytes }).then(list, () => {});
  });

  function drawKept() {
    const { t } = controller;
    savedHeading.hidden = saved.hidden = !kept.length;
    setText(savedHeading, t('data.kept'));
    saved.replaceChildren(
      ...kept.map((entry) => {
        const item = el('li');
        const use = button('model-data-use', () => {
          const present = controller.readerTasks.get(entry.id);
          if (present) controller.addReaderTask(present.task, present.data);
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
        const size = `${(entry.size / 1024).toFixed(entry.size < 10240 ? 1 : 0)} KB`;
        item.append(
          el('span', '', t('data.keptTask', { name: taskName(entry.id, t), pairs: entry.pairs, size })),
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
      .map(([reason, count]) => t(`data.dropped.${reason}`, { count }))
      .join(', ');
    setText(
      stats,
      t('data.stats', {
        name: taskName(task.id, t),
        pairs: s.pairs,
        train: s.train,
        validation: s.validation,
        test: s.test,
        source: s.sourceVocabulary,
        target: s.targetVocabulary,
        unknown: `${(s.unknownShare * 100).toFixed(1)}%`,
      }) + (dropped ? ` ${t('data.droppedAll', { dropped })}` : ''),
    );
    preview.replaceChildren(
      ...task.test.slice(0, PREVIEW).map(([source, target]) => {
        const item = el('li');
        const tokens = (sentence, side) => el('span', 'model-data-tokens', task.tokenize(sentence, side).join(' · '));
        item.append(tokens(source, 'source'), el('span', '', ' → '), tokens(target, 'target'));
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
    setText(heading, t('data.heading'));
    setText(intro, t('data.intro'));
    setText(textLabel, t('data.text'));
    text.placeholder = 'Go.\tVa !\nRun!\tCours !';
    setText(openLabel.firstChild, t('data.open'));
    setText(read, t('data.read'));
    setText(privacy, t('data.private'));
    for (const [name, span] of Object.entries(optionLabels)) setText(span, t(`data.options.${name}`));
    [...unit.options].forEach((option) => setText(option, t(`data.units.${option.value}`)));
    [...sourceColumn.options].forEach((option) => setText(option, t('data.column', { n: Number(option.value) + 1 })));
    if (!samples.childElementCount)
      samples.append(
        el('span', '', ''),
        ...facts().samples.map((id) => {
          const sample = button('model-data-sample', () => {
            const { name, text: pairs, unit: sampleUnit, maxLength: longest } = attn.translationTaskSample(id);
            text.value = pairs;
            resetOptions({ unit: sampleUnit, maxLength: longest, lowercase: false });
            sampleOptions = { name };
            readPairs();
          });
          sample.dataset.task = id;
          return sample;
        }),
      );
    setText(samples.firstChild, t('data.samples'));
    for (const sample of samples.querySelectorAll('button')) setText(sample, taskName(sample.dataset.task, t));
    drawStats();
    drawKept();
  }

  return { element, draw };
}

let panels = 0;

const SLOW_TEXT = 200_000; // characters: a text longer than this takes a noticeable moment to read
const byteLength = (text) => (typeof text === 'string' ? new TextEncoder().encode(text).length : text.length);

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
