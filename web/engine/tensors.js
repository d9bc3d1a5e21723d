// numpy's files in JavaScript: the .npz container (a zip of .npy members, opened and made with
// fflate) and the .npy writer. The .npy and safetensors readers are the core's (tensor_files.hpp);
// engine.js hands them each member this file unpacks.
import { unzipSync, zipSync } from 'fflate';

/** The most a .npz may unpack to, all members together (a zip bomb stops here, before inflating). */
export const MAX_NPZ_BYTES = 2 ** 28;
const MAX_NPZ_MEMBERS = 10000;

const badBytes = (message) =>
  Object.assign(new Error(`bytes are not a .npz file numpy can read: ${message}`), { argument: 'bytes' });

/** Whether `bytes` start as a zip file does (a .npz; an empty one is its end record alone). */
export function isZip(bytes) {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

/** The members of a .npz as [name without ".npy", bytes], in the archive's order. */
export function unzipNpz(bytes) {
  let total = 0;
  let count = 0;
  let members;
  try {
    members = unzipSync(bytes, {
      filter(file) {
        if (++count > MAX_NPZ_MEMBERS) throw badBytes(`it has more than ${MAX_NPZ_MEMBERS} members`);
        if (!file.name.endsWith('.npy')) throw badBytes(`its member "${file.name.slice(0, 80)}" is not a .npy file`);
        if (file.compression !== 0 && file.compression !== 8)
          throw badBytes(
            `its member "${file.name.slice(0, 80)}" uses zip compression method ${file.compression}, not stored or deflated`,
          );
        // fflate inflates each member into a buffer of its declared size and never beyond it
        total += file.originalSize;
        if (total > MAX_NPZ_BYTES)
          throw badBytes(
            `it would unpack to more than ${MAX_NPZ_BYTES / 2 ** 20} MiB (${file.name.slice(0, 80)} and before)`,
          );
        return true;
      },
    });
  } catch (error) {
    if (error.argument) throw error;
    throw badBytes(`its zip container is corrupt or cut short (${error.message})`);
  }
  const entries = Object.entries(members);
  if (entries.length === 0) throw badBytes('it holds no arrays');
  return entries.map(([name, data]) => [name.slice(0, -'.npy'.length), data]);
}

// Python's repr() of a shape tuple: (), (3,), (2, 3)
const shapeRepr = (shape) => (shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`);

function checkTensor(tensor, name) {
  const fail = (message) => {
    throw Object.assign(new TypeError(`${name} ${message}`), { argument: name.split(/[.[]/)[0] });
  };
  if (tensor === null || typeof tensor !== 'object') fail(`must be { shape, data } or { rows, cols, data }`);
  const shape = tensor.shape ?? [tensor.rows, tensor.cols];
  if (!Array.isArray(shape) || shape.length > 32 || !shape.every((d) => Number.isInteger(d) && d >= 0))
    fail('needs a shape of at most 32 non-negative integers (or rows and cols)');
  const { data } = tensor;
  const count = shape.reduce((a, b) => a * b, 1);
  if (data == null || typeof data.length !== 'number' || data.length !== count)
    fail(`has ${data?.length ?? 'no'} values but its shape [${shape.join(', ')}] needs ${count}`);
  return { shape, data };
}

/**
 * A .npy file of `tensor` ({ shape, data } or { rows, cols, data }, values in C order) as float64:
 * the bytes np.save writes for the same float64 array.
 */
export function writeNpy(tensor, name = 'tensor') {
  const { shape, data } = checkTensor(tensor, name);
  // format 1.0 (a header under 64 KiB, as any 32-dimensional shape's is); numpy pads it so that
  // the data starts 64-byte aligned, always with at least one space
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': ${shapeRepr(shape)}, }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const out = new Uint8Array(10 + header.length + data.length * 8);
  const view = new DataView(out.buffer);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  view.setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  for (let i = 0; i < data.length; i++) view.setFloat64(10 + header.length + 8 * i, data[i], true);
  return out;
}

/** A .npz file (deflated, as np.savez_compressed writes) of named tensors, each stored as float64. */
export function writeNpz(tensors) {
  if (tensors === null || typeof tensors !== 'object')
    throw Object.assign(new TypeError('tensors must be an object of named tensors'), { argument: 'tensors' });
  const members = {};
  for (const [name, tensor] of Object.entries(tensors)) members[`${name}.npy`] = writeNpy(tensor, `tensors.${name}`);
  return zipSync(members, { level: 6 });
}
