// Which code may use which, as docs/architecture.md says, held here so it cannot break silently:
// the C++ core's folder rule (a folder includes only from folders to its right in the rule's
// chains; public headers belong to the folder whose row lists them), and in web/ no import cycle
// (static or dynamic) and no folder importing a folder above it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '../..');
const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

function filesUnder(folder, pattern) {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

// The rule's chains, "`walkthroughs → models → training, tasks, files → nn → core`, and `numerics → core`":
// each folder may include from itself and from every folder after it in a chain it is in.
function allowedIncludes() {
  const rule = architecture.match(/\*\*The dependency rule\.\*\*([^]*?)a folder includes/)[1];
  const chains = [...rule.matchAll(/`([^`]+)`/g)].map(([, chain]) =>
    chain.split('→').map((step) => step.split(',').map((name) => name.trim())),
  );
  const allowed = new Map();
  for (const chain of chains)
    chain.forEach((step, at) => {
      const below = chain.slice(at + 1).flat();
      for (const folder of step) allowed.set(folder, new Set([folder, ...(allowed.get(folder) ?? []), ...below]));
    });
  return allowed;
}

// The folder of each public header, from the third column of the core's table
// ("| `core/` | … | `types.hpp`, `errors.hpp` … |"); detail/ holds the core's kernels.
function publicHeaderFolders() {
  const folders = new Map();
  for (const [, folder, headers] of architecture.matchAll(/^\| `(\w+)\/` \|[^\n]*\| ([^|\n]*) \|$/gm))
    for (const [, header] of headers.matchAll(/`([\w/]+\.hpp)`/g))
      folders.set(`cpp/include/attention/${header}`, folder);
  for (const header of filesUnder('cpp/include/attention/detail', /\.hpp$/)) folders.set(header, 'core');
  return folders;
}

test('the C++ core keeps the dependency rule of docs/architecture.md', () => {
  const allowed = allowedIncludes();
  assert.deepEqual(
    [...allowed.keys()].sort(),
    ['core', 'files', 'models', 'nn', 'numerics', 'tasks', 'training', 'walkthroughs'],
    'the rule names every folder of cpp/src/',
  );
  const headerFolders = publicHeaderFolders();
  const publicHeaders = filesUnder('cpp/include/attention', /\.hpp$/);
  const unlisted = publicHeaders.filter((header) => !headerFolders.has(header));
  assert.deepEqual(unlisted, [], "every public header is in one folder's row of the core's table");
  const folderOf = (file) =>
    file.startsWith('cpp/include/') ? headerFolders.get(file) : file.match(/^cpp\/src\/(\w+)\//)?.[1];
  const broken = [];
  for (const [file, targets] of includes())
    for (const target of targets) {
      // the test build's own kinds (tests/kinds/) are model_kinds.hpp's, under ATTENTION_TEST_KINDS
      if (target.startsWith('tests/kinds/') && file === 'cpp/include/attention/model_kinds.hpp') continue;
      const [from, to] = [folderOf(file), folderOf(target)];
      if (!allowed.get(from).has(to)) broken.push(`${file} (${from}) includes ${target} (${to})`);
    }
  assert.deepEqual(broken, []);
});

// Each file of the core (its public headers and cpp/src/) and what it includes, found where the
// compiler finds it: beside it, in cpp/include/, in cpp/src/, or (model_kinds.hpp's test kinds) in
// tests/kinds/.
function includes() {
  const found = new Map();
  for (const file of [...filesUnder('cpp/include/attention', /\.hpp$/), ...filesUnder('cpp/src', /\.(hpp|cpp)$/)]) {
    const targets = [];
    for (const [, name] of readFileSync(join(root, file), 'utf8').matchAll(/^#include "([^"]+)"/gm)) {
      const target = [dirname(file), 'cpp/include', 'cpp/src', 'tests/kinds']
        .map((folder) => join(folder, name))
        .find((path) => existsSync(join(root, path)));
      assert.ok(target, `${file} includes "${name}", which is in none of its include folders`);
      targets.push(target);
    }
    found.set(file, targets);
  }
  return found;
}

test("the tests' engine compiles again every source whose code the list of kinds changes", () => {
  const graph = includes();
  const reaches = (file, seen = new Set()) =>
    file === 'cpp/include/attention/model_kinds.hpp' ||
    (graph.get(file) ?? []).some((target) => !seen.has(target) && (seen.add(target), reaches(target, seen)));
  const dependent = filesUnder('cpp/src', /\.cpp$/).filter((file) => reaches(file));
  const listed = readFileSync(join(root, 'CMakeLists.txt'), 'utf8')
    .match(/set\(KIND_LIST_SOURCES([^)]*)\)/)[1]
    .trim()
    .split(/\s+/);
  assert.ok(dependent.includes('cpp/src/models/store.cpp'));
  assert.deepEqual(listed.sort(), dependent.sort(), "CMakeLists.txt's KIND_LIST_SOURCES");
});

// web/'s modules and what each imports: static imports and re-exports, and import('…') with a
// literal path; the package's own name is its entry, web/engine/index.js.
function webImports() {
  const imports = new Map();
  for (const file of filesUnder('web', /\.js$/).filter((file) => !file.endsWith('vite.config.js'))) {
    const source = readFileSync(join(root, file), 'utf8');
    const names = [
      ...source.matchAll(/^\s*(?:import|export)\s[^'"]*?\sfrom\s+'([^']+)'/gm),
      ...source.matchAll(/^\s*import\s+'([^']+)'/gm),
      ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ].map(([, name]) => name);
    const targets = names
      .map((name) =>
        name === 'attention-stepper'
          ? 'web/engine/index.js'
          : name.startsWith('.')
            ? relative(root, resolve(root, dirname(file), name))
            : null,
      )
      .filter((target) => target?.endsWith('.js') && target.startsWith('web/'));
    imports.set(file, targets);
  }
  return imports;
}

test('no import cycle in web/', () => {
  const imports = webImports();
  assert.ok(imports.get('web/components/controller.js').includes('web/components/model-panel-slot.js'));
  assert.ok(
    imports.get('web/components/model-panel-slot.js').includes('web/components/model-panel.js'),
    'dynamic imports count',
  );
  const cycles = [];
  const state = new Map(); // file -> 'open' while on the path, 'done' after
  const visit = (file, path) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of imports.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

test("web/'s folders import only those below them: locales ← walkthroughs ← components ← app", () => {
  // what each folder may import besides itself
  const below = {
    engine: [],
    locales: [],
    models: ['engine'],
    walkthroughs: ['locales', 'engine'],
    components: ['walkthroughs', 'locales', 'engine', 'models'],
    app: ['components', 'walkthroughs', 'locales', 'engine'],
  };
  const folder = (file) => file.split('/')[1];
  const broken = [];
  for (const [file, targets] of webImports())
    for (const target of targets)
      if (folder(target) !== folder(file) && !below[folder(file)]?.includes(folder(target)))
        broken.push(`${file} imports ${target}`);
  assert.deepEqual(broken, []);
});
