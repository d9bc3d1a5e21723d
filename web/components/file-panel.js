// Tensor files in and out, for the page and the editable <attention-stepper> alike: a .npy, .npz
// or .safetensors file dropped on (or picked for) an input field fills it; one dropped on the
// stepper, or opened, lists its tensors, fills the fields they are named after (W_Q, W_K, W_V) and
// shows an attention tensor, [layers, heads, N, N] or [heads, N, N], one heatmap per head with a
// head picker; and the walkthrough's matrices are saved as one .npz. Files are read by the
// engine (attn.readTensors); a file that cannot be used says why where it was dropped, and leaves
// every field as it was.
import { writeNpz } from 'attention-stepper';

import { el, setText } from './dom.js';
import { downloadFile } from './export.js';
import { renderHeatmap } from './heatmap.js';
import { heatmapText } from './stage-view.js';

export const ACCEPT = '.npy,.npz,.safetensors';

const identifier = (name) => name.replace(/\W+/g, '_');
const shapeText = (shape) => `[${shape.join(', ')}]`;

/**
 * The walkthrough's matrices by the notebook's names (attention_weights, applied_attention, …):
 * { name: { rows, cols, data } }. A name that stands for another matrix at a later stage (the
 * one word's scores, then every word's) gets that stage's id after it: scores_all_scores.
 */
export function walkthroughTensors(trace) {
  const out = {};
  for (const stage of trace.stages)
    for (const panel of stage.panels) {
      const matrix = { rows: panel.rows, cols: panel.cols, data: panel.data };
      let name = identifier(panel.name);
      if (name in out && !sameMatrix(out[name], matrix)) name = `${name}_${identifier(stage.id)}`;
      out[name] ??= matrix;
    }
  return out;
}

function sameMatrix(a, b) {
  return a.rows === b.rows && a.cols === b.cols && a.data.every((value, i) => Object.is(value, b.data[i]));
}

/** Whether a tensor reads as attention weights per head: [heads, N, N] or [layers, heads, N, N]. */
export function isAttentionTensor(tensor) {
  const { shape } = tensor;
  return (shape.length === 3 || shape.length === 4) && shape.at(-1) === shape.at(-2) && shape.at(-1) > 0;
}

/** The text a vector or matrix field shows for `tensor`, or null when its shape cannot be one. */
export function tensorText(tensor, kind) {
  const { shape, data } = tensor;
  const values = Array.from(data, String);
  if (kind === 'vector' && (shape.length === 1 || (shape.length === 2 && Math.min(...shape) === 1)) && values.length)
    return values.join(', ');
  if (kind === 'matrix' && shape.length === 2 && values.length) {
    const rows = [];
    for (let i = 0; i < shape[0]; i++) rows.push(values.slice(i * shape[1], (i + 1) * shape[1]).join(', '));
    return rows.join('\n');
  }
  return null;
}

