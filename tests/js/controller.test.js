// The StepperController behind the page and <attention-stepper>, with the real engine: state from
// options, moves, keys, edits and their errors, options, exercise questions and the problems banner.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { readyFor, StepperController } from '../../web/components/controller.js';
import { assertSeedNumbers, SEEDS } from '../seeds.js';
import { loadAllWalkthroughs } from './all-walkthroughs.js';

await loadAllWalkthroughs(); // chunks of their own, as the page loads them

const attn = await loadAttention({ threads: 1, models: true });
await readyFor(attn, 'seq2seq', 'en'); // the model panel's code, which walkthroughs of models wait for
const BASICS = [
  'decoder-state',
  'annotation',
  'single-score',
  'annotations',
  'scores',
  'softmax',
  'applied',
  'context',
  'attentional-state',
];

/** A controller, and the reasons of the `change` events it sends from now on. */
function make(state) {
  const controller = new StepperController(attn, state);
  const reasons = [];
  controller.addEventListener('change', (event) => reasons.push(event.detail.reason));
  return { controller, reasons };
}

const panel = (stage, name) => stage.panels.find((candidate) => candidate.name === name);
const scoresOf = (controller) => Array.from(panel(controller.stages[4], 'attention_weights_raw').data);

/** A keydown as handleKey sees it; `inside` is the selector the target's closest() matches, if any. */
function key(name, { inside = null, altKey = false, ctrlKey = false, metaKey = false } = {}) {
  const target = { closest: (selector) => (inside && selector.split(', ').includes(inside) ? {} : null) };
  return {
    key: name,
    altKey,
    ctrlKey,
    metaKey,
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
    composedPath: () => [target],
  };
}

describe('initial state', () => {
  test('the defaults: basics, its first stage, en, light, notebook palette, no exercise', () => {
    const { controller } = make();
    assert.equal(controller.walkthrough, 'basics');
    assert.equal(controller.stageId, 'decoder-state');
    assert.deepEqual(controller.options, { lang: 'en', theme: 'light', palette: 'notebook', exercise: false });
    assert.deepEqual(
      controller.stages.map((stage) => stage.id),
      BASICS,
    );
    assert.equal(controller.attn, attn);
  });

  test('walkthrough, stage and options as given', () => {
    const { controller } = make({
      walkthrough: 'self-attention',
      stage: 'word-weights',
      lang: 'zh',
      theme: 'dark',
      palette: 'colourblind',
      exercise: true,
    });
    assert.equal(controller.walkthrough, 'self-attention');
    assert.equal(controller.stageId, 'word-weights');
    assert.equal(controller.index, 5);
    assert.deepEqual(controller.options, { lang: 'zh', theme: 'dark', palette: 'colourblind', exercise: true });
    assert.equal(controller.stageCount(), '第 6 阶段，共 10 个阶段');
  });

  test('an unknown walkthrough, stage, language, theme or palette falls back to the default', () => {
    const { controller } = make({
      walkthrough: 'reformer',
      stage: 'nowhere',
      lang: 'fr',
      theme: 'sepia',
      palette: 'rainbow',
      exercise: 'yes',
    });
    assert.equal(controller.walkthrough, 'basics');
    assert.equal(controller.stageId, 'decoder-state');
    assert.deepEqual(controller.options, { lang: 'en', theme: 'light', palette: 'notebook', exercise: false });
    // a stage of another walkthrough is no stage of this one
    assert.equal(make({ walkthrough: 'scoring', stage: 'softmax' }).controller.stageId, 'encoder-states');
  });

  test('the problems banner names the walkthrough or stage a link asked for that is not here, until the reader moves', () => {
    const { controller } = make({ walkthrough: 'reformer' });
    assert.equal(controller.problems(), 'There is no walkthrough “reformer”: Attention Basics is shown instead.');
    controller.setWalkthrough('self-attention', 'attention-heads');
    assert.equal(controller.walkthrough, 'self-attention');
    assert.equal(controller.stageId, controller.stages[0].id);
    assert.equal(
      controller.problems(),
      'Self-attention from scratch has no stage “attention-heads”: its first stage is shown instead.',
    );
    controller.setOptions({ lang: 'zh' });
    assert.match(controller.problems(), /没有“attention-heads”这一阶段/);
    controller.next();
    assert.equal(controller.problems(), '');
    // a link without a walkthrough or a stage asks for nothing
    controller.setWalkthrough('', undefined);
    assert.equal(controller.problems(), '');
    assert.equal(make({ walkthrough: 'basics', stage: 'softmax' }).controller.problems(), '');
  });
});

