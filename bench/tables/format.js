// What the benchmark tables share (scripts/bench-tables.js makes them, one module here for each
// file of bench/results/): number formats, the machine a result was measured on, and its source.
export { markdownTable } from '../../scripts/generated-blocks.js';

export const fixed = (digits) => (x) => (x == null ? '–' : x.toFixed(digits));
export const times = (digits) => (x) => (x == null ? '–' : `${x.toFixed(digits)}×`);
export const percent = (x) => `${(x * 100).toFixed(1)}%`;
export const day = (date) => date.slice(0, 10);
// the machine, and where PyTorch ran the file's PyTorch columns: the OpenBLAS kernels it chose
// (bench/common.js runs it without this machine's OpenBLAS override, as its users run it)
export const machine = ({ cpu, cores, node, date }, pytorch) =>
  `${cpu}, ${cores} cores, Node ${node.slice(1)}, ${day(date)}` +
  (pytorch?.openblasCore ? `; PyTorch on OpenBLAS's ${pytorch.openblasCore} kernels, one thread` : '');
/** Where and when section `name` of a results file ran (its `ran`, else the file's machine); with PyTorch's kernels where its table has PyTorch columns. */
export const ranOn = (json, name, { pytorch = false } = {}) => {
  const ran = json.ran?.[name] ?? { machine: json.machine, pytorch: json.pytorch };
  return machine(ran.machine, pytorch ? ran.pytorch : undefined);
};
export const source = (file, what) => `From \`bench/results/${file}\` (${what}).\n\n`;
