// The toy walkthrough's spec (tests/kinds/toy_session.hpp): a toy model's reading of a sentence,
// its words' embeddings and their attention weights. The tests' package has it as
// web/walkthroughs/trained/toy.js (scripts/test-kinds.js).
import { panelOf } from '../trace.js';
import { learningRateChoice, SEED_CHOICE } from '../training-choices.js';

const KIND = 'toy';

export default {
  name: 'toy',
  fields: [
    { name: 'language', label: 'toy.language', options: ({ field }) => field.choices.map((name) => [name, name]) },
    { name: 'sentence', label: 'toy.sentence' },
  ],
  models: {
    kind: KIND,
    compares: false,
    compared: ({ task, language }) => [{ task, language }],
    context: ({ task, language }, models) => ({ model: models.model(KIND, { task, language }) }),
    label: ({ language = 'en' }, t) => t('toy.model', { language }),
    training: {
      fields: [SEED_CHOICE, learningRateChoice(['0.05', '0.1'], '0.05')],
      probe: ({ sentence }) => ({ sentence }),
      vocabulary: {
        field: 'sentence',
        words: (model) => model.vocab.filter((word) => !word.startsWith('<')),
        append: (model, typed, word) => [typed.trimEnd(), word].filter(Boolean).join(' '),
        show: (word) => word,
      },
    },
  },
  params: ({ trace }) => ({ sentence: trace.labels.tokens.join(' ') }),
  stages: {
    embeddings: {
      formula: ({ stage }) => `x_j = E_{w_j} \\in \\mathbb{R}^{${panelOf(stage, 'embeddings').cols}}`,
      code: () => 'x = model.embedding(ids)',
    },
    weights: {
      formula: () => '\\alpha = \\operatorname{softmax}(e)',
      code: () => 'alpha = torch.softmax(e, 0)',
    },
  },
};
