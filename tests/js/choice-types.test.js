// The choice lists the public types spell out (Seq2seqScoring, ClassifierEncoder, Comparison, …)
// are the engine's: each kind's create options whose field has choices (modelFacts(kind).fields),
// each walkthrough input of kind choice (walkthroughInputs(name)), and each list of names a
// kind's facts give (CaptionLanguage[], the scene's shapes and colours…), read from the package's
// types by TypeScript's checker. A field typed `string` mirrors nothing; one typed as a union of
// names must name exactly the engine's choices, so that the types cannot drift from the engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadAttention, MODEL_KINDS } from 'attention-stepper';

import { typesProgram } from './api-surface.js';

const entry = fileURLToPath(new URL('../../dist/engine/index.d.ts', import.meta.url));
const program = typesProgram([entry]);
const checker = program.getTypeChecker();
const exported = (name) =>
  checker.getDeclaredTypeOfSymbol(
    checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry))).find((s) => s.name === name),
  );
// the names a property's type spells out, sorted, or null when it is no union of string literals
const names = (type, property) => {
  const symbol = type.getProperty(property);
  assert.ok(symbol, `${property} is typed`);
  const spelled = checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
  const parts = spelled.isUnion() ? spelled.types : [spelled];
  return parts.every((part) => part.isStringLiteral()) ? parts.map((part) => part.value).sort() : null;
};

const attn = await loadAttention({ threads: 1, models: true });

test("each kind's create options spell out its fields' choices as the engine lists them", () => {
  const kinds = exported('ModelKinds');
  let checked = 0;
  // a kind that is only loaded (a pretrained checkpoint's) has no create options
  for (const kind of Object.keys(MODEL_KINDS).filter((name) => attn.modelFacts(name).abilities.creates)) {
    const options = checker.getTypeOfSymbol(
      checker.getPropertyOfType(checker.getTypeOfSymbol(kinds.getProperty(kind)), 'options'),
    );
    for (const field of attn.modelFacts(kind).fields.filter((f) => f.choices)) {
      assert.deepEqual(names(options, field.name), [...field.choices].sort(), `${kind}: ${field.name}`);
      checked++;
    }
  }
  assert.ok(checked >= 5, `${checked} choice fields`);
});

test("each walkthrough's inputs spell out their choices as the engine lists them, where they spell any", () => {
  const inputs = exported('WalkthroughInputs');
  let spelled = 0;
  for (const name of attn.walkthroughNames) {
    const type = checker.getTypeOfSymbol(inputs.getProperty(name));
    for (const field of attn.walkthroughInputs(name).filter((f) => f.kind === 'choice')) {
      const typed = names(type, field.name);
      if (typed === null) continue; // a string: the engine's choices are its to check
      assert.deepEqual(typed, [...field.choices].sort(), `${name}: ${field.name}`);
      spelled++;
    }
  }
  assert.ok(spelled >= 7, `${spelled} spelled out`);
});

test("each kind's facts spell out their lists of names as the engine gives them, where they spell any", () => {
  const kinds = exported('ModelKinds');
  const checked = [];
  for (const kind of Object.keys(MODEL_KINDS)) {
    const factsType = checker.getTypeOfSymbol(
      checker.getPropertyOfType(checker.getTypeOfSymbol(kinds.getProperty(kind)), 'facts'),
    );
    const facts = attn.modelFacts(kind);
    for (const symbol of factsType.getProperties()) {
      const value = facts[symbol.name];
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) continue;
      // readonly CaptionLanguage[]: the union its items are typed by
      const [item] = checker.getTypeArguments(checker.getNonNullableType(checker.getTypeOfSymbol(symbol)));
      const parts = item?.isUnion() ? item.types : [item];
      if (!item || !parts.every((part) => part.isStringLiteral())) continue; // string[]: nothing mirrored
      assert.deepEqual(parts.map((part) => part.value).sort(), [...value].sort(), `${kind}: ${symbol.name}`);
      checked.push(`${kind}.${symbol.name}`);
    }
  }
  // the captioner's and the classifier's languages at least (CaptionLanguage, ClassificationLanguage)
  assert.ok(checked.includes('captioner.languages') && checked.includes('classifier.languages'), checked.join());
});
