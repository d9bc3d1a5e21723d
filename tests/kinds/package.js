// The tests' sources (node tests/kinds/package.js <folder>): web/ copied into <folder> with the
// test build's own kinds added as docs/architecture.md's recipe adds a kind: each kind's own files
// put in place (its engine file, its walkthrough's spec and texts, its words in the locale files),
// and the one edit outside them, its entry in web/engine/kinds.js. (The other edit, its session
// in model_kinds.hpp, is the C++ build's: ATTENTION_TEST_KINDS.) scripts/build.sh then packages
// the engine and builds the page from <folder>, into build/test-kinds/dist/.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = (file) => join(root, 'tests/kinds', file);
const [out] = process.argv.slice(2);
if (!out) throw new Error('usage: node tests/kinds/package.js <folder>');
const web = join(root, out);

// each kind of the tests: its name, its entry's export, and its files
const KINDS = [
  { name: 'toy', entry: 'toyKind', engine: 'toy.js', types: 'toy-types.d.ts', spec: 'toy-spec.js', walkthrough: 'toy' },
  {
    name: 'frozen',
    entry: 'frozenKind',
    engine: 'frozen.js',
    types: 'frozen-types.d.ts',
    spec: 'frozen-spec.js',
    walkthrough: 'frozen',
  },
];

/** `into` with `from`'s entries added, objects merged key by key. */
const merged = (into, from) =>
  Object.fromEntries(
    [...new Set([...Object.keys(into), ...Object.keys(from)])].map((key) => [
      key,
      typeof into[key] === 'object' && typeof from[key] === 'object'
        ? merged(into[key], from[key])
        : (from[key] ?? into[key]),
    ]),
  );
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** `text` with `line` inserted after the one line `anchor` matches (else an Error: the recipe no longer fits). */
function after(text, anchor, line, file) {
  const lines = text.split('\n');
  const found = lines.flatMap((l, i) => (anchor.test(l) ? [i] : []));
  if (found.length === 0) throw new Error(`${file}: no line matches ${anchor}, where the recipe adds a kind`);
  lines.splice(found.at(-1) + 1, 0, line);
  return lines.join('\n');
}

rmSync(web, { recursive: true, force: true });
cpSync(join(root, 'web'), web, { recursive: true });
// the kinds' words: each walkthrough's texts (texts.<walkthrough>), and their entries of ui.json
// and walkthroughs.json, by language
for (const lang of ['en', 'zh']) {
  const words = readJson(here(`locales/${lang}.json`));
  for (const [walkthrough, texts] of Object.entries(words.texts))
    writeJson(join(web, `locales/${lang}/walkthroughs/${walkthrough}.json`), texts);
  for (const file of ['ui', 'walkthroughs']) {
    const path = join(web, `locales/${lang}/${file}.json`);
    writeJson(path, merged(readJson(path), words[file]));
  }
}
const kinds = join(web, 'engine/kinds.js');
let table = readFileSync(kinds, 'utf8');
for (const kind of KINDS) {
  cpSync(here(kind.engine), join(web, 'engine', kind.engine));
  cpSync(here(kind.types), join(web, 'engine', kind.types));
  cpSync(here(kind.spec), join(web, 'walkthroughs/trained', `${kind.walkthrough}.js`));
  // the recipe's edit: the kind's entry in KINDS, and its import
  table = after(
    table,
    /^import \{ \w+Kind \} from '\.\/[\w-]+\.js';$/,
    `import { ${kind.entry} } from './${kind.engine}';`,
    kinds,
  );
  table = after(table, /^ {2}\w+: \w+Kind,$/, `  ${kind.name}: ${kind.entry},`, kinds);
}
writeFileSync(kinds, table);
