// The navigation every stepper shares, the page's and the element's: previous and next buttons
// and the progress bar between them, driven by the controller.
import { el, setText } from './dom.js';

/**
 * The navigation for `controller`: { element, update() }. update() brings labels, ends and
 * progress up to the stage on screen, keeping the buttons (and keyboard focus on them).
 */
export function createNav(controller) {
  const nav = el('nav', 'as-nav');
  const previous = el('button', 'as-previous');
  const next = el('button', 'as-next');
  previous.type = next.type = 'button';
  previous.addEventListener('click', () => controller.prev());
  next.addEventListener('click', () => controller.next());
  const progress = el('div', 'as-progress');
  progress.setAttribute('role', 'progressbar');
  progress.setAttribute('aria-valuemin', '1');
  const bar = el('div', 'as-progress-bar');
  // the count in words, and as "6 / 8" where the bar is too narrow for them (styles.css); the bar's
  // aria-valuetext says it to screen readers
  const count = el('span', 'as-progress-text');
  const words = el('span', 'as-progress-words');
  const short = el('span', 'as-progress-short');
  count.setAttribute('aria-hidden', 'true');
  count.append(words, short);
  progress.append(bar, count);
  nav.append(previous, progress, next);

  function update() {
    const { t } = controller;
    const index = controller.index;
    const total = controller.stages.length;
    nav.setAttribute('aria-label', t('progress'));
    setText(previous, `← ${t('previous')}`);
    setText(next, `${t('next')} →`);
    // a button about to be disabled hands keyboard focus to the other one
    const focused = nav.getRootNode().activeElement;
    // no stage (a walkthrough awaiting a model): nowhere to go
    previous.disabled = index === 0;
    next.disabled = index >= total - 1;
    if (focused === next && next.disabled) previous.focus();
    if (focused === previous && previous.disabled) next.focus();
    progress.setAttribute('aria-label', t('progress'));
    progress.setAttribute('aria-valuemax', String(total));
    progress.setAttribute('aria-valuenow', String(index + 1));
    progress.setAttribute('aria-valuetext', controller.stageLabel());
    bar.style.width = total ? `${((index + 1) / total) * 100}%` : '0';
    setText(words, total ? controller.stageCount() : '');
    setText(short, total ? `${index + 1} / ${total}` : '');
  }
  update();
  return { element: nav, update };
}

/** The banner of what is wrong with the inputs (see controller.problems); hidden when nothing is. */
export function updateProblems(banner, controller, options) {
  const message = controller.problems(options);
  setText(banner, message);
  banner.hidden = !message;
}
