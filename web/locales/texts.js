// Each walkthrough's own texts (web/locales/<lang>/walkthroughs/<name>.json: its stages, questions,
// fields and labels), by language: a chunk each in the bundle, which i18n.js loads when the
// walkthrough is first shown. (Literal paths, so that the bundler makes each file a chunk.)
export const TEXTS = {
  en: {
    basics: () => import('./en/walkthroughs/basics.json', { with: { type: 'json' } }),
    'self-attention': () => import('./en/walkthroughs/self-attention.json', { with: { type: 'json' } }),
    scoring: () => import('./en/walkthroughs/scoring.json', { with: { type: 'json' } }),
    seq2seq: () => import('./en/walkthroughs/seq2seq.json', { with: { type: 'json' } }),
    captioning: () => import('./en/walkthroughs/captioning.json', { with: { type: 'json' } }),
    transformer: () => import('./en/walkthroughs/transformer.json', { with: { type: 'json' } }),
    sentiment: () => import('./en/walkthroughs/sentiment.json', { with: { type: 'json' } }),
    numerics: () => import('./en/walkthroughs/numerics.json', { with: { type: 'json' } }),
  },
  zh: {
    basics: () => import('./zh/walkthroughs/basics.json', { with: { type: 'json' } }),
    'self-attention': () => import('./zh/walkthroughs/self-attention.json', { with: { type: 'json' } }),
    scoring: () => import('./zh/walkthroughs/scoring.json', { with: { type: 'json' } }),
    seq2seq: () => import('./zh/walkthroughs/seq2seq.json', { with: { type: 'json' } }),
    captioning: () => import('./zh/walkthroughs/captioning.json', { with: { type: 'json' } }),
    transformer: () => import('./zh/walkthroughs/transformer.json', { with: { type: 'json' } }),
    sentiment: () => import('./zh/walkthroughs/sentiment.json', { with: { type: 'json' } }),
    numerics: () => import('./zh/walkthroughs/numerics.json', { with: { type: 'json' } }),
  },
};
