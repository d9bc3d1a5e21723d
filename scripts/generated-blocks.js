// The docs' generated blocks: text between `<!-- begin NAME … -->` and `<!-- end NAME -->` lines
// in README.md and docs/*.md, which a script writes (scripts/sizes.js, scripts/bench-tables.js)
// and a test compares with what the script makes (tests/js/docs.test.js).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

/** README.md and every page under docs/, relative to the repository's root */
export const docFiles = () => [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const block = /^<!-- begin ([\w-]+)\b[^>]*-->\n([\s\S]*?)^<!-- end \1 -->$/gm;

/** the generated blocks of a text, by name: { name: content } (content ends with a newline) */
export function readBlocks(text) {
  return Object.fromEntries([...text.matchAll(block)].map(([, name, content]) => [name, content]));
}

/** every generated block of the docs, by name: { name: { file, content } } */
export function docBlocks() {
  const found = {};
  for (const file of docFiles())
    for (const [name, content] of Object.entries(readBlocks(readFileSync(join(root, file), 'utf8')))) {
      if (found[name]) throw new Error(`block ${name} is in both ${found[name].file} and ${file}`);
      found[name] = { file, content };
    }
  return found;
}

/** rewrites the blocks named in `contents` wherever the docs hold them; throws for a block no doc holds */
export function writeBlocks(contents) {
  const written = new Set();
  for (const file of docFiles()) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const next = text.replace(block, (whole, name) => {
      if (!(name in contents)) return whole;
      written.add(name);
      const [begin] = whole.split('\n', 1);
      return `${begin}\n${contents[name]}<!-- end ${name} -->`;
    });
    if (next !== text) {
      writeFileSync(path, next);
      console.log(`wrote ${file}`);
    }
  }
  const missing = Object.keys(contents).filter((name) => !written.has(name));
  if (missing.length) throw new Error(`no doc holds the blocks ${missing.join(', ')}`);
}

/** a Markdown table; every row's cells already text */
export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n') + '\n';
}