describe('moves', () => {
  test('next and prev move one stage and stop at either end, with a "stage" change each time they move', () => {
    const { controller, reasons } = make();
    controller.prev();
    assert.equal(controller.stageId, 'decoder-state');
    assert.deepEqual(reasons, [], 'no move, no change');
    controller.next();
    controller.next();
    assert.equal(controller.stageId, 'single-score');
    assert.equal(controller.stage.id, 'single-score');
    controller.prev();
    assert.equal(controller.stageId, 'annotation');
    assert.deepEqual(reasons, ['stage', 'stage', 'stage']);
    for (let i = 0; i < 20; i++) controller.next();
    assert.equal(controller.stageId, 'attentional-state');
    assert.equal(reasons.length, 3 + BASICS.length - 2);
  });

  test('step(±Infinity) goes to the last and the first stage; step(n) moves n', () => {
    const { controller, reasons } = make();
    controller.step(Infinity);
    assert.equal(controller.stageId, 'attentional-state');
    controller.step(-3);
    assert.equal(controller.stageId, 'softmax');
    controller.step(-Infinity);
    assert.equal(controller.stageId, 'decoder-state');
    assert.deepEqual(reasons, ['stage', 'stage', 'stage']);
  });

  test('goTo a stage by id; an unknown id is a RangeError naming the stage list', () => {
    const { controller, reasons } = make();
    controller.goTo('context');
    assert.equal(controller.stageId, 'context');
    assert.equal(controller.index, 7);
    controller.goTo('context');
    assert.deepEqual(reasons, ['stage'], 'the stage on screen again: no change');
    assert.throws(
      () => controller.goTo('word-weights'),
      (error) =>
        error instanceof RangeError &&
        error.message === `goTo: no stage "word-weights" in basics; stages: ${BASICS.join(', ')}`,
    );
    assert.equal(controller.stageId, 'context');
  });

  test('setWalkthrough changes walkthrough ("walkthrough") or only the stage ("stage")', () => {
    const { controller, reasons } = make();
    controller.setWalkthrough('self-attention', 'all-weights');
    assert.equal(controller.walkthrough, 'self-attention');
    assert.equal(controller.stageId, 'all-weights');
    controller.setWalkthrough('self-attention', 'projections');
    assert.equal(controller.stageId, 'projections');
    controller.setWalkthrough('self-attention', 'projections');
    controller.setWalkthrough('no-such-walkthrough');
    assert.equal(controller.walkthrough, 'basics');
    assert.equal(controller.stageId, 'decoder-state');
    assert.deepEqual(reasons, ['walkthrough', 'stage', 'walkthrough']);
  });
});

