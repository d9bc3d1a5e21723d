// Helpers of the model kinds' tests (transformer.test.js, captioner.test.js, the recipe's).
import assert from 'node:assert/strict';

/** The `argument` of the Error `f` throws, or '(no error)'. */
export function argumentOf(f) {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof Error, String(error));
    return error.argument;
  }
  return '(no error)';
}

/**
 * A safetensors file's metadata, and with `metadata` given, its bytes with that metadata instead
 * (the same tensors): { format: 'pt' } is a PyTorch state_dict as safetensors saves one.
 */
export function stateDict(bytes, metadata) {
  const length = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
  if (metadata === undefined) return { metadata: header.__metadata__ };
  const text = new TextEncoder().encode(JSON.stringify({ ...header, __metadata__: metadata }));
  const out = new Uint8Array(8 + text.length + bytes.length - 8 - length);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  out.set(bytes.subarray(8 + length), 8 + text.length);
  return { metadata, bytes: out };
}

/** The central difference of loss() in one parameter value of a float64 model, restored after. */
export function finiteDifference(model, name, index, loss, h = 1e-6) {
  const parameters = model.parameters();
  const at = (delta) => {
    const data = parameters[name].data.slice();
    data[index] += delta;
    model.setParameters({ ...parameters, [name]: { shape: parameters[name].shape, data } });
    return loss();
  };
  const numeric = (at(h) - at(-h)) / (2 * h);
  model.setParameters(parameters);
  return numeric;
}

/**
 * A safetensors file as another program writes it (no metadata): an 8-byte header length, the
 * JSON header, the tensors' float32 data; `tensors` [[name, shape, Float32Array]].
 */
export function writeStateDict(tensors) {
  let offset = 0;
  const header = {};
  for (const [name, shape, data] of tensors) {
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + data.byteLength] };
    offset += data.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const bytes = new Uint8Array(8 + json.length + offset);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
  bytes.set(new TextEncoder().encode(json), 8);
  let at = 8 + json.length;
  for (const [, , data] of tensors) {
    bytes.set(new Uint8Array(data.buffer), at);
    at += data.byteLength;
  }
  return bytes;
}
