// Every language's words with every walkthrough's texts, for tests that read any of them (the page
// loads a language, and a walkthrough's texts, when first wanted: i18n.js).
import { LANGUAGES, loadLanguage } from '../../web/components/i18n.js';
import { SPECS } from '../../web/walkthroughs/index.js';

export const loadAllTexts = () => Promise.all(LANGUAGES.map((lang) => loadLanguage(lang, Object.keys(SPECS))));
