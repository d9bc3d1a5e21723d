// Every walkthrough's spec, and every language's words with every walkthrough's texts, for tests
// that read any of them (the page loads a language, a walkthrough's texts and the specs of the
// walkthroughs of trained models when first wanted: i18n.js, walkthroughs/index.js).
import { LANGUAGES, loadLanguage } from '../../web/components/i18n.js';
import { loadSpec, WALKTHROUGHS } from '../../web/walkthroughs/index.js';

export const loadAllWalkthroughs = () =>
  Promise.all([...WALKTHROUGHS.map(loadSpec), ...LANGUAGES.map((lang) => loadLanguage(lang, WALKTHROUGHS))]);
