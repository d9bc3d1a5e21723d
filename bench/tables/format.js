// What the benchmark tables share (scripts/bench-tables.js makes them, one module here for each
// file of bench/results/): number formats, the machine a result was measured on, and its source.
export { markdownTable } from '../../scripts/generated-blocks.js';

export const fixed = (digits) => (x) => (x == null ? '–' : x.toFixed(digits));
export const times = (digits) => (x) => (x == null ? '–' : `${x.toFixed(digits)}×`);
export const percent = (x) => `${(x * 100).toFixed(1)}%`;
export const day = (date) => date.slice(0, 10);
export const machine = ({ cpu, cores, node, date }) => `${cpu}, ${cores} cores, Node ${node.slice(1)}, ${day(date)}`;
export const source = (file, what) => `From \`bench/results/${file}\` (${what}).\n\n`;
