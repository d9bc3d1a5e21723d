// The model panel's vocabulary (model-panel.js): the words the model on screen reads, as chips
// that append themselves to the input the spec names. A large vocabulary (the reader's pairs: some
// thousands of words) shows the words that begin as the reader types, the most frequent first.
import { button, el, setText } from './dom.js';

const MAX_CHIPS = 200;

/** The vocabulary: { element, draw(spec, model) }, `spec` the spec's `models.training.vocabulary` (or none: hidden). */
export function vocabularyChips(controller) {
  const element = el('details', 'model-vocabulary');
  const title = el('summary');
  const findLabel = el('label', 'field model-words-find');
  const find = el('input');
  find.type = 'search';
  findLabel.append(el('span'), find);
  const words = el('div', 'model-words');
  element.append(title, findLabel, words);
  let drawn = null; // the vocabulary and the words found in it, joined
  let current = null; // { spec, model, vocab }

  find.addEventListener('input', () => current && drawChips());

  function drawChips() {
    const { spec, model, vocab } = current;
    const prefix = find.value.trim().toLowerCase();
    const shown = (
      vocab.length > MAX_CHIPS ? vocab.filter((word) => word.toLowerCase().startsWith(prefix)) : vocab
    ).slice(0, MAX_CHIPS);
    const key = `${vocab.join(' ')}\n${shown.join(' ')}`;
    if (drawn === key) return;
    drawn = key;
    // the input on screen when the chip is picked
    const typed = () => {
      const session = controller.session();
      return session.text(session.fields.find((candidate) => candidate.name === spec.field));
    };
    words.replaceChildren(
      ...shown.map((word) => {
        const chip = button('model-word', () => controller.edit(spec.field, spec.append(model, typed(), word)));
        chip.textContent = spec.show(word);
        return chip;
      }),
    );
  }

  function draw(spec, model) {
    element.hidden = !spec;
    if (!spec) return;
    const vocab = spec.words(model);
    current = { spec, model, vocab };
    setText(title, controller.t('model.vocabulary', { count: vocab.length }));
    findLabel.hidden = vocab.length <= MAX_CHIPS;
    setText(findLabel.firstChild, controller.t('model.findWord', { count: MAX_CHIPS }));
    drawChips();
  }

  return { element, draw };
}
