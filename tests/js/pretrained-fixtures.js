// The tiny checkpoints of tests/fixtures/pretrained/ (make_pretrained_fixtures.py), loaded with
// their tokenizers as a page loads a reader's folder, for tests that step through them.
import { readFileSync } from 'node:fs';

const root = new URL('../fixtures/pretrained/', import.meta.url);
const file = (name, path) => readFileSync(new URL(`${name}/${path}`, root));

/** The fixture case `name` (one file of weights) loaded by `attn` with its tokenizer. */
export const loadFixture = (attn, name) =>
  attn.loadPretrained({
    config: file(name, 'config.json').toString('utf8'),
    weights: new Uint8Array(file(name, 'model.safetensors')),
    tokenizer: new Uint8Array(file(name, 'tokenizer.json')),
    tokenizerConfig: file(name, 'tokenizer_config.json').toString('utf8'),
  });