describe('keys', () => {
  test('ArrowRight/PageDown forward, ArrowLeft/PageUp back, End and Home to either end', () => {
    const { controller, reasons } = make();
    const press = (name) => {
      const event = key(name);
      assert.equal(controller.handleKey(event), true, name);
      assert.equal(event.prevented, true, `${name} prevents the default`);
      return controller.stageId;
    };
    assert.equal(press('ArrowRight'), 'annotation');
    assert.equal(press('PageDown'), 'single-score');
    assert.equal(press('ArrowLeft'), 'annotation');
    assert.equal(press('PageUp'), 'decoder-state');
    assert.equal(press('End'), 'attentional-state');
    assert.equal(press('Home'), 'decoder-state');
    assert.equal(reasons.length, 6);
  });

  test('keys with a modifier, other keys, keys typed into a field and arrows, Home and End in a heatmap grid are left alone', () => {
    const { controller, reasons } = make({ stage: 'scores' });
    const ignored = [
      key('ArrowRight', { altKey: true }),
      key('ArrowRight', { ctrlKey: true }),
      key('End', { metaKey: true }),
      key('ArrowDown'),
      key('Enter'),
      key('a'),
      ...['input', 'textarea', 'select', '.hm-grid'].map((inside) => key('ArrowRight', { inside })),
      key('Home', { inside: 'input' }),
      key('Home', { inside: '.hm-grid' }),
      key('End', { inside: '.hm-grid' }),
    ];
    for (const event of ignored) {
      assert.equal(controller.handleKey(event), false, JSON.stringify(event));
      assert.equal(event.prevented, false);
    }
    assert.equal(controller.stageId, 'scores');
    assert.deepEqual(reasons, []);
    // a target inside something else (a button, say) still moves, and so do PageUp and PageDown in a grid
    assert.equal(controller.handleKey(key('ArrowRight', { inside: 'button' })), true);
    assert.equal(controller.stageId, 'softmax');
    assert.equal(controller.handleKey(key('PageUp', { inside: '.hm-grid' })), true);
    assert.equal(controller.stageId, 'scores');
  });

  test('without composedPath the event target is used', () => {
    const { controller } = make();
    const event = { ...key('ArrowRight'), composedPath: undefined, target: { closest: () => ({}) } };
    assert.equal(controller.handleKey(event), false, 'the target is in a field');
    assert.equal(controller.handleKey({ ...event, target: { closest: () => null } }), true);
    assert.equal(controller.stageId, 'annotation');
  });
});

