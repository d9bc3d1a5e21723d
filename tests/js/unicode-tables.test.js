// The tokenizer's committed Unicode tables are what scripts/unicode-tables.js makes from this Node's
// Unicode data; a Node of another Unicode version makes other tables, so the check is skipped there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { tablesFile, unicodeTablesSource, unicodeVersionOf } from '../../scripts/unicode-tables.js';

test(`${tablesFile} is what scripts/unicode-tables.js makes`, (t) => {
  const committed = readFileSync(new URL(`../../${tablesFile}`, import.meta.url), 'utf8');
  const version = unicodeVersionOf(committed);
  if (version !== process.versions.unicode) {
    t.skip(`the tables are from Unicode ${version}, this Node has Unicode ${process.versions.unicode}`);
    return;
  }
  assert.equal(
    unicodeTablesSource(),
    committed,
    `${tablesFile} differs: run \`node scripts/unicode-tables.js --write\` and commit it`,
  );
});
