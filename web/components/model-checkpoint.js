// The model panel's checkpoint (model-panel.js), for a walkthrough whose models are loaded from a
// checkpoint's files (its spec's models.checkpoint names the engine's functions): the reader's own
// files or folder, picked or dropped, or a folder's URL (also the page's or the element's
// model-src); the memory it needs against what this device can give, before any weights are read;
// progress and cancel; kept on this device when the reader asks, listed with its size, deletable;
// and back to the model the page ships. The files are read in this tab and never leave it.
import { byteSize } from '../locales/format.js';
import { checkpointStore } from './checkpoint-store.js';
import { button, el, setText } from './dom.js';
import { acceptDrops } from './file-panel.js';

// The share of this device's memory (navigator.deviceMemory) a checkpoint may take: the browser,
// the page and the other tabs need the rest.
const DEVICE_SHARE = 0.5;

/**
 * The checkpoint part: { element, draw() }, for the models on screen `shown` (model-panel.js).
 * source(): the URL the page or the element was given (model-src), loaded once; editable(): the
 * controls show (an embed's model-src loads without them). onOpen() runs when a checkpoint takes
 * its place, onFail(message) when it could not.
 */
export function modelCheckpoint(controller, shown, { source, editable, onOpen, onFail }) {
  const t = (key, values) => controller.t(key, values);
  const store = checkpointStore();
  let kept = []; // the kept checkpoints' entries, without their files
  let loading = null; // { abort, name, phase, bytesRead, totalBytes, since }
  let estimate = ''; // what the checkpoint being read needs, said
  let onScreen = null; // the name of the reader's checkpoint on screen
  let triedSource = null;

  const element = el('div', 'model-checkpoint');
  const heading = el('h3', 'model-checkpoint-heading');
  const privacy = el('p', 'model-checkpoint-note');
  const current = el('p', 'model-checkpoint-current');
  const back = button('model-checkpoint-back', () => {
    onScreen = null;
    controller.models.forget(shown.kind(), shown.inputs());
  });
  const folder = fileInput('model-checkpoint-folder', { directory: true });
  const picked = fileInput('model-checkpoint-files', { multiple: true });
  const url = el('input', 'model-checkpoint-url');
  url.type = 'url';
  url.placeholder = 'https://…/';
  const urlLabel = el('label', 'field model-checkpoint-url-field');
  urlLabel.append(el('span'), url);
  const fetchButton = button('model-checkpoint-fetch', () => url.value.trim() && openUrl(url.value.trim()));
  url.addEventListener('keydown', (event) => event.key === 'Enter' && (event.preventDefault(), fetchButton.click()));
  const keep = el('input', 'model-checkpoint-keep');
  keep.type = 'checkbox';
  const keepLabel = el('label', 'model-checkpoint-keep-field');
  keepLabel.append(keep, el('span'));
  const progress = el('progress', 'model-checkpoint-progress');
  const status = el('p', 'model-checkpoint-status');
  status.setAttribute('role', 'status');
  status.id = `model-checkpoint-status-${++parts}`;
  progress.setAttribute('aria-labelledby', status.id);
  const cancel = button('model-checkpoint-cancel', () => loading?.abort());
  const list = el('ul', 'model-checkpoint-kept');
  const controls = el('div', 'model-checkpoint-controls');
  controls.append(privacy, folder.label, picked.label, urlLabel, fetchButton, keepLabel);
  element.append(heading, current, back, controls, progress, status, cancel, list);

  folder.input.addEventListener('change', () => openFiles([...folder.input.files]));
  picked.input.addEventListener('change', () => openFiles([...picked.input.files]));
  // a drop here is a checkpoint's, not a tensor file for the page's file panel
  acceptDrops(element, (file, transfer) => droppedFiles(transfer).then(openFiles), { stop: true, when: editable });
  store?.list().then(
    (entries) => ((kept = entries), draw()),
    () => {},
  );

  const spec = () => shown.models().checkpoint;
  const engine = (name) => controller.attn[spec()[name]];

  // what the checkpoint of `estimate` needs, or an Error where this engine or device cannot give it
  function checkFits(found) {
    const device = globalThis.navigator?.deviceMemory;
    const values = {
      family: found.family,
      parameters: found.parameters.toLocaleString(controller.options.lang),
      needs: byteSize(found.bytes),
      limit: byteSize(found.limit),
      // the browser's own figure, in GiB rounded to a power of 2
      device: device ? `${device} GB` : '',
    };
    estimate = device ? t('checkpoint.estimateDevice', values) : t('checkpoint.estimate', values);
    draw();
    if (!found.fits) throw new Error(t('checkpoint.tooBig', values));
    if (device && found.bytes > device * 2 ** 30 * DEVICE_SHARE) throw new Error(t('checkpoint.tooBigDevice', values));
  }

  // a load under way: its progress drawn as it comes, cancelled by the next one
  async function read(name, work) {
    loading?.abort();
    const aborter = new AbortController();
    const mine = {
      abort: () => aborter.abort(),
      name,
      phase: 'read',
      bytesRead: 0,
      totalBytes: null,
      since: performance.now(),
    };
    loading = mine;
    estimate = '';
    draw();
    const onProgress = (report) => {
      if (report.phase !== mine.phase) mine.since = performance.now();
      Object.assign(mine, report);
      drawProgress();
    };
    try {
      const model = await work({ signal: aborter.signal, onProgress });
      if (loading !== mine) return model.dispose();
      onOpen();
      onScreen = name;
      await controller.models.adopt(model, { identity: shown.inputs() });
    } catch (error) {
      if (loading === mine && error.name !== 'AbortError')
        onFail(t('checkpoint.failed', { name, error: error.message }));
    } finally {
      if (loading === mine) loading = null;
      draw();
    }
  }

  // files given here are checked against this device as they load; a URL's, before they are fetched
  const loadFiles = (files, opts) => engine('load')({ files, ...opts });

  function openFiles(files) {
    if (files.length === 0) return;
    // named after its folder, where the files say it
    const path = files.map(pathOf).find((item) => item.endsWith('config.json')) ?? '';
    const name = path.includes('/') ? path.split('/').at(-2) : t('checkpoint.yours');
    const keepIt = keep.checked;
    read(name, async (opts) => {
      const model = await loadFiles(files, { ...opts, onEstimate: checkFits });
      if (keepIt) await keepFiles(name, model, files);
      return model;
    });
    folder.input.value = picked.input.value = '';
  }

  function openUrl(address) {
    const name = decodeURIComponent(address.replace(/\/+$/, '').split('/').at(-1) || address);
    const keepIt = keep.checked;
    read(name, async ({ signal, onProgress }) => {
      const onConfig = (config) => checkFits(engine('estimate')(config));
      const files = await engine('fetch')(address, { onConfig, onProgress, signal });
      const model = await loadFiles(files, { signal, onProgress });
      if (keepIt) await keepFiles(name, model, files);
      return model;
    });
  }

  async function keepFiles(name, model, files) {
    if (!store) return;
    const entry = files.map((item) => (item instanceof Blob ? { path: pathOf(item), file: item } : item));
    const size = entry.reduce((sum, { file }) => sum + file.size, 0);
    await store.put({ name, family: model.family, size, files: entry });
    kept = await store.list();
  }

  async function openKept(id) {
    const entry = await store.get(id);
    if (entry) read(entry.name, (opts) => loadFiles(entry.files, { ...opts, onEstimate: checkFits }));
  }

  async function deleteKept(id) {
    await store.delete(id);
    kept = await store.list();
    draw();
  }

  function drawProgress() {
    progress.hidden = cancel.hidden = !loading;
    if (!loading) return setText(status, estimate);
    const { phase, bytesRead, totalBytes, since } = loading;
    const seconds = (performance.now() - since) / 1000;
    const values = {
      name: loading.name,
      read: byteSize(bytesRead),
      total: totalBytes === null ? '?' : byteSize(totalBytes),
      rate: seconds > 0.2 ? byteSize(bytesRead / seconds) : '…',
    };
    if (totalBytes) {
      progress.max = totalBytes;
      progress.value = bytesRead;
    } else progress.removeAttribute('value');
    setText(status, [estimate, t(`checkpoint.${phase}`, values)].filter(Boolean).join(' '));
  }

  function draw() {
    const given = source?.();
    if (given && given !== triedSource) {
      triedSource = given;
      url.value = given;
      openUrl(given);
      return;
    }
    const mine = shown.origin() === 'trained';
    if (!mine) onScreen = null;
    setText(heading, t('checkpoint.heading'));
    setText(privacy, t('checkpoint.private'));
    setText(folder.label.firstChild, t('checkpoint.folder'));
    setText(picked.label.firstChild, t('checkpoint.files'));
    setText(urlLabel.firstChild, t('checkpoint.url'));
    setText(fetchButton, t('checkpoint.fetch'));
    setText(keepLabel.lastChild, t('checkpoint.keep'));
    setText(cancel, t('checkpoint.cancel'));
    setText(back, t('checkpoint.back'));
    current.hidden = back.hidden = !mine;
    if (mine) setText(current, t('checkpoint.current', { name: onScreen ?? t('checkpoint.yours') }));
    controls.hidden = list.hidden = !editable();
    keepLabel.hidden = !store;
    list.replaceChildren(
      ...kept.map((entry) => {
        const item = el('li', 'model-checkpoint-entry');
        const label = el(
          'span',
          '',
          t('checkpoint.keptEntry', { name: entry.name, family: entry.family, size: byteSize(entry.size) }),
        );
        const open = button('model-checkpoint-open', () => openKept(entry.id));
        open.textContent = t('checkpoint.open');
        open.setAttribute('aria-label', t('checkpoint.openNamed', { name: entry.name }));
        const remove = button('model-checkpoint-delete', () => deleteKept(entry.id));
        remove.textContent = t('checkpoint.delete');
        remove.setAttribute('aria-label', t('checkpoint.deleteNamed', { name: entry.name }));
        item.append(label, open, remove);
        return item;
      }),
    );
    drawProgress();
  }

  return { element, draw };
}

