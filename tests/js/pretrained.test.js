// Pretrained checkpoints through the API (issue 44): each fixture case (tests/fixtures/pretrained/,
// tiny random models in Hugging Face's exact layout with PyTorch's outputs, written by
// make_pretrained_fixtures.py) loaded from bytes and from Blobs, sharded or not, and run against
// the reference at float64 and float32; progress, aborting, the estimate, bad input by argument, and
// the heap after many loads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadAttention } from 'attention-stepper';

const attn = await loadAttention({ models: true });
const root = new URL('../fixtures/pretrained/', import.meta.url);
const cases = JSON.parse(readFileSync(new URL('cases.json', root), 'utf8'));
const file = (name, path) => readFileSync(new URL(`${name}/${path}`, root));
const text = (name, path) => file(name, path).toString('utf8');
const has = (name, path) => cases.find((c) => c.name === name).files.includes(path);

// The files of a case as loadPretrained takes them: its weights as bytes, or as Blobs (`asBlob`).
function filesOf(name, asBlob = false) {
  const wrap = (bytes) => (asBlob ? new Blob([bytes]) : new Uint8Array(bytes));
  const options = { config: text(name, 'config.json') };
  if (has(name, 'model.safetensors.index.json')) {
    options.index = text(name, 'model.safetensors.index.json');
    const map = JSON.parse(options.index).weight_map;
    options.weights = Object.fromEntries(
      [...new Set(Object.values(map))].map((shard) => [shard, wrap(file(name, shard))]),
    );
  } else {
    options.weights = wrap(file(name, 'model.safetensors'));
  }
  return options;
}

const references = new Map();
const referenceOf = (name) => {
  if (!references.has(name))
    references.set(name, attn.readTensors(new Uint8Array(file(name, 'reference.safetensors'))));
  return references.get(name);
};

// The largest difference relative to the largest finite reference value.
function relativeError(actual, expected) {
  assert.equal(actual.length, expected.length);
  let largest = 0;
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    if (!Number.isFinite(expected[i])) {
      assert.equal(actual[i], expected[i], `cell ${i}`);
      continue;
    }
    largest = Math.max(largest, Math.abs(expected[i]));
    worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
  }
  return worst / largest;
}

const inputOf = (reference) => ({
  ids: Int32Array.from(reference.input_ids.data),
  mask: reference.attention_mask && Array.from(reference.attention_mask.data),
  types: reference.token_type_ids && Int32Array.from(reference.token_type_ids.data),
});

for (const [precision, tolerance] of [
  ['float64', 1e-9],
  ['float32', 1e-5],
])
  test(`every case at ${precision}: attentions, hidden states, logits and one head's steps as PyTorch's`, async () => {
    for (const { name, family, head, layer, head_index: headIndex } of cases) {
      const model = await attn.loadPretrained({ ...filesOf(name), precision });
      const reference = referenceOf(name);
      assert.equal(model.kind, 'pretrained');
      assert.equal(model.family, family);
      assert.equal(model.config.head, head, name);
      const { ids, mask, types } = inputOf(reference);
      const given = { attentionMask: mask, tokenTypes: types };
      const run = model.run(ids, { ...given, hiddenStates: true, logits: 'all' });
      assert.equal(run.attentions.length, model.config.layers);
      const Type = precision === 'float32' ? Float32Array : Float64Array;
      for (const [l, heads] of run.attentions.entries()) {
        assert.equal(heads.length, model.config.heads);
        assert.ok(heads[0].data instanceof Type);
        const joined = heads.flatMap((m) => Array.from(m.data));
        assert.ok(relativeError(joined, reference[`attentions.${l}`].data) < tolerance, `${name} attentions.${l}`);
      }
      assert.equal(run.hiddenStates.length, model.config.layers + 1);
      for (const [i, state] of run.hiddenStates.entries())
        assert.ok(relativeError(state.data, reference[`hidden_states.${i}`].data) < tolerance, `${name} hidden ${i}`);
      if (reference.logits) assert.ok(relativeError(run.logits.data, reference.logits.data) < tolerance, name);
      else assert.equal(run.logits, null, name);
      const trace = model.trace(ids, { ...given, layer, head: headIndex });
      for (const step of ['q', 'k', 'v', 'qRotated', 'kRotated', 'scores', 'scaled', 'masked', 'weights', 'output']) {
        const key = `trace.${step.replace('Rotated', '_rotated')}`;
        if (reference[key])
          assert.ok(relativeError(trace[step].data, reference[key].data) < tolerance, `${name} ${key}`);
        else assert.equal(trace[step], undefined, `${name} ${key}`);
      }
      model.dispose();
    }
  });

