// The core's dependency rule (docs/architecture.md): walkthroughs → models → training, tasks, files
// → nn → core, and numerics → core. A folder of cpp/src/ includes internal headers only from itself
// and the folders it may depend on; public headers include only public headers.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const MAY_INCLUDE = {
  core: [],
  numerics: ['core'],
  files: ['core'],
  nn: ['core'],
  tasks: ['core'],
  training: ['nn', 'core'],
  models: ['training', 'tasks', 'files', 'nn', 'core'],
  walkthroughs: ['models', 'training', 'tasks', 'files', 'nn', 'numerics', 'core'],
};

const sources = (folder) =>
  readdirSync(new URL(folder, root), { recursive: true })
    .filter((file) => /\.(cpp|hpp)$/.test(file))
    .map((file) => `${folder}/${file}`);
const includes = (file) =>
  [...readFileSync(new URL(file, root), 'utf8').matchAll(/^#include "([^"]+)"/gm)].map((match) => match[1]);

test('cpp/src/ has the folders the rule names, and no source outside them', () => {
  const entries = readdirSync(new URL('cpp/src', root), { withFileTypes: true });
  assert.deepEqual(
    entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name),
    [],
  );
  assert.deepEqual(entries.map((entry) => entry.name).sort(), Object.keys(MAY_INCLUDE).sort());
});

test('no include runs back up the dependency rule', () => {
  const broken = [];
  for (const [folder, allowed] of Object.entries(MAY_INCLUDE))
    for (const file of sources(`cpp/src/${folder}`))
      for (const header of includes(file)) {
        const [first, ...rest] = header.split('/');
        if (!rest.length || first === 'attention' || first === folder) continue; // public, or its own
        if (!allowed.includes(first)) broken.push(`${file} includes ${header}`);
      }
  assert.deepEqual(broken, []);
});

test('public headers include only public headers', () => {
  // (and model_kinds.hpp the test build's own kinds, tests/kinds/, under ATTENTION_TEST_KINDS)
  const isPublic = (file, header) =>
    [new URL(header, new URL(file, root)), new URL(`cpp/include/${header}`, root)].some(
      (url) => existsSync(url) && url.pathname.startsWith(new URL('cpp/include/attention/', root).pathname),
    ) ||
    (file.endsWith('/model_kinds.hpp') && existsSync(new URL(`tests/kinds/${header}`, root)));
  const internal = sources('cpp/include/attention').flatMap((file) =>
    includes(file)
      .filter((header) => !isPublic(file, header))
      .map((header) => `${file} includes ${header}`),
  );
  assert.deepEqual(internal, []);
});

test('the binding includes only public headers and its own conversions', () => {
  // its own: convert.hpp; models.hpp, what the model kinds' files share; translation.hpp, what the
  // translation models' files share; text_tasks.hpp, what the tasks from the reader's text share
  const internal = sources('cpp/bindings').flatMap((file) =>
    includes(file)
      .filter(
        (header) =>
          !header.startsWith('attention/') &&
          !['convert.hpp', 'models.hpp', 'translation.hpp', 'text_tasks.hpp'].includes(header),
      )
      .map((header) => `${file} includes ${header}`),
  );
  assert.deepEqual(internal, []);
});
