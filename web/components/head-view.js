// The head view (BertViz's): every head of one attention at once, a line from each query token
// (left) to each key token (right), as opaque as its weight, one colour per head. Pointing at or
// focusing a head's legend entry or a token shows its lines alone; pressing it keeps them so until
// it is pressed again. The tokens and heads are buttons, so the keyboard and screen readers reach
// them; the lines are their picture (the numbers are in the other views: the heatmaps of the
// detailed stages and the model view). Drawn from our traces (stage-view.js) and from attention
// computed elsewhere (attention-views.js).
import { el } from './dom.js';
import { labelsOf } from './heatmap-layout.js';
import { headColour } from './palettes.js';

const ROW = 26; // px per token, the buttons' height (styles.css, .hv-token)
const SVG = 'http://www.w3.org/2000/svg';
// A line less opaque than this draws nothing an 8-bit screen shows: skipping them keeps a head
// view of 128 tokens to the lines that show (a head's weights mostly sit on a few keys).
const FAINTEST = 1 / 255;

/**
 * Draws the head view of `panels` (one per head, queries × keys) into `element`, heads numbered
 * from `countFrom`; `pinned` ({ kind: 'head' | 'query' | 'key', index }) is pressed from the
 * start, and `onPin(filter or null)` hears each press.
 */
export function drawHeadView(element, panels, { t, palette, countFrom = 1, pinned = null, onPin = () => {} }) {
  const { rowLabels: queries, colLabels: keys } = labelsOf(panels[0], t);
  // a pin kept from a drawing of more heads or tokens than these pins nothing
  const counts = { head: panels.length, query: queries.length, key: keys.length };
  if (pinned && !(pinned.index < counts[pinned.kind])) pinned = null;
  const figure = el('figure', 'head-view');
  const lines = [];
  const show = (filter) => {
    for (const line of lines)
      line.classList.toggle('hv-hidden', Boolean(filter) && line.dataset[filter.kind] !== String(filter.index));
    figure.dataset.isolated = filter ? `${filter.kind}-${filter.index}` : '';
  };
  // a button that isolates `filter` while pointed at or focused, and keeps it when pressed
  const isolating = (button, filter) => {
    button.type = 'button';
    button.setAttribute('aria-pressed', 'false');
    const same = (other) => other?.kind === filter.kind && other?.index === filter.index;
    for (const event of ['pointerenter', 'focus']) button.addEventListener(event, () => show(filter));
    for (const event of ['pointerleave', 'blur']) button.addEventListener(event, () => show(pinned));
    if (same(pinned)) button.setAttribute('aria-pressed', 'true');
    button.addEventListener('click', () => {
      pinned = same(pinned) ? null : filter;
      for (const other of figure.querySelectorAll('[aria-pressed]')) other.setAttribute('aria-pressed', 'false');
      if (pinned) button.setAttribute('aria-pressed', 'true');
      show(pinned ?? filter);
      onPin(pinned);
    });
    return button;
  };

  const legend = el('div', 'hv-legend');
  legend.setAttribute('role', 'group');
  legend.setAttribute('aria-label', t('headView.legend'));
  panels.forEach((_, h) => {
    const button = isolating(el('button', 'hv-head', t('headView.head', { head: h + countFrom })), {
      kind: 'head',
      index: h,
    });
    button.style.setProperty('--head', headColour(palette, h));
    legend.append(button);
  });

  const column = (labels, kind, name) => {
    const list = el('div', `hv-tokens hv-${kind}`);
    list.setAttribute('role', 'group');
    list.setAttribute('aria-label', name);
    labels.forEach((label, i) => {
      const button = isolating(el('button', 'hv-token', label), { kind, index: i });
      button.setAttribute('aria-label', t(`headView.${kind}`, { token: label, index: i + countFrom }));
      list.append(button);
    });
    return list;
  };

  const height = Math.max(queries.length, keys.length) * ROW;
  const svg = document.createElementNS(SVG, 'svg');
  svg.classList.add('hv-lines');
  svg.setAttribute('viewBox', `0 0 100 ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('height', String(height));
  svg.setAttribute('aria-hidden', 'true');
  panels.forEach((panel, h) => {
    for (let i = 0; i < panel.rows; i++)
      for (let j = 0; j < panel.cols; j++) {
        const weight = panel.data[i * panel.cols + j];
        if (!(weight >= FAINTEST)) continue;
        const line = document.createElementNS(SVG, 'line');
        for (const [name, value] of [
          ['x1', 0],
          ['y1', (i + 0.5) * ROW],
          ['x2', 100],
          ['y2', (j + 0.5) * ROW],
          ['stroke', headColour(palette, h)],
          ['stroke-opacity', weight],
        ])
          line.setAttribute(name, String(value));
        Object.assign(line.dataset, { head: h, query: i, key: j });
        lines.push(line);
      }
  });
  svg.append(...lines);

  const body = el('div', 'hv-body');
  body.append(column(queries, 'query', t('headView.queries')), svg, column(keys, 'key', t('headView.keys')));
  figure.append(el('figcaption', 'hv-caption', t('headView.caption')), legend, body);
  show(pinned);
  element.replaceChildren(figure);
}