describe('edits', () => {
  test('a good value recomputes the trace, with an "inputs" change', () => {
    const { controller, reasons } = make({ stage: 'scores' });
    controller.edit('decoderState', '1, 0, 0');
    assert.deepEqual(scoresOf(controller), [3, 59, 1, 4]);
    assert.deepEqual(controller.session().inputs.decoderState, [1, 0, 0]);
    assert.equal(controller.session().hasErrors(), false);
    assert.equal(controller.problems(), '');
    assert.equal(controller.stageId, 'scores');
    assert.deepEqual(reasons, ['inputs']);
  });

  test('a value that does not parse keeps the last trace and marks its field', () => {
    const { controller, reasons } = make({ stage: 'scores' });
    controller.edit('decoderState', '1, 0, 0');
    const trace = controller.trace;
    controller.edit('decoderState', '1, x, 0');
    assert.equal(controller.trace, trace, 'the last good trace');
    assert.deepEqual(scoresOf(controller), [3, 59, 1, 4]);
    const session = controller.session();
    assert.equal(session.text(session.fields[0]), '1, x, 0', 'the typed text stays');
    assert.equal(session.fieldError('decoderState', controller.t), '“x” is not a number');
    assert.equal(session.fieldError('annotations', controller.t), '');
    assert.equal(controller.problems(), '', 'the stage says it is stale, not the banner');
    assert.deepEqual(controller.view().stale, ['Decoder hidden state']);
    assert.deepEqual(reasons, ['inputs', 'inputs']);
  });

  test('a value the engine refuses marks the field its error names: decoderState "1, 2" blames annotations', () => {
    const { controller } = make({ stage: 'scores' });
    const trace = controller.trace;
    controller.edit('decoderState', '1, 2');
    assert.equal(controller.trace, trace);
    const session = controller.session();
    assert.equal(session.fieldError('decoderState', controller.t), '', 'it parsed');
    assert.match(
      session.fieldError('annotations', controller.t),
      /^annotation length \(3, from \[4x3\]\) must equal decoderState length \(2, from \[2\]\)/,
    );
    assert.deepEqual(Object.keys(session.engineErrors), ['annotations']);
    assert.equal(session.formError, null);
    assert.equal(session.hasErrors(), true);
    // fixing it computes again and clears the mark
    controller.edit('annotations', '1, 0\n0, 1');
    assert.equal(session.fieldError('annotations', controller.t), '');
    assert.deepEqual(scoresOf(controller), [1, 2]);
  });

  test('reset() goes back to the notebook: inputs, texts, errors and trace', () => {
    const { controller, reasons } = make({ stage: 'scores' });
    controller.edit('decoderState', '1, 0, 0');
    controller.edit('annotations', '1, 2\n3');
    assert.equal(controller.session().hasErrors(), true);
    controller.reset();
    const session = controller.session();
    assert.deepEqual(session.inputs.decoderState, SEEDS.decoderState);
    assert.equal(session.text(session.fields[1]), '3, 12, 45\n59, 2, 5\n1, 43, 5\n4, 3, 45.3');
    assert.equal(session.hasErrors(), false);
    assert.equal(session.isDefault(), true);
    assertSeedNumbers({ scores: scoresOf(controller) });
    assert.equal(controller.stageId, 'scores');
    assert.deepEqual(reasons, ['inputs', 'inputs', 'inputs']);
  });

  test('a stage list that shrinks after an edit moves to the last stage', async () => {
    const { controller } = make({ walkthrough: 'seq2seq' });
    // the shipped model translates the grammar's sentences: a step per word and <eos>
    await new Promise((resolve) => controller.models.addEventListener('change', resolve, { once: true }));
    controller.goTo('step-6');
    controller.edit('sentence', 'the car is red');
    assert.deepEqual(controller.stages.map((stage) => stage.id).slice(-3), ['step-4', 'step-5', 'alignment']);
    assert.equal(controller.stageId, 'alignment');
    assert.equal(controller.stage.id, 'alignment');
    // a stage that is still there stays
    controller.goTo('step-2');
    controller.edit('sentence', 'the red car is small');
    assert.equal(controller.stageId, 'step-2');
  });

  test("a task of the reader's pairs, forgotten, leaves the walkthrough on its default task", () => {
    const { controller } = make({ walkthrough: 'seq2seq' });
    const lines = ['Go.\tVa !', 'Run!\tCours !', 'Wait!\tAttends !', 'Hello!\tBonjour !', 'Thanks.\tMerci.'];
    const task = attn.createTranslationTask({ text: lines.join('\n'), name: 'mine', validation: 1, test: 1 });
    assert.equal(controller.addReaderTask(task), '');
    assert.equal(controller.session().inputs.task, task.id);
    controller.removeReaderTask(task.id);
    assert.equal(controller.readerTasks.has(task.id), false);
    assert.equal(controller.session().inputs.task, 'en-fr');
    assert.equal(controller.session().fieldError('task', controller.t), '');
  });

  test('a typed sentence reaches the engine as typed: the model reads it, the only tokenizer it meets', () => {
    // the engine the controller computes with, its walkthrough's sentences seen
    const seen = [];
    const spy = Object.create(attn, {
      walkthrough: { value: (name, inputs) => (seen.push(inputs.sentence), attn.walkthrough(name, inputs)) },
    });
    for (const [walkthrough, typed, tokens] of [
      ['seq2seq', '  the  red car\t', ['the', 'red', 'car', '<eos>']],
      ['sentiment', 'the food,  was good!', ['the', 'food', 'was', 'good']],
    ]) {
      const controller = new StepperController(spy, { walkthrough });
      controller.edit('sentence', typed);
      assert.equal(seen.at(-1), typed);
      assert.deepEqual(controller.trace.labels[walkthrough === 'seq2seq' ? 'source' : 'tokens'], tokens);
    }
  });

  test('edits in one walkthrough leave the others alone', () => {
    const { controller } = make();
    controller.edit('decoderState', '1, 0, 0');
    controller.setWalkthrough('self-attention');
    assert.equal(controller.session().isDefault(), true);
    controller.setWalkthrough('basics');
    assert.deepEqual(controller.session().inputs.decoderState, [1, 0, 0]);
  });
});