let parts = 0;

// A file's path in the folder given: a dropped one's, a picked folder's, or its name.
const pathOf = (item) => item.path || item.webkitRelativePath || item.name;

// A file input in its label (the label's first child is its text): a folder's (webkitdirectory,
// its files keep their paths) or several files'.
function fileInput(className, { directory = false, multiple = false }) {
  const input = el('input', className);
  input.type = 'file';
  if (directory) input.webkitdirectory = true;
  input.multiple = multiple || directory;
  const label = el('label', `field ${className}-field`);
  label.append(el('span'), input);
  return { input, label };
}

// The files and folders of a drop (read while its event lasts), as { path, file }: a folder's
// files with their paths below it.
function droppedFiles(transfer) {
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  return Promise.all(entries.map((entry) => filesOf(entry, ''))).then((lists) => lists.flat());
}

// The files below a dropped entry, each with its path from the drop.
async function filesOf(entry, prefix) {
  const path = `${prefix}${entry.name}`;
  if (entry.isFile) return [{ path, file: await new Promise((resolve, reject) => entry.file(resolve, reject)) }];
  const reader = entry.createReader();
  const children = [];
  // a directory reader gives its entries a batch at a time, until an empty one
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  return (await Promise.all(children.map((child) => filesOf(child, `${path}/`)))).flat();
}