test('a checkpoint read from Blobs a slice at a time equals the one from bytes, with progress to the last byte', async () => {
  for (const name of ['gpt2-sharded', 'llama-bf16']) {
    const seen = [];
    const fromBlob = await attn.loadPretrained({ ...filesOf(name, true), onProgress: (p) => seen.push(p) });
    const fromBytes = await attn.loadPretrained(filesOf(name));
    const ids = inputOf(referenceOf(name)).ids;
    assert.deepEqual(fromBlob.run(ids).logits, fromBytes.run(ids).logits);
    assert.ok(seen.length > 0);
    const last = seen.at(-1);
    assert.equal(last.bytesRead, last.totalBytes);
    assert.ok(seen.every((p, i) => i === 0 || p.bytesRead > seen[i - 1].bytesRead));
    fromBlob.dispose();
    fromBytes.dispose();
  }
});

test('an aborted load rejects with an AbortError and leaves the heap as it was', async () => {
  const options = filesOf('gpt2');
  (await attn.loadPretrained(options)).dispose();
  const before = attn.memory();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(attn.loadPretrained({ ...options, signal: controller.signal }), { name: 'AbortError' });
  const during = new AbortController();
  let calls = 0;
  await assert.rejects(
    attn.loadPretrained({ ...options, signal: during.signal, onProgress: () => ++calls === 3 && during.abort() }),
    { name: 'AbortError' },
  );
  assert.deepEqual(attn.memory(), before);
});

test('pretrainedEstimate: parameters and bytes before any weight is read', () => {
  const estimate = attn.pretrainedEstimate(text('gpt2', 'config.json'));
  // wte 304 x 16 (tied), wpe 32 x 16, two layers of 3,280, ln_f 32
  assert.deepEqual(
    { ...estimate },
    {
      family: 'gpt2',
      parameters: 304 * 16 + 32 * 16 + 2 * 3280 + 32,
      bytes: (304 * 16 + 32 * 16 + 2 * 3280 + 32) * 4,
      limit: estimate.limit,
      fits: true,
    },
  );
  assert.equal(attn.pretrainedEstimate(text('gpt2', 'config.json'), 'float64').bytes, estimate.bytes * 2);
  // GPT-2 small's own config: 124M parameters, 498 MB at float32
  const small = attn.pretrainedEstimate({ model_type: 'gpt2' });
  assert.equal(small.parameters, 124_439_808);
  assert.equal(small.fits, true);
  const huge = attn.pretrainedEstimate({ model_type: 'llama', hidden_size: 8192, num_hidden_layers: 80 });
  assert.equal(huge.fits, false);
});

