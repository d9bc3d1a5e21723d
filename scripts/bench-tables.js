// The docs' benchmark tables, made from the committed results in bench/results/ (no benchmark
// runs): `node scripts/bench-tables.js` prints them, `--write` writes them into the docs' blocks of
// the same names (docs/benchmarks.md); tests/js/docs.test.js checks that the docs hold them as made.
// Each file bench/results/<name>.json is tabulated by bench/tables/<name>.js.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { root, writeBlocks } from './generated-blocks.js';

const names = readdirSync(join(root, 'bench/results'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length));
const tabulators = await Promise.all(
  names.map(async (name) => [name, (await import(pathToFileURL(join(root, 'bench/tables', `${name}.js`)))).default]),
);

/** every table, by the name of its block in the docs */
export const benchTables = () =>
  Object.assign(
    {},
    ...tabulators.map(([name, tables]) =>
      tables(JSON.parse(readFileSync(join(root, 'bench/results', `${name}.json`), 'utf8'))),
    ),
  );

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const tables = benchTables();
  if (process.argv.includes('--write')) writeBlocks(tables);
  else for (const [name, table] of Object.entries(tables)) console.log(`${name}:\n${table}`);
}