// Reads `file`'s tensors, saying so in `note`: the tensors, or null (and why, in `note`).
async function readFile(controller, file, note) {
  const t = controller.t;
  say(note, t('files.reading', { file: file.name }));
  try {
    return controller.attn.readTensors(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    say(note, t('files.unreadable', { file: file.name, error: error.message }), true);
    return null;
  }
}

function say(note, message, problem = false) {
  note.replaceChildren(...(message ? [el('p', problem ? 'as-file-problem' : 'as-file-note', message)] : []));
  note.firstChild?.setAttribute('role', problem ? 'alert' : 'status');
}

function button(label, run) {
  const b = el('button', 'as-file-button', label);
  b.type = 'button';
  b.addEventListener('click', run);
  return b;
}

/** A file input that is never shown: buttons open it. */
function filePicker(onFile) {
  const input = el('input', 'as-file-input');
  Object.assign(input, { type: 'file', accept: ACCEPT, hidden: true });
  input.addEventListener('change', () => {
    if (input.files[0]) onFile(input.files[0]);
    input.value = '';
  });
  return input;
}

/** Calls onFile(file, dataTransfer) for a file (or folder) dropped on `target`, marking it while a file is dragged over. */
export function acceptDrops(target, onFile, { stop = false, when = () => true } = {}) {
  const dragging = (event) => when() && event.dataTransfer?.types?.includes('Files');
  target.addEventListener('dragover', (event) => {
    if (!dragging(event)) return;
    event.preventDefault();
    if (stop) event.stopPropagation();
    target.classList.add('as-dropping');
  });
  target.addEventListener('dragleave', () => target.classList.remove('as-dropping'));
  target.addEventListener('drop', (event) => {
    target.classList.remove('as-dropping');
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    if (stop) event.stopPropagation();
    onFile(file, event.dataTransfer);
  });
}

/**
 * What the form adds to a vector or matrix field: drops onto `wrapper`, a button that picks a file,
 * and `note`, where the outcome shows. Returns the elements to append to the field.
 */
export function fieldFiles(controller, name, wrapper, label) {
  const note = el('div', 'as-file-status');
  const fill = async (file) => {
    const t = controller.t;
    const tensors = await readFile(controller, file, note);
    if (!tensors) return;
    const entries = Object.entries(tensors);
    const chosen =
      entries.find(([key]) => key.toLowerCase() === name.toLowerCase()) ?? (entries.length === 1 && entries[0]);
    if (chosen) return fillWith(chosen, file);
    // several tensors, none named after the field: the reader picks one
    note.replaceChildren(
      el('p', 'as-file-note', t('files.pick', { file: file.name })),
      ...entries.map((entry) => button(`${entry[0]} ${shapeText(entry[1].shape)}`, () => fillWith(entry, file))),
    );
  };
  const fillWith = ([key, tensor], file) => {
    const t = controller.t;
    const input = controller
      .session()
      .fileInputs(t)
      .find((candidate) => candidate.name === name);
    const text = tensorText(tensor, input.kind);
    const params = { name: key, file: file.name, shape: shapeText(tensor.shape), label: input.label };
    if (text === null) return say(note, t(`files.notFit.${input.kind}`, params), true);
    const problem = controller.fill({ [name]: text });
    if (problem) return say(note, t('files.refused', { ...params, error: problem }), true);
    say(note, t('files.filled', params));
  };
  acceptDrops(wrapper, fill, { stop: true });
  const picker = filePicker(fill);
  const pick = button(label, () => picker.click());
  pick.classList.add('as-file-pick');
  return [pick, picker, note];
}

/**
 * The files panel of a stepper: open a file (or take one dropped on the stepper), list its
 * tensors with what each can do, and save the walkthrough as .npz. Returns
 * { element, openFile(file), update() }; update() follows the language and walkthrough.
 */
export function createFilePanel(controller) {
  const panel = el('section', 'as-files');
  const picker = filePicker((file) => openFile(file));
  const open = button('', () => picker.click());
  const save = button('', () =>
    downloadFile(`${controller.walkthrough}.npz`, writeNpz(walkthroughTensors(controller.trace)), 'application/zip'),
  );
  const toolbar = el('div', 'as-files-toolbar');
  toolbar.append(open, save, picker);
  const note = el('div', 'as-file-status');
  const content = el('div', 'as-files-content');
  panel.append(toolbar, note, content);

  async function openFile(file) {
    const t = controller.t;
    content.replaceChildren();
    const tensors = await readFile(controller, file, note);
    if (!tensors) return;
    const entries = Object.entries(tensors);
    say(note, t('files.holds', { file: file.name, count: entries.length }));
    const inputs = controller.session().fileInputs(t);
    const inputOf = (key) => inputs.find((input) => input.name.toLowerCase() === key.toLowerCase());
    const matching = entries.filter(([key, tensor]) => tensor.shape.length <= 2 && inputOf(key));
    const view = el('div', 'as-files-view');
    const actions = el('div', 'as-files-actions');
    if (matching.length) {
      const names = matching.map(([key]) => key).join(', ');
      actions.append(
        button(t('files.fill', { names }), () => {
          const texts = {};
          for (const [key, tensor] of matching) {
            const input = inputOf(key);
            const text = tensorText(tensor, input.kind);
            const params = { name: key, file: file.name, shape: shapeText(tensor.shape), label: input.label };
            if (text === null) return say(note, t(`files.notFit.${input.kind}`, params), true);
            texts[input.name] = text;
          }
          const problem = controller.fill(texts);
          say(
            note,
            problem ? t('files.refusedAll', { names, error: problem }) : t('files.filledAll', { names }),
            Boolean(problem),
          );
        }),
      );
    }
    const list = el('ul', 'as-files-list');
    for (const [key, tensor] of entries) {
      const item = el('li', '', `${key} ${shapeText(tensor.shape)} ${tensor.dtype}`);
      if (isAttentionTensor(tensor)) item.append(button(t('files.showHeads'), () => showHeads(view, key, tensor)));
      else if (tensor.shape.length <= 2) item.append(button(t('files.show'), () => showMatrix(view, key, tensor)));
      list.append(item);
    }
    content.replaceChildren(actions, list, view);
    // one attention tensor opens at once, as a single 1-D or 2-D tensor does
    const attention = entries.filter(([, tensor]) => isAttentionTensor(tensor));
    if (attention.length === 1 && !matching.length) showHeads(view, ...attention[0]);
    else if (entries.length === 1 && entries[0][1].shape.length <= 2 && !matching.length)
      showMatrix(view, ...entries[0]);
  }

  const width = () => panel.clientWidth || 640;
  const draw = (container, matrix) =>
    renderHeatmap(container, matrix, {
      palette: controller.options.palette,
      role: 'weights',
      width: width(),
      text: heatmapText(controller.t),
    });

  function showMatrix(view, key, tensor) {
    const [rows, cols] = tensor.shape.length === 2 ? tensor.shape : [1, tensor.shape[0] ?? 1];
    const figure = el('div', 'as-files-heatmap');
    view.replaceChildren(figure);
    draw(figure, { rows, cols, data: tensor.data, name: key });
  }

  // [layers, heads, N, N] or [heads, N, N]: a layer menu (for 4-D) and a head menu, whose last
  // choice shows every head of the layer side by side.
  function showHeads(view, key, tensor) {
    const t = controller.t;
    const shape = tensor.shape.length === 4 ? tensor.shape : [1, ...tensor.shape];
    const [layers, heads, n] = shape;
    const menu = (label, count, format, extra) => {
      const wrapper = el('label', 'as-files-picker', label);
      const select = el('select');
      for (let i = 0; i < count; i++) select.append(Object.assign(el('option', '', format(i)), { value: String(i) }));
      if (extra) select.append(Object.assign(el('option', '', extra), { value: 'all' }));
      select.addEventListener('change', redraw);
      wrapper.append(select);
      return { wrapper, select };
    };
    const layer = menu(t('files.layer'), layers, (i) => String(i));
    const head = menu(t('files.head'), heads, (i) => String(i), t('files.allHeads'));
    const figures = el('div', 'as-files-heads');
    const pickers = el('div', 'as-files-pickers');
    if (tensor.shape.length === 4) pickers.append(layer.wrapper);
    pickers.append(head.wrapper);
    view.replaceChildren(pickers, figures);

    function redraw() {
      const l = Number(layer.select.value);
      const chosen = head.select.value === 'all' ? [...Array(heads).keys()] : [Number(head.select.value)];
      figures.replaceChildren(
        ...chosen.map((h) => {
          const figure = el('div', 'as-files-heatmap');
          const start = (l * heads + h) * n * n;
          const name = tensor.shape.length === 4 ? `${key} layer ${l} head ${h}` : `${key} head ${h}`;
          draw(figure, { rows: n, cols: n, data: tensor.data.subarray(start, start + n * n), name });
          return figure;
        }),
      );
    }
    redraw();
  }

  function update() {
    const t = controller.t;
    // no matrices to open into or save while the walkthrough awaits a model
    panel.hidden = !controller.trace;
    setText(open, t('files.open'));
    setText(save, t('files.save'));
    panel.setAttribute('aria-label', t('files.title'));
  }
  update();
  return { element: panel, openFile, update };
}
