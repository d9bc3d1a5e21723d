// Show, Attend and Tell (issue 22): a captioner the engine trains captions a scene it draws, word
// by word. The trace is the model's own (the stages scene, encoder, one "step" per word, caption);
// the code is the reference model's PyTorch, as tests/fixtures/make_captioner_fixtures.py writes
// it. Titles and texts: the locale's captioning.stages.<kind>, with {t}, {word}, {caption}.
import { percent } from '../../locales/format.js';
import { panelOf } from '../trace.js';
import { learningRateChoice, SEED_CHOICE } from '../training-choices.js';

const captionOf = (trace) => trace.labels.caption.filter((word) => word !== '<eos>').join(' ');

// The doubly stochastic regulariser's weights the reader may train with: none, and Xu et al.'s.
const LAMBDAS = ['0', '1'];

export default {
  name: 'captioning',
  fields: [
    {
      name: 'language',
      label: 'field.captionLanguage',
      options: ({ field }) => field.choices.map((name) => [name, `field.captionLanguages.${name}`]),
    },
    { name: 'beam', label: 'field.beam' },
    { name: 'scene', label: 'field.scene', control: 'scene' },
  ],
  // the captioner of the form's task and language: the shipped one, or one trained here
  models: {
    kind: 'captioner',
    compares: false,
    compared: () => [],
    context: (inputs, models) => ({ model: models.model('captioner', inputs) }),
    // "captioner (English)", of the identity's fields that are not the defaults
    label: ({ language = 'en' }, t) => t('captioning.model', { language: t(`field.captionLanguages.${language}`) }),
    training: {
      fields: [
        SEED_CHOICE,
        learningRateChoice(['0.005', '0.01', '0.02'], '0.01'),
        {
          // λ of the doubly stochastic regulariser: 1 asks every region to be looked at about once
          name: 'regularization',
          label: 'captioning.lambda',
          into: 'train',
          choices: LAMBDAS,
          value: '0',
          choiceLabel: (value) => `captioning.lambdas.${value}`,
          options: (v) => ({ regularization: Number(v) }),
        },
      ],
      // each evaluation shows the attention over the scene on screen as the model captions it
      probe: ({ scene }, attn) => ({ scene: attn.parseScene(scene.join(' ')) }),
    },
  },
  params: ({ trace, stage }) => {
    const measures = panelOf(trace.stages.at(-1), 'measures').data;
    return {
      t: stage?.step ?? 0,
      word: stage?.step ? trace.labels.caption[stage.step - 1] : '',
      caption: captionOf(trace),
      exact: percent(measures[0]),
      regions: percent(measures[2]),
    };
  },
  // the scene's image and the maps over it are pictures, not heatmaps (components/stage-view.js)
  drawings: { image: 'picture', overlay: 'picture' },
  stages: {
    scene: {
      formula: ({ stage }) => {
        const { rows, cols } = panelOf(stage, 'image');
        return `x \\in [0, 1]^{3 \\times ${rows / 3} \\times ${cols}}`;
      },
      code: ({ inputs }) =>
        [`scene = "${inputs.scene.join(' ')}"`, 'image = render(scene)  # 3 x 32 x 32, RGB in [0, 1]'].join('\n'),
    },
    encoder: {
      formula: ({ stage }) => {
        const { rows, cols } = panelOf(stage, 'annotations');
        return [
          `a = \\operatorname{pool}(\\operatorname{ReLU}(\\operatorname{BN}_2(\\operatorname{conv}_2(\\operatorname{pool}(\\operatorname{ReLU}(\\operatorname{BN}_1(\\operatorname{conv}_1([x; x_{\\text{coord}}; y_{\\text{coord}}])))))))) \\in \\mathbb{R}^{${rows} \\times ${cols}}`,
          'h_0 = W_h \\bar{a},\\ c_0 = W_c \\bar{a},\\ \\bar{a} = \\tfrac{1}{L}\\textstyle\\sum_i a_i',
        ].join(',\\quad ');
      },
      code: () =>
        [
          'x = torch.cat([image, xs, ys])  # two coordinate channels, in [-1, 1]',
          'features = F.max_pool2d(F.relu(encoder.bn1(encoder.conv1(x))), 2)  # bn: running statistics',
          'features = F.max_pool2d(F.relu(encoder.bn2(encoder.conv2(features))), 2)  # D x 8 x 8',
          'annotations = features.flatten(1).T  # L = 64 regions, row by row',
          'h = decoder.init_h(annotations.mean(0))',
          'c = decoder.init_c(annotations.mean(0))',
          'channels = annotations.var(0).argsort(descending=True)[:4]  # the four shown',
        ].join('\n'),
    },
    step: {
      formula: () =>
        [
          'e_{t,i} = w^\\top \\tanh(W_a a_i + U_a h_{t-1})',
          '\\alpha_t = \\operatorname{softmax}(e_t)',
          '\\beta_t = \\sigma(W_\\beta h_{t-1})',
          'z_t = \\beta_t \\odot \\textstyle\\sum_i \\alpha_{t,i} a_i',
          '(h_t, c_t) = \\operatorname{LSTM}([E_{y_{t-1}}; z_t],\\ (h_{t-1}, c_{t-1}))',
          'p(y_t) = \\operatorname{softmax}(W_o h_t)',
        ].join(',\\quad '),
      code: ({ stage }) =>
        [
          `# step ${stage.step}: h is the state after step ${stage.step - 1}`,
          'att = decoder.attention',
          'scores = att.full_att(torch.tanh(att.encoder_att(annotations) + att.decoder_att(h))).squeeze(1)',
          'weights = torch.softmax(scores, 0)  # alpha_t, one per region',
          'gate = torch.sigmoid(decoder.f_beta(h))  # beta_t',
          'z = gate * (weights @ annotations)',
          'h, c = decoder.decode_step(torch.cat([decoder.embedding(y_prev), z]), (h, c))',
          'probabilities = torch.softmax(decoder.fc(h), 0)',
          'y_t = probabilities.argmax()  # the word chosen',
        ].join('\n'),
    },
    caption: {
      formula: () =>
        '\\mathcal{L} = -\\frac{1}{m}\\sum_t \\log p(y_t) + \\frac{\\lambda}{L} \\sum_{i=1}^{L} \\Big(1 - \\sum_t \\alpha_{t,i}\\Big)^2',
      code: () =>
        [
          'figure = torch.stack(all_weights).view(-1, 8, 8)  # a map per word',
          'loss = F.cross_entropy(logits, caption) + lam * ((1 - all_weights.sum(0)) ** 2).mean()',
        ].join('\n'),
    },
  },
};
