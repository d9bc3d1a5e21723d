// Panels that are pictures: a scene's image (palette "image": the RGB channels' rows one after the
// other, CHW, in [0, 1]), drawn crisp at any size, and maps over it (palette "overlay": each row
// one map of a square grid's cells, row-major, as the captioning walkthrough's attention), each
// map upsampled smoothly (the browser's bilinear scaling of an 8 × 8 canvas) in the panel role's
// colour, its alpha the value between the row's smallest and largest, over the crisp image and
// the grid's lines.
import { el } from './dom.js';
import { interpolatorFor } from './palettes.js';

export const PICTURE_PALETTES = ['image', 'overlay'];

// The image of a panel of palette "image" as an ImageData-sized canvas (S × S pixels).
function imageCanvas(panel) {
  const size = panel.cols;
  const canvas = el('canvas', 'picture-image');
  canvas.width = canvas.height = size;
  const pixels = new ImageData(size, size);
  const plane = size * size;
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) pixels.data[i * 4 + c] = Math.round(panel.data[c * plane + i] * 255);
    pixels.data[i * 4 + 3] = 255;
  }
  canvas.getContext('2d').putImageData(pixels, 0, 0);
  return canvas;
}

// Row `row` of an overlay panel as a grid × grid canvas of the palette's full colour, its alpha
// where each value lies between the row's smallest and largest (a row of equal values, attention
// spread evenly, shows the image alone).
function mapCanvas(panel, row, colour) {
  const grid = Math.round(Math.sqrt(panel.cols));
  const values = panel.data.subarray(row * panel.cols, (row + 1) * panel.cols);
  const [smallest, largest] = [Math.min(...values), Math.max(...values)];
  const canvas = el('canvas', 'picture-map');
  canvas.width = canvas.height = grid;
  const pixels = new ImageData(grid, grid);
  const [r, g, b] = colour;
  values.forEach((value, i) => {
    const share = largest > smallest ? (value - smallest) / (largest - smallest) : 0;
    pixels.data.set([r, g, b, Math.round(0.85 * 255 * share)], i * 4);
  });
  canvas.getContext('2d').putImageData(pixels, 0, 0);
  return canvas;
}

// A CSS colour (d3's "rgb(r, g, b)") as its channels.
const channels = (css) => css.match(/\d+/g).slice(0, 3).map(Number);

/**
 * Draws `panel` (a picture palette's) into `holder`: the image, or each of its maps over `image`
 * (the trace's image panel), `width` px wide at most, described for screen readers in `t`'s
 * language (a map: its row's label and the cell of its largest value).
 */
export function renderPicture(holder, panel, { image, width, palette, t }) {
  const figure = el('figure', 'picture');
  const caption = el('figcaption', 'hm-caption');
  caption.append(el('span', 'hm-name', panel.name), el('span', 'hm-shape', ` ${panel.rows}×${panel.cols}`));
  figure.append(caption);
  const frames = el('div', 'picture-frames');
  if (panel.palette === 'image') {
    const frame = el('div', 'picture-frame');
    frame.append(imageCanvas(panel));
    frame.setAttribute('role', 'img');
    frame.setAttribute('aria-label', t('picture.image', { size: panel.cols }));
    frames.append(frame);
  } else {
    // the weights palette's colour at its strongest (the colourblind one's brightest)
    const colour = channels(interpolatorFor(palette, 'weights')(palette === 'colourblind' ? 0.8 : 1));
    const size = panel.rows > 1 ? 'small' : 'large';
    for (let row = 0; row < panel.rows; row++) {
      const frame = el('div', `picture-frame as-${size}`);
      frame.append(imageCanvas(image), mapCanvas(panel, row, colour), el('div', 'picture-grid'));
      frame.style.setProperty('--grid', Math.round(Math.sqrt(panel.cols)));
      frame.setAttribute('role', 'img');
      const text = panel.rowLabels[row];
      frame.setAttribute('aria-label', t('picture.map', { label: text, cell: strongest(panel, row) }));
      const item = el('div', 'picture-item');
      item.append(frame, el('span', 'picture-label', text));
      frames.append(item);
    }
  }
  figure.append(frames);
  figure.style.maxWidth = `${width}px`;
  holder.replaceChildren(figure);
}

// The label of the cell of a map's largest value ("row,column").
function strongest(panel, row) {
  const values = panel.data.subarray(row * panel.cols, (row + 1) * panel.cols);
  return panel.colLabels[values.indexOf(Math.max(...values))];
}