describe('inputs given from outside', () => {
  test('<attention-stepper inputs=\'{"step":3}\'>: a step the engine allows is accepted, one it refuses is marked', () => {
    const { controller } = make({ walkthrough: 'scoring', inputs: { scoring: { step: 3 } } });
    const session = controller.session();
    assert.equal(session.hasErrors(), false, controller.problems({ withFields: true }));
    assert.equal(panel(controller.stages[3], 'gold').rowLabels[0], 'rouge');
    // past the translation's end: the engine's limit, at the field, and the default step meanwhile
    const past = make({ walkthrough: 'scoring', inputs: { scoring: { step: 9 } } }).controller;
    assert.match(past.session().fieldError('step', past.t), /step \(9\) must be between 1 and 6/);
    assert.equal(panel(past.stages[3], 'gold').rowLabels[0], 'voiture');
    const zero = make({ walkthrough: 'scoring', inputs: { scoring: { step: 0 } } }).controller;
    assert.equal(zero.session().fieldError('step', zero.t), 'Enter a whole number from 1 to 1024');
  });

  test("inputs of another walkthrough apply to that walkthrough's session only", () => {
    const { controller } = make({ inputs: { 'self-attention': { seed: 7 } } });
    assert.equal(controller.session().isDefault(), true);
    assert.equal(controller.session('self-attention').inputs.seed, 7);
  });
});

describe('options', () => {
  test('setOptions changes what it is given, falls back on unknown values and sends "options"', () => {
    const { controller, reasons } = make({ stage: 'softmax' });
    controller.setOptions({ lang: 'zh' });
    assert.deepEqual(controller.options, { lang: 'zh', theme: 'light', palette: 'notebook', exercise: false });
    assert.equal(controller.view().title, 'softmax 将得分转换为权重');
    assert.equal(controller.stageTitle(controller.stages[0]), '解码器隐藏状态');
    controller.setOptions({ theme: 'dark', palette: 'colourblind', exercise: true });
    assert.deepEqual(controller.options, { lang: 'zh', theme: 'dark', palette: 'colourblind', exercise: true });
    controller.setOptions({ lang: 'klingon', theme: 'neon' });
    assert.deepEqual(controller.options, { lang: 'en', theme: 'light', palette: 'colourblind', exercise: true });
    assert.equal(controller.view().title, 'Softmax turns scores into weights');
    assert.deepEqual(reasons, ['options', 'options', 'options']);
    assert.equal(controller.stageId, 'softmax');
  });

  test('view() describes the stage on screen', () => {
    const { controller } = make({ stage: 'annotations' });
    const view = controller.view();
    assert.equal(view.stage, controller.stage);
    assert.equal(view.index, 3);
    assert.equal(view.total, 9);
    assert.equal(view.title, 'The annotations matrix');
    assert.equal(view.paragraphs.length, 2);
    assert.equal(view.formula, 'H = [h_1, \\dots, h_{4}]');
    assert.equal(view.code, 'annotations = np.transpose([[3,12,45], [59,2,5], [1,43,5], [4,3,45.3]])');
    assert.equal(view.question, null);
    assert.equal(controller.stageCount(), 'Stage 4 of 9');
  });
});

