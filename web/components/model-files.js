// The model panel's files (model-panel.js): the model on screen downloaded as a .safetensors file,
// and a saved model of the walkthrough's kind loaded in place of the one of its identity.
import { button, el, setText } from './dom.js';
import { downloadFile } from './export.js';

/**
 * The files: { element, draw() }, for the models on screen `shown` (model-panel.js). onOpen() runs
 * when a file has loaded, before its model takes its place; onFail(message) when it could not.
 */
export function modelFiles(controller, shown, { onOpen, onFail }) {
  const download = button('model-download', save);
  const load = el('input');
  load.type = 'file';
  load.accept = '.safetensors';
  load.className = 'model-load';
  load.addEventListener('change', () => open(load.files[0]));
  const loadLabel = el('label', 'field model-load-field');
  loadLabel.append(el('span'), load);
  const element = el('div', 'model-files');
  element.append(download, loadLabel);

  function save() {
    const [kind, identity] = [shown.kind(), shown.inputs()];
    const { config } = controller.models.model(kind, identity);
    downloadFile(shown.fileOf(config), controller.models.file(kind, identity), 'application/octet-stream');
  }

  async function open(file) {
    if (!file) return;
    try {
      const model = controller.attn.loadModel(new Uint8Array(await file.arrayBuffer()));
      if (model.kind !== shown.kind()) {
        model.dispose();
        throw new Error(controller.t('model.otherKind', { kind: model.kind }));
      }
      onOpen();
      // not kept as its bytes: a PyTorch state_dict is written anew in the engine's own format
      await controller.models.adopt(model);
      // a model of another identity (task, scoring function, encoder…): the walkthrough follows it
      const given = controller.session().inputs;
      const own = shown.identityOf(model.config);
      for (const [name, value] of Object.entries(own))
        if (name in given && shown.identityOf(given)[name] !== value) controller.edit(name, String(value));
    } catch (error) {
      onFail(controller.t('model.loadFailed', { file: file.name, error: error.message }));
    }
    load.value = '';
  }

  function draw() {
    // nothing to download before a model is loaded, nor of a kind whose models are not saved
    download.hidden = shown.origin() === 'none' || !shown.abilities().saves;
    setText(loadLabel.firstChild, controller.t('model.load'));
    setText(download, controller.t('model.download'));
  }

  return { element, draw };
}