test('bad input is an Error naming its argument, and the engine goes on', async () => {
  const good = filesOf('gpt2');
  const rejects = (options, argument, message) =>
    assert.rejects(attn.loadPretrained(options), (error) => {
      assert.equal(error.argument, argument, error.message);
      assert.match(error.message, message);
      return true;
    });
  await rejects({ ...good, config: '{"model_type": "mamba"}' }, 'config', /model_type "mamba" is none/);
  await rejects({ ...good, config: 42 }, 'config', /JSON text or an object/);
  await rejects({ ...good, weights: 'model.safetensors' }, 'weights', /ArrayBuffer, a Uint8Array or a Blob/);
  await rejects(
    { ...good, weights: good.weights.subarray(0, 5000) },
    'weights',
    /model.safetensors is not a safetensors file/,
  );
  await rejects({ ...good, precision: 'float16' }, 'precision', /float16/);
  await rejects({ ...good, extra: 1 }, 'extra', /not an option/);
  const sharded = filesOf('gpt2-sharded');
  const [first] = Object.keys(sharded.weights);
  await rejects(
    { ...sharded, weights: { [first]: sharded.weights[first] } },
    'weights',
    /the index names model-00002-of-00002.safetensors, which weights lacks/,
  );
  await rejects({ ...sharded, index: undefined }, 'index', /give the index/);
  await rejects(
    { config: text('gpt2', 'config.json').replace('"vocab_size": 304', '"vocab_size": 400'), weights: good.weights },
    'config',
    /contradicts the weights/,
  );
  const model = await attn.loadPretrained(good);
  const throwsOf = (call, argument, message) =>
    assert.throws(call, (error) => error.argument === argument && message.test(error.message));
  throwsOf(() => model.run([1, 2, 999]), 'input', /token id 999 is past the model's embedding table of 304 rows/);
  throwsOf(() => model.run(new Int32Array(40)), 'input', /40 tokens are more than the model's 32 positions/);
  throwsOf(() => model.run([]), 'input', /no tokens/);
  throwsOf(() => model.run('text'), 'tokenizer', /without a tokenizer/);
  throwsOf(() => model.trace([1, 2], { layer: 5 }), 'layer', /layer 5 is past the model's 2 layers/);
  throwsOf(() => model.trace([1, 2], { head: 4 }), 'head', /head 4 is past the model's 4 heads/);
  throwsOf(() => model.run([1, 2], { attentionMask: [1] }), 'attentionMask', /1 values for 2 tokens/);
  throwsOf(() => model.run([1, 2], { logits: 'first' }), 'logits', /'last', 'all' or false/);
  // a checkpoint's file alone, with its own LM head (the kind's state_dict tensor), says where it loads
  throwsOf(() => attn.loadModel(filesOf('gpt2-untied').weights), 'bytes', /loadPretrained/);
  assert.equal(model.run([1, 2]).attentions.length, 2, 'the engine goes on');
  model.dispose();
  throwsOf(() => model.run([1, 2]), 'model', /disposed/);
});

test('20 load, run and dispose cycles leave the heap where 2 left it', async () => {
  const cycle = async () => {
    const model = await attn.loadPretrained(filesOf('llama'));
    model.run([1, 5, 9], { hiddenStates: true, logits: 'all' });
    model.dispose();
  };
  for (let i = 0; i < 2; i++) await cycle();
  const before = attn.memory();
  for (let i = 0; i < 18; i++) await cycle();
  assert.deepEqual(attn.memory(), before);
});

test('generate: greedy tokens as PyTorch picks them, with the cache; a seed reproduces a draw', async () => {
  for (const { name, head } of cases.filter((c) => c.head === 'lm')) {
    const model = await attn.loadPretrained(filesOf(name));
    const reference = referenceOf(name);
    const prompt = inputOf(reference).ids;
    const seen = [];
    const greedy = await model.generate(prompt, { maxTokens: 5, stopAtEnd: false, onStep: (step) => seen.push(step) });
    assert.deepEqual(Array.from(greedy.ids), Array.from(reference['generate.ids'].data), name);
    assert.equal(seen.length, 5);
    // each step's attention: a row per head over every token so far
    seen.forEach((step, i) => {
      assert.equal(step.attentions.length, model.config.layers);
      assert.deepEqual([step.attentions[0][0].rows, step.attentions[0][0].cols], [1, prompt.length + i]);
      assert.ok(step.probability > 0 && step.probability <= 1);
    });
    // greedy is the run's likeliest next token
    assert.equal(model.run(prompt).top[0].id, greedy.ids[0], `${name}: ${head}`);
    const draw = (seed) => model.generate(prompt, { maxTokens: 8, temperature: 1.5, seed, stopAtEnd: false });
    const [a, b, c] = [await draw(11), await draw(11), await draw(12)];
    assert.deepEqual(a.ids, b.ids);
    assert.notDeepEqual(a.ids, c.ids);
    model.dispose();
  }
  const bert = await attn.loadPretrained(filesOf('bert'));
  await assert.rejects(bert.generate([1, 2]), { argument: 'model' });
  bert.dispose();
});

test("text through the checkpoint's own tokenizer: the reference's ids, and run(text) as run(ids)", async () => {
  for (const { name, text: sample, text_pair: pair } of cases) {
    const model = await attn.loadPretrained({
      ...filesOf(name),
      tokenizer: text(name, 'tokenizer.json'),
      tokenizerConfig: JSON.parse(text(name, 'tokenizer_config.json')),
    });
    const reference = referenceOf(name);
    const { ids, mask, types } = inputOf(reference);
    // the reference pads BERT's inputs by a token the mask hides
    const kept = mask ? mask.filter((m) => m === 1).length : ids.length;
    const tokens = model.tokenize(sample, pair ?? undefined);
    assert.deepEqual(Array.from(tokens.ids), Array.from(ids.subarray(0, kept)), name);
    if (types) assert.deepEqual(Array.from(tokens.tokenTypes), Array.from(types.subarray(0, kept)), name);
    assert.ok(
      tokens.tokens.every((token) => !/[Ġ▁]|^##/.test(token)),
      tokens.tokens.join('|'),
    );
    // decoded without the special tokens the tokenizer added: the text (a typed [MASK] is one too)
    if (!pair && !sample.includes('[MASK]'))
      assert.equal(model.decode(tokens.ids.filter((_, i) => !tokens.special[i])).trim(), sample.trim());
    const fromText = model.run(sample, { pair: pair ?? undefined, logits: 'all' });
    const fromIds = model.run(tokens.ids, {
      tokenTypes: model.config.tokenTypes ? tokens.tokenTypes : undefined,
      logits: 'all',
    });
    assert.deepEqual(fromText.attentions, fromIds.attentions);
    assert.deepEqual(fromText.tokens, tokens.tokens);
    if (model.config.head === 'mlm') {
      // the masked-LM head's logits by default: the [MASK] token's, and its likeliest tokens
      const masked = model.run(sample, { pair: pair ?? undefined, topK: 3 });
      assert.equal(masked.logits.rows, tokens.tokens.filter((token) => token === '[MASK]').length);
      assert.equal(masked.top.length, 3);
      assert.ok(masked.top[0].probability >= masked.top[1].probability);
      assert.equal(typeof masked.top[0].token, 'string');
    }
    model.dispose();
  }
});

test('a seeded mutation loop over config.json: every outcome a model or an Error naming config or weights', async () => {
  let seed = 44;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const outcomes = { model: 0, config: 0, weights: 0 };
  for (const name of ['gpt2', 'bert', 'llama-rope-llama3']) {
    const good = filesOf(name);
    for (let i = 0; i < 70; i++) {
      let config = good.config;
      const at = Math.floor(random() * config.length);
      const mutation = Math.floor(random() * 4);
      if (mutation === 0) config = config.slice(0, at);
      else if (mutation === 1)
        config = config.slice(0, at) + String.fromCharCode(32 + Math.floor(random() * 95)) + config.slice(at + 1);
      else if (mutation === 2)
        config = config.replace(/\d+/g, (digits) => (random() < 0.3 ? String(Number(digits) * 2 + 1) : digits));
      else config = config.slice(0, at) + config.slice(at + Math.floor(random() * 20));
      try {
        (await attn.loadPretrained({ ...good, config })).dispose();
        outcomes.model++;
      } catch (error) {
        assert.ok(
          error instanceof Error && ['config', 'weights'].includes(error.argument),
          `${error.argument}: ${error.message}`,
        );
        outcomes[error.argument]++;
      }
    }
  }
  assert.ok(outcomes.model > 0 && outcomes.config > 0 && outcomes.weights > 0, JSON.stringify(outcomes));
  const model = await attn.loadPretrained(filesOf('gpt2'));
  assert.equal(model.run([1, 2, 3]).attentions.length, 2, 'the engine goes on');
  model.dispose();
});
