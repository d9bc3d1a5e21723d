// Locale files (web/locales/<lang>/): the words every page needs (ui.json, and walkthroughs.json:
// each walkthrough's title, tab and summary), English bundled into the page and every other
// language a chunk of its own (locale-<lang>.js), loaded when first wanted; and each walkthrough's
// own texts (walkthroughs/<name>.json), a chunk per language and walkthrough (texts.js), loaded
// when the walkthrough is first shown. A page in English downloads no other language's words, and
// an embed of one walkthrough none of the others'.
import enUi from '../locales/en/ui.json' with { type: 'json' };
import enWalkthroughs from '../locales/en/walkthroughs.json' with { type: 'json' };
import { loadTexts } from '../locales/texts.js';
import { WALKTHROUGHS } from '../walkthroughs/index.js';

const LOCALES = { en: { ...enUi, ...enWalkthroughs } };
const LOADERS = { zh: () => import('./locale-zh.js') };
const loadedTexts = new Set(); // "lang/walkthrough"

export const LANGUAGES = ['en', ...Object.keys(LOADERS)];
/** Each language's name in itself, for a menu of them (without loading them). */
export const LANGUAGE_NAMES = { en: 'English', zh: '简体中文' };

// The language whose words stand for `lang`: itself, or English for a language this package lacks.
const known = (lang) => (LANGUAGES.includes(lang) ? lang : 'en');

/**
 * Makes `lang`'s words available to translator(lang) (at once for English, or a language it has),
 * with the texts of each of `walkthroughs` (names) in it.
 */
export async function loadLanguage(lang, walkthroughs = []) {
  const language = known(lang);
  if (!LOCALES[language]) LOCALES[language] = (await LOADERS[language]()).default;
  await Promise.all(
    walkthroughs.map(async (name) => {
      if (hasTexts(language, name) || !WALKTHROUGHS.includes(name)) return;
      const texts = (await loadTexts(language, name)).default;
      LOCALES[language][name] = { ...LOCALES[language][name], ...texts };
      loadedTexts.add(`${language}/${name}`);
    }),
  );
}

/** Whether the words of `lang` are in (English always; another once loadLanguage has read them). */
export const hasLanguage = (lang) => Boolean(LOCALES[known(lang)]);

/** Whether the texts of `walkthrough` in `lang` are in (loadLanguage). */
export const hasTexts = (lang, walkthrough) => loadedTexts.has(`${known(lang)}/${walkthrough}`);

/**
 * A translator for `lang`: t('field.seed'), t('stageOf', { n: 2, total: 9 }). English fills gaps,
 * and stands in for a language not loaded yet (loadLanguage).
 */
export function translator(lang) {
  const locale = LOCALES[lang] ?? LOCALES.en;
  return (key, params = {}) => {
    const found = lookup(locale, key) ?? lookup(LOCALES.en, key) ?? key;
    return typeof found === 'string' ? found.replace(/\{(\w+)\}/g, (match, name) => params[name] ?? match) : found;
  };
}

function lookup(object, key) {
  return key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), object);
}
