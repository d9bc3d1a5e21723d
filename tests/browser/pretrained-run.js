// What the pretrained checkpoint's browser test reads of a fixture (tests/fixtures/pretrained/),
// the same on the page and in a worker: its files fetched as Blobs, loaded a slice at a time with
// progress, its text tokenized and run, one head traced and a few tokens generated.
import { loadAttention } from '../../dist/engine/index.js';

const fixture = new URL('../fixtures/pretrained/', import.meta.url);
const blobOf = async (name, path) => (await fetch(new URL(`${name}/${path}`, fixture))).blob();

export async function runFixture(name, text) {
  const attn = await loadAttention({ models: true });
  let progress = 0;
  const model = await attn.loadPretrained({
    config: await (await blobOf(name, 'config.json')).text(),
    weights: await blobOf(name, 'model.safetensors'),
    tokenizer: await (await blobOf(name, 'tokenizer.json')).text(),
    tokenizerConfig: await (await blobOf(name, 'tokenizer_config.json')).text(),
    onProgress: ({ bytesRead, totalBytes }) => (progress = bytesRead / totalBytes),
  });
  const run = model.run(text);
  const trace = model.trace(text, { layer: 1, head: 1 });
  const generated = await model.generate(text, { maxTokens: 3, stopAtEnd: false });
  model.dispose();
  return {
    progress,
    ids: Array.from(run.ids),
    tokens: run.tokens,
    attention: Array.from(run.attentions[1][1].data),
    weights: Array.from(trace.weights.data),
    logits: Array.from(run.logits.data),
    generated: Array.from(generated.ids),
  };
}
