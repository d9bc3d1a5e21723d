// Locale files (web/locales/<lang>/): English bundled into the page, every other language a chunk
// of its own (locale-<lang>.js), loaded when first wanted (loadLanguage), so that a page in
// English downloads no other language's words.
import enUi from '../locales/en/ui.json' with { type: 'json' };
import enWalkthroughs from '../locales/en/walkthroughs.json' with { type: 'json' };

const LOCALES = { en: { ...enUi, ...enWalkthroughs } };
const LOADERS = { zh: () => import('./locale-zh.js') };

export const LANGUAGES = ['en', ...Object.keys(LOADERS)];
/** Each language's name in itself, for a menu of them (without loading them). */
export const LANGUAGE_NAMES = { en: 'English', zh: '简体中文' };

/** Makes `lang`'s words available to translator(lang) (at once for English, or a language it has). */
export async function loadLanguage(lang) {
  if (!LOCALES[lang] && LOADERS[lang]) LOCALES[lang] = (await LOADERS[lang]()).default;
}

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
