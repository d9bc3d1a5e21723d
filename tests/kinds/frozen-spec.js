// The frozen walkthrough's spec (tests/kinds/frozen_session.hpp): a loaded model's attention over a
// sentence. The tests' package has it as web/walkthroughs/trained/frozen.js (tests/kinds/package.js).
const KIND = 'frozen';

export default {
  name: 'frozen',
  fields: [
    { name: 'language', label: 'frozen.language', options: ({ field }) => field.choices.map((name) => [name, name]) },
    { name: 'sentence', label: 'frozen.sentence' },
  ],
  models: {
    kind: KIND,
    compares: false,
    compared: ({ task, language }) => [{ task, language }],
    // the model the reader loaded, or null until then: none is made here, as none trains
    context: ({ task, language }, models) => {
      const model = models.model(KIND, { task, language });
      return model ? { model } : null;
    },
    label: ({ language = 'en' }, t) => t('frozen.model', { language }),
  },
  params: ({ trace }) => ({ sentence: trace.labels.tokens.join(' ') }),
  stages: {
    weights: {
      formula: () => '\\alpha = \\operatorname{softmax}(X q)',
      code: () => 'alpha = torch.softmax(E[ids] @ q, 0)',
    },
  },
};
