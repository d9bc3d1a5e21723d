// The model panel's vocabulary (model-panel.js): the words the model on screen reads, as chips
// that append themselves to the input the spec names.
import { button, el, setText } from './dom.js';

/** The vocabulary: { element, draw(spec, model) }, `spec` the spec's `models.training.vocabulary` (or none: hidden). */
export function vocabularyChips(controller) {
  const element = el('details', 'model-vocabulary');
  const title = el('summary');
  const words = el('div', 'model-words');
  element.append(title, words);
  let wordsOf = null; // the words drawn, joined

  function draw(spec, model) {
    element.hidden = !spec;
    if (!spec) return;
    const vocab = spec.words(model);
    setText(title, controller.t('model.vocabulary', { count: vocab.length }));
    if (wordsOf === vocab.join(' ')) return;
    wordsOf = vocab.join(' ');
    // the input on screen when the chip is picked
    const typed = () => {
      const session = controller.session();
      return session.text(session.fields.find((candidate) => candidate.name === spec.field));
    };
    words.replaceChildren(
      ...vocab.map((word) => {
        const chip = button('model-word', () => controller.edit(spec.field, spec.append(model, typed(), word)));
        chip.textContent = spec.show(word);
        return chip;
      }),
    );
  }

  return { element, draw };
}
