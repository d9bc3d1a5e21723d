// Tensor files read: .npy and safetensors by the engine's reader, .npz by opening its zip here
// (tensors.js) and handing each member to that reader.
import { describe, fail } from './checks.js';
import { isZip, unzipNpz } from './tensors.js';

/** readTensors(bytes) over `module`. */
export function filesApi(module) {
  return {
    readTensors(bytes) {
      if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
      if (!(bytes instanceof Uint8Array))
        fail(`bytes must be a Uint8Array or an ArrayBuffer, got ${describe(bytes)}`, 'bytes');
      // a .npy's one array is arr_0, as np.savez names an array given without a name
      const zip = isZip(bytes);
      const out = {};
      for (const [name, member] of zip ? unzipNpz(bytes) : [['arr_0', bytes]]) {
        const read = module.readTensors(member, name);
        if (read instanceof Error) {
          if (zip) read.message = `member ${name}.npy: ${read.message}`;
          throw read;
        }
        for (const { name: key, ...tensor } of read) out[key] = tensor;
      }
      return out;
    },
  };
}
