// The docs' generated figures stay true: the package's size table (docs/package.md) within 2% of
// what scripts/sizes.js measures in the built dist/, every benchmark table exactly what
// scripts/bench-tables.js makes from the committed bench/results/*.json (no benchmark runs here),
// and the API reference (docs/reference/) exactly what scripts/api-reference.js makes of the types
// (TypeDoc, no build needed). Every link between the docs leads to a file and a heading.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { generated, readTree, referenceDir } from '../../scripts/api-reference.js';
import { benchTables } from '../../scripts/bench-tables.js';
import { docBlocks, docFiles, root } from '../../scripts/generated-blocks.js';
import { measure } from '../../scripts/sizes.js';

const fix = (script) => `run \`node scripts/${script} --write\` and commit the docs`;

test('the size table holds what scripts/sizes.js measures in dist/, within 2%', () => {
  const block = docBlocks().sizes;
  assert.ok(block, 'a doc holds the `sizes` block');
  const rows = block.content
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => line.slice(2, -2).split(' | '));
  const measured = measure();
  assert.deepEqual(
    rows.map(([entry]) => entry),
    measured.map(({ entry }) => entry),
    `the table's entries are the script's: ${fix('sizes.js')}`,
  );
  const kilobytes = (cell) => {
    const match = /^(\d+\.\d) KB$/.exec(cell);
    assert.ok(match, `a size in KB: ${cell}`);
    return Number(match[1]) * 1024;
  };
  for (const [i, [entry, gzip, raw]] of rows.entries())
    for (const [column, shown, bytes] of [
      ['gzip', gzip, measured[i].gzip],
      ['raw', raw, measured[i].raw],
    ]) {
      // 2%, or the table's rounding to 0.1 KB for a file too small for 2% to reach it
      const off = Math.abs(kilobytes(shown) - bytes);
      assert.ok(
        off <= Math.max(0.02 * bytes, 0.05 * 1024),
        `${entry}, ${column}: the table says ${shown}, the build measures ${(bytes / 1024).toFixed(1)} KB (${((off / bytes) * 100).toFixed(1)}% off): ${fix('sizes.js')}`,
      );
    }
});

test('every benchmark table is what scripts/bench-tables.js makes of bench/results/', () => {
  const blocks = docBlocks();
  for (const [name, table] of Object.entries(benchTables())) {
    assert.ok(blocks[name], `a doc holds the \`${name}\` block`);
    assert.equal(blocks[name].content, table, `${name} in ${blocks[name].file}: ${fix('bench-tables.js')}`);
  }
});

test('the API reference is what scripts/api-reference.js makes of the types', async () => {
  const made = await generated();
  const committed = readTree(referenceDir);
  const fix = 'run `npm run docs` and commit docs/reference/';
  assert.deepEqual(Object.keys(committed), Object.keys(made), `the reference's files: ${fix}`);
  for (const [path, text] of Object.entries(made))
    assert.equal(committed[path], text, `docs/reference/${path} is stale: ${fix}`);
});

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, a repeated
// one numbered (-1, -2, …); and the ids of <a id="…"> anchors (the reference's table rows)
const anchors = (text) => {
  const found = new Set([...text.matchAll(/<a id="([^"]+)"/g)].map(([, id]) => id));
  const seen = new Map();
  for (const [, heading] of text.matchAll(/^#+ (.*)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count ? `${slug}-${count}` : slug);
  }
  return found;
};

test("the docs' links to files of the repository and their headings lead somewhere", () => {
  const reference = Object.keys(readTree(referenceDir)).map((path) => `docs/reference/${path}`);
  for (const file of [...docFiles(), ...reference]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, target, anchor] of text.matchAll(/\]\(([^)\s#]*)(?:#([^)\s]*))?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const path = target ? join(root, file, '..', target) : join(root, file);
      assert.ok(existsSync(path), `${file} links to ${target}, which does not exist`);
      if (anchor && path.endsWith('.md'))
        assert.ok(
          anchors(readFileSync(path, 'utf8')).has(anchor),
          `${file} links to ${target}#${anchor}, no such heading`,
        );
    }
  }
});
