// Locale files (web/locales/<lang>/) bundled into the page: no request at run time.
import enUi from '../locales/en/ui.json' with { type: 'json' };
import enWalkthroughs from '../locales/en/walkthroughs.json' with { type: 'json' };
import zhUi from '../locales/zh/ui.json' with { type: 'json' };
import zhWalkthroughs from '../locales/zh/walkthroughs.json' with { type: 'json' };

const LOCALES = {
  en: { ...enUi, ...enWalkthroughs },
  zh: { ...zhUi, ...zhWalkthroughs },
};

export const LANGUAGES = Object.keys(LOCALES);

/** A translator for `lang`: t('field.seed'), t('stageOf', { n: 2, total: 9 }). English fills gaps. */
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
