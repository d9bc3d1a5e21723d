// Colour scales for heatmaps. "notebook" follows the seed notebooks' seaborn light palettes
// (purple decoder state, orange annotations, blue context vector); "colourblind" uses viridis,
// which stays readable with every common colour-vision deficiency and in greyscale.
import { rgb } from 'd3-color';
import { interpolateRgb } from 'd3-interpolate';
import { interpolateViridis } from 'd3-scale-chromatic';

// seaborn's light_palette(color) runs from a near-white tint of the colour to the colour itself.
const lightPalette = (light, full) => interpolateRgb(light, full);

const NOTEBOOK = {
  decoder: lightPalette('#f4eef4', 'purple'),
  annotation: lightPalette('#fbf3e6', 'orange'),
  context: lightPalette('#ececfb', 'blue'),
  weights: lightPalette('#fbeeee', '#b2182b'),
  scores: lightPalette('#eaf4f1', '#1b7f6a'),
  neutral: lightPalette('#f1f1f1', '#4d4d4d'),
};

export const PALETTES = ['notebook', 'colourblind'];

/** An interpolator t in [0, 1] -> CSS colour for a panel's colour role. */
export function interpolatorFor(palette, role) {
  if (palette === 'colourblind') return interpolateViridis;
  return NOTEBOOK[role] ?? NOTEBOOK.neutral;
}

/** Black or white text, whichever reads better on the given CSS colour. */
export function textColourOn(colour) {
  const { r, g, b } = rgb(colour);
  const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  return luminance > 0.55 ? '#111' : '#fff';
}
