// The form's parsers and formatters, one per kind of input the engine publishes (controlFor), and
// how a WalkthroughSession takes inputs given from outside (a link, an embedding page's JSON).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadAttention } from 'attention-stepper';

import { controlFor, FieldError } from '../../web/components/inputs.js';
import { WalkthroughSession } from '../../web/components/session.js';
import { assertSeedNumbers } from '../seeds.js';

const attn = await loadAttention({ threads: 1, models: true });
const published = (walkthrough, name) => attn.walkthroughInputs(walkthrough).find((field) => field.name === name);

/** Asserts that parse(text) throws the FieldError `key` with exactly `params`. */
function assertFieldError(parse, text, key, params = {}) {
  assert.throws(
    () => parse(text),
    (error) => {
      assert.ok(error instanceof FieldError, `${JSON.stringify(text)}: ${error}`);
      assert.equal(error.key, key, JSON.stringify(text));
      assert.deepEqual(error.params, params, JSON.stringify(text));
      return true;
    },
  );
}

describe('vector', () => {
  const { control, parse, format } = controlFor(published('basics', 'decoderState'));

  test('a text box of numbers separated by commas and/or spaces', () => {
    assert.equal(control, 'text');
    assert.deepEqual(parse('5, 1, 20'), [5, 1, 20]);
    assert.deepEqual(parse('5 1 20'), [5, 1, 20]);
    assert.deepEqual(parse('  5,,1 ,\t20,  '), [5, 1, 20]);
    assert.deepEqual(parse('-2.5, 1e-3, 4E2, .5'), [-2.5, 0.001, 400, 0.5]);
    assert.deepEqual(parse('7'), [7]);
  });

  test('empty, and what is not a finite number, with its text and line 1', () => {
    for (const empty of ['', '   ', ' , ,\t']) assertFieldError(parse, empty, 'empty');
    assertFieldError(parse, '1, x, 0', 'notNumber', { text: 'x', line: 1 });
    assertFieldError(parse, '1, 2, five', 'notNumber', { text: 'five', line: 1 });
    assertFieldError(parse, 'Infinity', 'notNumber', { text: 'Infinity', line: 1 });
    assertFieldError(parse, '1 NaN', 'notNumber', { text: 'NaN', line: 1 });
    assertFieldError(parse, '1; 2', 'notNumber', { text: '1;', line: 1 });
    // decimals only: Number() alone would read these as 16, 1, 0.5 and Infinity
    for (const text of ['0x10', '0b1', '1/2', '1e999']) assertFieldError(parse, text, 'notNumber', { text, line: 1 });
    // the quoted text is cut to 20 characters
    assertFieldError(parse, `1 ${'y'.repeat(50)}`, 'notNumber', { text: 'y'.repeat(20), line: 1 });
  });

  test('format and parse round trip', () => {
    assert.equal(format([5, 1, 20]), '5, 1, 20');
    for (const vector of [[5, 1, 20], [45.3, -0.1, 1e-7, 1.2345678901234567e300], [0.1 + 0.2]]) {
      assert.deepEqual(parse(format(vector)), vector);
    }
  });
});

