// Colour scales for heatmaps. "notebook" follows the seed notebooks' seaborn light palettes
// (purple decoder state, orange annotations, blue context vector); "colourblind" uses viridis,
// which stays readable with every common colour-vision deficiency and in greyscale.
import { rgb } from 'd3-color';
import { interpolateRgb } from 'd3-interpolate';
import { interpolateViridis, schemeTableau10 } from 'd3-scale-chromatic';

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
export const ROLES = Object.keys(NOTEBOOK);

/** An interpolator t in [0, 1] -> CSS colour for a panel's colour role. */
export function interpolatorFor(palette, role) {
  if (palette === 'colourblind') return interpolateViridis;
  return NOTEBOOK[role] ?? NOTEBOOK.neutral;
}

// One colour per attention head (the head view's lines): Tableau 10, and for "colourblind" Okabe
// and Ito's eight, told apart with every common colour-vision deficiency.
const HEADS = {
  notebook: schemeTableau10,
  colourblind: ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#0072b2', '#d55e00', '#cc79a7', '#000000'],
};

/** The colour of head `head` (from 0) in `palette`. */
export function headColour(palette, head) {
  const scheme = HEADS[palette] ?? HEADS.notebook;
  return scheme[head % scheme.length];
}

// Pure black, not a softer near-black: with black and white every background gives one of them at
// least 4.58:1 (the worst case, where both tie); with #111 a band of mid tones reaches only 4.35:1.
const DARK_TEXT = '#000';
const LIGHT_TEXT = '#fff';

/** Black or white text, whichever has the higher WCAG 2 contrast ratio on the given CSS colour. */
export function textColourOn(colour) {
  return contrastRatio(DARK_TEXT, colour) >= contrastRatio(LIGHT_TEXT, colour) ? DARK_TEXT : LIGHT_TEXT;
}

/** WCAG 2 contrast ratio of two CSS colours, from 1 (same luminance) to 21 (black on white). */
export function contrastRatio(first, second) {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a);
  return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG 2 relative luminance: the sRGB channels linearised, then weighted as the eye sees them. */
export function relativeLuminance(colour) {
  const { r, g, b } = rgb(colour);
  const linear = (channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}
