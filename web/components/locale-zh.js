// The Chinese words (web/locales/zh/), a chunk of the bundle that i18n.js loads when first wanted.
import ui from '../locales/zh/ui.json' with { type: 'json' };
import walkthroughs from '../locales/zh/walkthroughs.json' with { type: 'json' };

export default { ...ui, ...walkthroughs };
