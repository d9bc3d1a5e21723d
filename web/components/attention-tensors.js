// Attention computed anywhere, read in BertViz's contract for the public model and head views
// (attention-views.js): a list per layer of [batch, heads, T, T] or [heads, T, T] (the batch of
// one, as Hugging Face models return `outputs.attentions` for one text), or one tensor of every
// layer ([layers, batch, heads, T, T] or [layers, heads, T, T]), with the T tokens; layers and
// heads count from 0. A tensor is nested arrays or { shape, data } (values in C order), a layer
// may be its heads as the engine's matrices ({ rows, cols, data }: what a checkpoint run here
// gives), and a file's tensors (the engine's readTensors) are named layer_0, layer_1, … or
// attentions. No DOM: Node tests it.

const WHAT = '(batch, heads, tokens, tokens)';

function fail(message, argument) {
  throw Object.assign(new Error(message), { argument });
}

const describe = (value) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? `"${value.slice(0, 40)}"`
        : typeof value;

// The shape and the values (C order) of nested arrays of numbers, checked rectangular; `path`
// names the tensor in errors (attentions[2][0][5]).
function nestedTensor(value, path) {
  const shape = [];
  for (let level = value; Array.isArray(level); level = level[0]) {
    if (level.length === 0) fail(`${path} has an empty dimension: a tensor of attention needs tokens`, 'attentions');
    shape.push(level.length);
  }
  const data = new Float64Array(shape.reduce((a, b) => a * b, 1));
  let at = 0;
  const walk = (level, depth, where) => {
    if (depth === shape.length) {
      if (typeof level !== 'number') fail(`${where} is ${describe(level)}, not a number`, 'attentions');
      data[at++] = level;
      return;
    }
    if (!Array.isArray(level) || level.length !== shape[depth])
      fail(
        `${where} has ${Array.isArray(level) ? `${level.length} entries` : describe(level)} where ${path}'s shape [${shape.join(', ')}] needs ${shape[depth]}`,
        'attentions',
      );
    for (let i = 0; i < level.length; i++) walk(level[i], depth + 1, `${where}[${i}]`);
  };
  walk(value, 0, path);
  return { shape, data };
}

const isMatrix = (value) =>
  value !== null && typeof value === 'object' && Number.isInteger(value.rows) && value.data?.length !== undefined;

// [heads, rows, cols] of a layer given as its heads' matrices.
function stackedMatrices(heads, path) {
  const [{ rows, cols }] = heads;
  const data = new Float64Array(heads.length * rows * cols);
  heads.forEach((head, h) => {
    if (head.rows !== rows || head.cols !== cols || head.data.length !== rows * cols)
      fail(
        `${path}[${h}] is ${head.rows} × ${head.cols} with ${head.data.length} values where ${path}[0] is ${rows} × ${cols}`,
        'attentions',
      );
    data.set(head.data, h * rows * cols);
  });
  return { shape: [heads.length, rows, cols], data };
}

function tensorOf(value, path) {
  if (Array.isArray(value) && value.length > 0 && value.every(isMatrix)) return stackedMatrices(value, path);
  if (Array.isArray(value)) return nestedTensor(value, path);
  if (value && typeof value === 'object' && Array.isArray(value.shape) && value.data?.length !== undefined) {
    const count = value.shape.reduce((a, b) => a * b, 1);
    if (value.data.length !== count)
      fail(
        `${path} has ${value.data.length} values but its shape [${value.shape.join(', ')}] needs ${count}`,
        'attentions',
      );
    return value;
  }
  return fail(`${path} must be nested arrays of numbers or { shape, data }, got ${describe(value)}`, 'attentions');
}

// [heads, T, T] of one layer's tensor, its batch of one dropped.
function layerShape({ shape }, path) {
  if (shape.length === 4 && shape[0] === 1) return shape.slice(1);
  if (shape.length === 3) return shape;
  if (shape.length === 4)
    return fail(
      `${path} has a batch of ${shape[0]} (shape [${shape.join(', ')}]): the views draw one text; pass attentions[layer][i] of the text i`,
      'attentions',
    );
  return fail(
    `${path} has shape [${shape.join(', ')}] but needs 4 dimensions ${WHAT} or 3 (heads, tokens, tokens)`,
    'attentions',
  );
}

// The tensors of each layer from named tensors (a .npz or safetensors file), in layer order.
function namedLayers(named) {
  const names = Object.keys(named);
  if (names.length === 0) fail('attentions holds no tensors', 'attentions');
  if (named.attentions && names.length === 1) {
    const all = named.attentions;
    const { shape } = all;
    const inner =
      shape.length === 5 && shape[1] === 1
        ? [shape[2], shape[3], shape[4]]
        : shape.length === 4
          ? shape.slice(1)
          : null;
    if (!inner)
      fail(
        `attentions has shape [${shape.join(', ')}] but needs [layers, 1, heads, tokens, tokens] or [layers, heads, tokens, tokens]`,
        'attentions',
      );
    const size = inner[0] * inner[1] * inner[2];
    return Array.from({ length: shape[0] }, (_, l) => ({
      shape: inner,
      data: all.data.subarray(l * size, (l + 1) * size),
    }));
  }
  const layers = names.map((name) => Number(name.match(/^layer_(0|[1-9]\d*)$/)?.[1] ?? NaN));
  const stray = names.find((name, i) => Number.isNaN(layers[i]));
  if (stray !== undefined)
    fail(
      `attentions holds "${stray}": name the tensors layer_0, layer_1, … or give one tensor named attentions`,
      'attentions',
    );
  const count = names.length;
  const missing = Array.from({ length: count }, (_, l) => l).find((l) => !(`layer_${l}` in named));
  if (missing !== undefined) fail(`attentions holds ${count} layers but no layer_${missing}`, 'attentions');
  return Array.from({ length: count }, (_, l) => named[`layer_${l}`]);
}

