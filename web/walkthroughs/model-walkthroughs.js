// The specs of the walkthroughs of trained models, one chunk of the components: index.js's
// loadModelSpecs() brings it with the models' code.
export { default as captioning } from './captioning.js';
export { default as scoring } from './scoring.js';
export { default as sentiment } from './sentiment.js';
export { default as seq2seq } from './seq2seq.js';
export { default as transformer } from './transformer.js';
