// Panels that are pictures: a scene's image (palette "image": the RGB channels' rows one after the
// other, CHW, in [0, 1]), drawn crisp at any size, and maps over it (palette "overlay": each row
// one map of a square grid's cells, row-major, as the captioning walkthrough's attention), each
// map a veil upsampled smoothly (the browser's bilinear scaling of an 8 × 8 canvas) over the crisp
// image and the grid's lines (mapCanvas).
import { el } from './dom.js';

// A picture's shape as it is drawn: the image's pixels (S × S, not its three channels' rows), each
// map's grid (8 × 8, not a row of 64), and how many maps.
const pictureShape = ({ palette, rows, cols }) => {
  if (palette === 'image') return `${cols}×${cols}`;
  const grid = Math.round(Math.sqrt(cols));
  return rows === 1 ? `${grid}×${grid}` : `${rows} × ${grid}×${grid}`;
};
const VEIL = 16; // the veil's grey: near black, so that it dims every colour of a scene
const VEIL_ALPHA = 0.8; // its opacity over a cell of no weight

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

// Row `row` of an overlay panel as a grid × grid canvas: a dark veil over the cells, the less
// of the row's largest weight a cell has the darker, as Xu et al. draw their attention, so the
// regions looked at show in their own colours whatever those are, and a row of equal weights
// (attention spread evenly) shows the image alone, not one lit cell in a painted image.
function mapCanvas(panel, row) {
  const grid = Math.round(Math.sqrt(panel.cols));
  const values = panel.data.subarray(row * panel.cols, (row + 1) * panel.cols);
  const largest = Math.max(...values);
  const canvas = el('canvas', 'picture-map');
  canvas.width = canvas.height = grid;
  const pixels = new ImageData(grid, grid);
  values.forEach((value, i) => {
    const share = largest > 0 ? value / largest : 1;
    pixels.data.set([VEIL, VEIL, VEIL, Math.round(VEIL_ALPHA * 255 * (1 - share))], i * 4);
  });
  canvas.getContext('2d').putImageData(pixels, 0, 0);
  return canvas;
}

/**
 * Draws `panel` (a picture palette's) into `holder`: the image, or each of its maps over `image`
 * (the trace's image panel), `width` px wide at most, described for screen readers in `t`'s
 * language (a map: its row's label and the cell of its largest value).
 */
export function renderPicture(holder, panel, { image, width, t }) {
  const figure = el('figure', 'picture');
  const caption = el('figcaption', 'hm-caption');
  caption.append(el('span', 'hm-name', panel.name), el('span', 'hm-shape', ` ${pictureShape(panel)}`));
  figure.append(caption);
  const frames = el('div', 'picture-frames');
  if (panel.palette === 'image') {
    const frame = el('div', 'picture-frame');
    frame.append(imageCanvas(panel));
    frame.setAttribute('role', 'img');
    frame.setAttribute('aria-label', t('picture.image', { size: panel.cols }));
    frames.append(frame);
  } else {
    const size = panel.rows > 1 ? 'small' : 'large';
    for (let row = 0; row < panel.rows; row++) {
      const frame = el('div', `picture-frame as-${size}`);
      frame.append(imageCanvas(image), mapCanvas(panel, row), el('div', 'picture-grid'));
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
