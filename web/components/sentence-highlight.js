// A panel of palette "highlight" drawn as the sentence it weighs: each word (a column label) on a
// background as strong as its weight (one row, the weights), relative to the largest, with the
// weight under it, as attention is usually shown over text. The heatmap of the same numbers sits
// beside it; this is the reading of them a reader knows from papers and tools.
import { el } from './dom.js';
import { cellText, labelText } from '../locales/format.js';
import { interpolatorFor, textColourOn } from './palettes.js';

/** Draws `panel` (1 × n weights, columns the words) into `holder`, sized to `width`. */
export function renderHighlight(holder, panel, { palette, width, t }) {
  const figure = el('figure', 'highlight');
  const caption = el('figcaption', 'hm-caption');
  caption.append(el('span', 'hm-name', panel.name), el('span', 'hm-shape', ` 1 × ${panel.cols}`));
  const colour = interpolatorFor(palette, 'weights');
  const largest = Math.max(...panel.data);
  const sentence = el('p', 'highlight-sentence');
  const words = panel.colLabels.map((label) => labelText(label, t));
  words.forEach((word, j) => {
    const weight = panel.data[j];
    const background = colour(largest > 0 ? weight / largest : 0);
    const item = el('span', 'highlight-word');
    item.style.background = background;
    item.style.color = textColourOn(background);
    item.append(el('span', 'highlight-text', word), el('span', 'highlight-weight', cellText(panel, j)));
    sentence.append(item, ' ');
  });
  const strongest = panel.data.indexOf(largest);
  figure.setAttribute('role', 'group');
  figure.setAttribute(
    'aria-label',
    t('picture.highlight', {
      name: labelText(panel.rowLabels[0], t),
      word: words[strongest],
      weight: cellText(panel, strongest),
    }),
  );
  figure.append(caption, sentence);
  figure.style.maxWidth = `${width}px`;
  holder.replaceChildren(figure);
}
