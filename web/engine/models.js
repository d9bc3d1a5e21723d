// The trained models the package ships in models/ (web/models/shipped.js says how they are made):
// each edition's default for the seq2seq walkthrough (en: en-fr, zh: en-zh), additive.
export const SHIPPED_MODELS = Object.freeze([
  Object.freeze({ task: 'en-fr', scoring: 'additive' }),
  Object.freeze({ task: 'en-zh', scoring: 'additive' }),
]);

export const modelFile = ({ task, scoring }) => `${task}-${scoring}.safetensors`;