/**
 * The attention to draw: { layers, heads, size, tokens, sentenceB, at(layer, head) } where at gives
 * one head's size × size weights (a view of the data given where it can). `attentions` is a list
 * per layer, one tensor of every layer, or a file's named tensors; `tokens` the T strings;
 * `sentenceB` the index where a second sentence starts (or undefined).
 */
export function readAttentions(attentions, tokens, sentenceB) {
  let layers;
  let paths;
  if (Array.isArray(attentions) || attentions?.shape) {
    const whole = Array.isArray(attentions) ? null : tensorOf(attentions, 'attentions');
    if (whole && whole.shape.length !== 5 && whole.shape.length !== 4)
      fail(
        `attentions has shape [${whole.shape.join(', ')}] but needs [layers, 1, heads, tokens, tokens] or a list per layer`,
        'attentions',
      );
    layers = whole
      ? namedLayers({ attentions: whole })
      : attentions.map((layer, l) => tensorOf(layer, `attentions[${l}]`));
    paths = layers.map((_, l) => `attentions[${l}]`);
  } else if (attentions && typeof attentions === 'object') {
    layers = namedLayers(attentions);
    paths = layers.map((_, l) => (attentions.attentions ? `attentions[${l}]` : `layer_${l}`));
  } else
    fail(`attentions must be a list per layer, a tensor or named tensors, got ${describe(attentions)}`, 'attentions');
  if (layers.length === 0) fail('attentions is empty: it needs a tensor per layer', 'attentions');

  const first = layerShape(layers[0], paths[0]);
  const [heads, rows, cols] = first;
  if (rows !== cols)
    fail(
      `${paths[0]} has shape [${layers[0].shape.join(', ')}] but needs ${WHAT}: as many queries as keys`,
      'attentions',
    );
  layers.forEach((layer, l) => {
    const shape = layerShape(layer, paths[l]);
    if (shape.some((d, i) => d !== first[i]))
      fail(
        `${paths[l]} has shape [${layer.shape.join(', ')}] but needs [1, ${first.join(', ')}] ${WHAT}, as ${paths[0]} has`,
        'attentions',
      );
  });

  if (!Array.isArray(tokens)) fail(`tokens must be an array of ${rows} strings, got ${describe(tokens)}`, 'tokens');
  if (tokens.length !== rows)
    fail(`tokens has ${tokens.length} entries but the attentions are over ${rows} tokens`, 'tokens');
  const stray = tokens.findIndex((token) => typeof token !== 'string');
  if (stray >= 0) fail(`tokens[${stray}] is ${describe(tokens[stray])}, not a string`, 'tokens');
  if (
    sentenceB !== undefined &&
    sentenceB !== null &&
    !(Number.isInteger(sentenceB) && sentenceB > 0 && sentenceB < rows)
  )
    fail(
      `sentenceB must be an index from 1 to ${rows - 1} (where the second sentence starts), got ${sentenceB}`,
      'sentenceB',
    );

  const size = rows * cols;
  return {
    layers: layers.length,
    heads,
    size: rows,
    tokens: [...tokens],
    sentenceB: sentenceB ?? null,
    at: (layer, head) => layers[layer].data.subarray(head * size, (head + 1) * size),
  };
}

/** The sentence pairs a view may show: all, or the queries of one sentence against the keys of one. */
export const SENTENCE_FILTERS = ['all', 'aa', 'ab', 'ba', 'bb'];

// The token range [from, to) of sentence `which` ('a' or 'b').
const range = (which, { size, sentenceB }) => (which === 'a' ? [0, sentenceB] : [sentenceB, size]);

/**
 * The panels of `layer`'s heads (every layer's when `layer` is null) as the views draw them,
 * named "attention-<layer>-<head>" (from 0), queries × keys of `filter` (SENTENCE_FILTERS).
 */
export function attentionPanels(attention, layer, filter = 'all') {
  const pair = filter === 'all' || attention.sentenceB === null ? null : [...filter];
  const [rowFrom, rowTo] = pair ? range(pair[0], attention) : [0, attention.size];
  const [colFrom, colTo] = pair ? range(pair[1], attention) : [0, attention.size];
  const rows = rowTo - rowFrom;
  const cols = colTo - colFrom;
  const panels = [];
  const chosen = layer === null ? Array.from({ length: attention.layers }, (_, l) => l) : [layer];
  for (const l of chosen)
    for (let h = 0; h < attention.heads; h++) {
      const all = attention.at(l, h);
      const data = pair ? new Float64Array(rows * cols) : all;
      if (pair)
        for (let i = 0; i < rows; i++)
          data.set(
            all.subarray((rowFrom + i) * attention.size + colFrom, (rowFrom + i) * attention.size + colTo),
            i * cols,
          );
      panels.push({
        name: `attention-${l}-${h}`,
        rows,
        cols,
        data,
        rowLabels: attention.tokens.slice(rowFrom, rowTo),
        colLabels: attention.tokens.slice(colFrom, colTo),
        palette: 'weights',
      });
    }
  return panels;
}