describe('matrix', () => {
  const { control, parse, format } = controlFor(published('basics', 'annotations'));

  test('a text area, one row per line or separated by ";"', () => {
    assert.equal(control, 'textarea');
    assert.deepEqual(parse('1, 2\n3, 4'), [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(parse('1, 2; 3, 4'), [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(parse('1 2;3 4\n5 6;'), [
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    // blank lines are no rows
    assert.deepEqual(parse('\n1 2\n  \n3 4\n\n'), [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(parse('9'), [[9]]);
  });

  test('ragged rows name the row, its count and the first row count', () => {
    assertFieldError(parse, '1, 2\n3', 'ragged', { line: 2, count: 1, expected: 2 });
    assertFieldError(parse, '1; 2 3 4', 'ragged', { line: 2, count: 3, expected: 1 });
    assertFieldError(parse, '1 2\n3 4\n5 6 7', 'ragged', { line: 3, count: 3, expected: 2 });
  });

  test('a non-number names its text and its row', () => {
    assertFieldError(parse, 'a, 2\n3, 4', 'notNumber', { text: 'a', line: 1 });
    assertFieldError(parse, '1, 2\n3, y', 'notNumber', { text: 'y', line: 2 });
    assertFieldError(parse, '1, 2; 3, 4; 5, --6', 'notNumber', { text: '--6', line: 3 });
  });

  test('empty', () => {
    for (const empty of ['', '\n\n', ' ; ;\n ']) assertFieldError(parse, empty, 'empty');
    // a row of separators only has no number
    assertFieldError(parse, '1, 2\n , ', 'empty');
  });

  test('format and parse round trip', () => {
    const annotations = published('basics', 'annotations').default;
    assert.equal(format(annotations), '3, 12, 45\n59, 2, 5\n1, 43, 5\n4, 3, 45.3');
    assert.deepEqual(parse(format(annotations)), annotations);
    const floats = [
      [0.1, -2e-9],
      [1 / 3, 123456.789],
    ];
    assert.deepEqual(parse(format(floats)), floats);
  });
});

describe('integer', () => {
  test('limits from the field, in the error too', () => {
    const { control, parse, format } = controlFor({ name: 'length', kind: 'integer', min: 1, max: 256 });
    assert.equal(control, 'number');
    assert.equal(parse('4'), 4);
    assert.equal(parse(' 256 '), 256);
    assert.equal(parse('1'), 1);
    for (const bad of ['0', '257', '-3', '2.5', '', '  ', 'four', '4 5', 'NaN', 'Infinity']) {
      assertFieldError(parse, bad, 'integer', { min: 1, max: 256 });
    }
    assert.equal(format(12), '12');
    assert.equal(parse(format(37)), 37);
  });

  test("the engine's published limits: a seed is 0 to 2^32 - 1", () => {
    const seed = published('self-attention', 'seed');
    const { parse } = controlFor(seed);
    assert.equal(parse('0'), 0);
    assert.equal(parse('4294967295'), 4294967295);
    assertFieldError(parse, '4294967296', 'integer', { min: 0, max: 4294967295 });
    assertFieldError(parse, '-1', 'integer', { min: 0, max: 4294967295 });
  });
});

describe('tokens, text and choice', () => {
  test('text: a sentence as typed, which only the engine tokenizes', () => {
    const { control, parse, format } = controlFor(published('seq2seq', 'sentence'));
    assert.equal(control, 'text');
    for (const typed of ['How are you?', '  Nov  23,\t2026 ', '', '我 今天 在 家 吃 饭'])
      assert.equal(parse(typed), typed);
    assert.equal(format('the red car'), 'the red car');
    assert.equal(format(['the', 'red', 'car']), 'the red car'); // a link of an earlier version's words
  });

  test('tokens: words separated by whitespace; empty is no words', () => {
    const { control, parse, format } = controlFor(published('captioning', 'scene'));
    assert.equal(control, 'text');
    assert.deepEqual(parse('How are you ?'), ['How', 'are', 'you', '?']);
    assert.deepEqual(parse('  a\tb \n c  '), ['a', 'b', 'c']);
    assert.deepEqual(parse(''), []);
    assert.deepEqual(parse('   '), []);
    assert.equal(format(['Comment', 'allez', 'vous']), 'Comment allez vous');
    assert.deepEqual(parse(format(['x', 'y,', 'z'])), ['x', 'y,', 'z']);
  });

  test('choice: a menu; its value is the text', () => {
    const { control, parse, format } = controlFor(published('seq2seq', 'scoring'));
    assert.equal(control, 'select');
    assert.equal(parse('concat'), 'concat');
    assert.equal(format('general'), 'general');
  });

  test("a spec's options make a menu of any kind, with the kind's parser", () => {
    const word = published('self-attention', 'word');
    const { control, parse } = controlFor(word, { options: () => [] });
    assert.equal(control, 'select');
    assert.equal(parse('2'), 2);
    assertFieldError(parse, '512', 'integer', { min: 0, max: 511 });
    assert.equal(controlFor(word).control, 'number');
  });
});

describe('WalkthroughSession.applyGiven', () => {
  const scores = (session) => Array.from(session.trace.stages.find((stage) => stage.id === 'scores').panels[0].data);

  test('values go through the parsers: arrays are formatted into the field texts, strings parsed', () => {
    const session = new WalkthroughSession(attn, 'basics');
    session.applyGiven({ decoderState: [1, 0, 0], seed: '7' });
    assert.deepEqual(session.inputs.decoderState, [1, 0, 0]);
    assert.equal(session.inputs.seed, 7);
    assert.equal(session.text(session.fields[0]), '1, 0, 0');
    assert.deepEqual(scores(session), [3, 59, 1, 4]);
    assert.equal(session.hasErrors(), false);
    assert.deepEqual(session.changedInputs(), { decoderState: [1, 0, 0], seed: 7 });
    assert.equal(session.isDefault(), false);
  });

  test('a malformed value is marked on its field and the notebook inputs stay', () => {
    const session = new WalkthroughSession(attn, 'basics');
    session.applyGiven({ decoderState: 'five, one', annotations: [[1, 2], [3]], seed: 2 ** 40 });
    const t = (key, params) => `${key} ${JSON.stringify(params)}`;
    assert.equal(session.fieldError('decoderState', t), 'errors.notNumber {"text":"five","line":1}');
    assert.equal(session.fieldError('annotations', t), 'errors.ragged {"line":2,"count":1,"expected":2}');
    assert.equal(session.fieldError('seed', t), 'errors.integer {"min":0,"max":4294967295}');
    assert.equal(session.text(session.fields[0]), 'five, one');
    assert.equal(session.text(session.fields[1]), '1, 2\n3');
    assertSeedNumbers({ scores: scores(session) });
    assert.equal(session.formError, null);
    assert.equal(session.isDefault(), true);
    assert.equal(session.hasErrors(), true);
  });

  test('a value of the wrong type is marked on its field, not thrown', () => {
    const session = new WalkthroughSession(attn, 'basics');
    session.applyGiven({ decoderState: { x: 1 }, annotations: 7 });
    assert.equal(session.parseErrors.decoderState.key, 'notNumber');
    assert.deepEqual(session.inputs.annotations, [[7]]);
    assert.match(
      session.engineErrors.annotations,
      /annotation length \(1, from \[1x1\]\) must equal decoderState length/,
    );
    assertSeedNumbers({ scores: scores(session) });
  });

  test('an unknown input is reported for the form and dropped, so that later edits still compute', () => {
    const session = new WalkthroughSession(attn, 'basics');
    session.applyGiven({ bogus: 1, decoderState: [1, 0, 0] });
    assert.match(session.formError, /^inputs\.bogus is not an option; expected one of decoderState, annotations, seed/);
    assert.equal('bogus' in session.inputs, false);
    assert.deepEqual(scores(session), [3, 59, 1, 4], 'the rest of the given inputs apply');
    assert.equal(session.hasErrors(), true);
    assert.equal(session.setText('decoderState', '0, 1, 0'), true);
    assert.deepEqual(scores(session), [12, 2, 43, 3]);
    assert.equal(session.formError, null);
    assert.equal(session.hasErrors(), false);
  });

  test('an input the form does not show goes to the engine as it is: used when good, dropped when refused', () => {
    const session = new WalkthroughSession(attn, 'self-attention');
    const W_K = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    session.applyGiven({ W_K });
    assert.equal(session.hasErrors(), false);
    const given = session.trace.stages[1].panels[1];
    assert.deepEqual(Array.from(given.data), W_K.flat());
    assert.deepEqual(session.changedInputs(), { W_K });

    const refused = new WalkthroughSession(attn, 'self-attention');
    refused.applyGiven({ W_K: [[1, 2], [3]], seed: 6 });
    assert.match(refused.formError, /W_K is ragged/);
    assert.equal('W_K' in refused.inputs, false);
    assert.equal(refused.inputs.seed, 6, 'the form inputs given with it apply');
    assert.equal(refused.setText('seed', '3'), true);
    assert.equal(refused.inputs.seed, 3);
    assert.equal(refused.hasErrors(), false);
  });

  test("the spec's adjustment applies: fewer words keep the word followed among them", () => {
    const session = new WalkthroughSession(attn, 'self-attention');
    session.applyGiven({
      embeddings: [
        [1, 0],
        [0, 1],
      ],
      word: 3,
    });
    assert.equal(session.inputs.word, 1);
    assert.equal(session.hasErrors(), false);
    assert.deepEqual(session.trace.labels.words, ['word_1', 'word_2']);
  });

  test('nothing given, or not an object: the notebook inputs', () => {
    for (const given of [undefined, null, [], 'decoderState=1', 42]) {
      const session = new WalkthroughSession(attn, 'basics');
      session.applyGiven(given);
      assert.equal(session.isDefault(), true);
      assert.equal(session.hasErrors(), false);
      assertSeedNumbers({ scores: scores(session) });
    }
  });
});
