// Writes the shipped models (web/models/*.safetensors) and the table they were chosen from
// (web/models/selection.json) from scratch: node scripts/make-models.js (after `npm run build`),
// or `node scripts/make-models.js <kind>` for the models of one kind (the others' files and
// records stay). See web/models/shipped.js for how each kind's are made and chosen (RECIPES).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { loadAttention } from '../dist/engine/index.node.js';
import { modelFile, RECIPES, SHIPPED_MODELS } from '../web/models/shipped.js';

const attn = await loadAttention({ models: true });
const only = process.argv[2];
const table = new URL('../web/models/selection.json', import.meta.url);
const previous = existsSync(table) ? JSON.parse(readFileSync(table, 'utf8')) : {};
const remade = (kind) => !only || kind === only;
const selection = {
  ...Object.assign({}, ...Object.values(RECIPES).map(({ header }) => header)),
  // each kind's records: the previous ones of the kinds not made again
  ...Object.fromEntries(
    Object.entries(RECIPES).map(([kind, { table, one }]) => [
      table,
      remade(kind) ? (one ? undefined : []) : (previous[table] ?? (one ? undefined : [])),
    ]),
  ),
};
for (const entry of SHIPPED_MODELS.filter(({ kind }) => remade(kind))) {
  const started = performance.now();
  const file = modelFile(entry);
  const recipe = RECIPES[entry.kind];
  const { bytes, record, summary } = recipe.make(attn, entry, (line) => console.log(`${file} ${line}`));
  writeFileSync(new URL(`../web/models/${file}`, import.meta.url), bytes);
  if (recipe.one) selection[recipe.table] = { file, ...record };
  else selection[recipe.table].push({ file, ...record });
  console.log(`${file}: ${summary}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
writeFileSync(table, `${JSON.stringify(selection, null, 1)}\n`);