describe('exercise questions', () => {
  test('only in exercise mode, and only in walkthroughs that have them', () => {
    assert.equal(make({ stage: 'scores' }).controller.view().question, null);
    assert.equal(make().controller.hasQuestions, true);
    assert.equal(make({ walkthrough: 'self-attention' }).controller.hasQuestions, false);
    assert.equal(make({ walkthrough: 'scoring' }).controller.hasQuestions, false);
    const { controller } = make({ exercise: true, stage: 'applied' });
    assert.equal(controller.view().question, null, 'a stage without a question');
  });

  test('scores: which annotation gets the most attention; right and wrong answers', () => {
    const { controller, reasons } = make({ exercise: true, stage: 'scores' });
    const question = controller.view().question;
    assert.equal(
      question.prompt,
      'Looking at these annotations, can you guess which one will get the most attention from the decoder at this time step?',
    );
    assert.deepEqual(question.choices, [
      ['h1', 'h1'],
      ['h2', 'h2'],
      ['h3', 'h3'],
      ['h4', 'h4'],
    ]);
    assert.equal(question.answered, false);
    controller.answer('h1');
    const wrong = controller.view().question;
    assert.equal(wrong.answered, true);
    assert.equal(
      wrong.feedback,
      "Not quite: it's h4. Its dot product with the decoder hidden state gives the highest score, 929, " +
        'while the others score h1: 927, h2: 397, h3: 148.',
    );
    controller.answer('h4');
    assert.equal(
      controller.view().question.feedback,
      "Right, it's h4. Its dot product with the decoder hidden state is the highest score, 929; " +
        'the others score h1: 927, h2: 397, h3: 148.',
    );
    assert.deepEqual(reasons, ['answer', 'answer']);
    // the answer is kept per stage
    controller.next();
    assert.equal(controller.view().question.answered, false);
    controller.prev();
    assert.equal(controller.view().question.answered, true);
  });

  test('scores: the answer and the scores the feedback quotes follow the inputs; an edit clears the answers', () => {
    const { controller } = make({ exercise: true, stage: 'scores' });
    controller.answer('h4');
    controller.edit('decoderState', '1, 0, 0.5'); // scores [25.5, 61.5, 3.5, 26.65]
    const question = controller.view().question;
    assert.equal(question.answered, false);
    controller.answer('h2');
    assert.equal(
      controller.view().question.feedback,
      "Right, it's h2. Its dot product with the decoder hidden state is the highest score, 61.5; " +
        'the others score h1: 25.5, h3: 3.5, h4: 26.65.',
    );
    controller.setOptions({ lang: 'zh' });
    assert.equal(
      controller.view().question.feedback,
      '答对了，是 h2。它与解码器隐藏状态的点积得分最高，为 61.5；其余注释的得分为 h1: 25.5, h3: 3.5, h4: 26.65。',
    );
    // one annotation: nothing to choose from
    controller.edit('annotations', '1, 2, 3');
    assert.equal(controller.view().question, null);
  });

  test('softmax: asked with the notebook inputs only, in the current language', () => {
    const { controller } = make({ exercise: true, stage: 'softmax' });
    const question = controller.view().question;
    assert.equal(
      question.prompt,
      'The first and last annotations scored 927 and 929. Will they share the attention about equally?',
    );
    assert.deepEqual(question.choices, [
      ['yes', 'Yes'],
      ['no', 'No'],
    ]);
    controller.answer('yes');
    assert.match(controller.view().question.feedback, /^Not so: the first gets only 0\.119 and the last 0\.881\./);
    controller.answer('no');
    assert.match(controller.view().question.feedback, /^Right, they won't/);
    controller.setOptions({ lang: 'zh' });
    assert.deepEqual(controller.view().question.choices, [
      ['yes', '是'],
      ['no', '否'],
    ]);
    assert.match(controller.view().question.feedback, /^答对了/);

    controller.edit('decoderState', '1, 0, 0');
    assert.equal(controller.view().question, null, 'the prompt quotes the notebook scores');
    controller.reset();
    assert.notEqual(controller.view().question, null);
  });
});

describe('problems()', () => {
  test('with withFields, each field problem with its label; the stage names the fields it is stale by', () => {
    const { controller } = make();
    controller.edit('decoderState', '1, x');
    controller.edit('seed', '-1');
    assert.equal(controller.problems(), '');
    assert.equal(
      controller.problems({ withFields: true }),
      'Decoder hidden state: “x” is not a number. Seed of W_c (attentional state): Enter a whole number from 0 to 4294967295.',
    );
    assert.deepEqual(controller.view().stale, ['Decoder hidden state', 'Seed of W_c (attentional state)']);
    assert.equal(
      controller.problems({ withFields: true, extra: ['inputs are not valid JSON', null] }),
      'inputs are not valid JSON ' + controller.problems({ withFields: true }),
    );
    controller.setOptions({ lang: 'zh' });
    const zh = controller.problems({ withFields: true });
    // Chinese punctuation between a label and its problem, and after it
    assert.ok(zh.startsWith('解码器隐藏状态：“x” 不是数字。'), zh);
    assert.ok(zh.endsWith('请输入 0 到 4294967295 之间的整数。'), zh);
  });

  test('an engine error about the form as a whole, then the note', () => {
    const { controller } = make({
      walkthrough: 'self-attention',
      inputs: { 'self-attention': { W_Q: 'not a matrix' } },
    });
    const session = controller.session();
    assert.match(session.formError, /^inputs\.W_Q must be a matrix/);
    assert.equal(controller.problems(), session.formError);
    assert.equal(controller.problems({ withFields: true }), controller.problems(), 'no field is to blame');
  });

  test('nothing wrong, nothing to say', () => {
    assert.equal(make().controller.problems({ withFields: true }), '');
  });
});
