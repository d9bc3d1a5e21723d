// Each walkthrough's own texts (web/locales/<lang>/walkthroughs/<name>.json: its stages,
// questions, fields and labels) in one language, which i18n.js loads when the walkthrough is
// first shown: a chunk each in the bundle, as the bundler makes one of every file the path's
// pattern matches.
export const loadTexts = (lang, walkthrough) =>
  import(`./${lang}/walkthroughs/${walkthrough}.json`, { with: { type: 'json' } });
