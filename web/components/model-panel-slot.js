// The model panel (model-panel.js and its parts) as a chunk of its own: it comes with the first
// walkthrough of trained models (the controller's readyFor loads it beside the models' code), so a
// page or an embed that shows none never downloads it. Until it is made, and for a walkthrough
// without models, the slot shows nothing and waits for nothing.
let createPanel = null;

/** Loads the panel's code, once. */
export async function loadModelPanel() {
  createPanel ??= (await import('./model-panel.js')).createModelPanel;
}

/** Whether the panel's code is in. */
export const modelPanelLoaded = () => createPanel !== null;

/**
 * The model panel of `controller` (createModelPanel's `options`), made by the first update() that
 * finds a walkthrough of trained models on screen: { element, runView (null until then),
 * update(), waiting() }.
 */
export function modelPanelSlot(controller, options) {
  let panel = null;
  const slot = {
    element: null,
    runView: null,
    update() {
      if (!panel && controller.spec.models && createPanel) {
        panel = createPanel(controller, options);
        slot.element = panel.element;
        slot.runView = panel.runView;
      }
      panel?.update();
    },
    waiting: () => panel?.waiting() ?? false,
  };
  return slot;
}
