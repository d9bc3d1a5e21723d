// The shared stylesheet (styles.css, beside this module) linked into a document or shadow root:
// a <link> to a same-origin file works under `style-src 'self'`, where inline <style> would not.
const STYLES_URL = new URL('./styles.css', import.meta.url).href;

/** Adds the stylesheet to `root` (a Document or ShadowRoot) once; resolves when it has loaded. */
export function linkStyles(root) {
  const host = root.head ?? root;
  let link = host.querySelector(`link[data-attention-stepper-styles]`);
  if (!link) {
    link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = STYLES_URL;
    link.dataset.attentionStepperStyles = '';
    host.prepend(link);
  }
  if (link.sheet) return Promise.resolve();
  // a stylesheet that fails to load must not keep the content hidden
  return new Promise((done) => {
    link.addEventListener('load', done, { once: true });
    link.addEventListener('error', done, { once: true });
  });
}
