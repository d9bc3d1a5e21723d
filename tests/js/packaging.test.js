// The packaging rules that a change could quietly break: build output stays in build/ and dist/
// (the sources hold none, and .gitignore hides none among them), the components reach the engine
// only through its public entry, and every path package.json publishes exists after the build.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { build } from 'esbuild';

import { hasModels, WALKTHROUGHS } from '../../web/walkthroughs/index.js';
import { root } from '../pack.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundle = join(root, 'dist/components/attention-stepper.js');

test('.gitignore is plain: no negations, nothing among the sources', () => {
  const rules = readFileSync(join(root, '.gitignore'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  assert.deepEqual(
    rules.filter((rule) => rule.startsWith('!') || /^\/?(web|cpp)\//.test(rule)),
    [],
  );
});

test('after the build, web/ and cpp/ hold no generated file, ignored or not', () => {
  const status = execFileSync('git', ['status', '--porcelain', '--ignored', '--untracked-files=all', 'web', 'cpp'], {
    cwd: root,
    encoding: 'utf8',
  });
  const lines = status.split('\n').filter(Boolean);
  assert.deepEqual(
    lines.filter((line) => line.startsWith('!!')),
    [],
    'ignored files among the sources: build output belongs in build/ or dist/',
  );
  // A new source file not yet added is untracked too; a file named as a build output is not one.
  const outputs = new Set(
    ['build/wasm/engine', 'build/wasm/engine/node', 'dist/engine', 'dist/engine/wasm', 'dist/engine/wasm/node']
      .filter((folder) => existsSync(join(root, folder)))
      .flatMap((folder) => readdirSync(join(root, folder))),
  );
  assert.deepEqual(
    lines.filter((line) => line.startsWith('??') && outputs.has(basename(line.slice(3)))),
    [],
    'build output among the sources (left from an older layout? delete it: it now lives in dist/)',
  );
});

// every import of a built module (static, re-export, dynamic), as written, without following it:
// esbuild parses the module and lists them
async function importsOf(file) {
  const { metafile } = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'list-imports',
        setup: (b) =>
          b.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
          ),
      },
    ],
  });
  return Object.values(metafile.inputs).flatMap((input) => input.imports.map(({ path, kind }) => ({ path, kind })));
}

test("the components bundle imports the engine only through its public entry, and KaTeX, the other languages, the model panel, each walkthrough of trained models' spec and each walkthrough's texts as their own chunks", async () => {
  const texts = ['en', 'zh'].flatMap((lang) => WALKTHROUGHS.map((name) => `./texts-${lang}-${name}.js`));
  const specs = WALKTHROUGHS.filter(hasModels).map((name) => `./walkthrough-${name}.js`);
  const imports = await importsOf(bundle);
  assert.deepEqual(
    imports.filter(({ path }) => !texts.includes(path) && !specs.includes(path)),
    [
      { path: '../engine/index.js', kind: 'import-statement' },
      // the Chinese words, the model panel and KaTeX, when first wanted: beside the bundle, where
      // the package ships them
      { path: './locale-zh.js', kind: 'dynamic-import' },
      { path: './model-panel.js', kind: 'dynamic-import' },
      { path: './katex.js', kind: 'dynamic-import' },
    ],
  );
  // each walkthrough of trained models' spec, when it is first shown
  assert.deepEqual(
    imports
      .filter(({ path }) => specs.includes(path))
      .map(({ path, kind }) => [path, kind])
      .sort(),
    specs.map((path) => [path, 'dynamic-import']).sort(),
  );
  // each walkthrough's texts in each language, when it is first shown: chunks that import nothing
  assert.deepEqual(
    imports
      .filter(({ path }) => texts.includes(path))
      .map(({ path, kind }) => [path, kind])
      .sort(),
    texts.map((path) => [path, 'dynamic-import']).sort(),
  );
  for (const path of texts) assert.deepEqual(await importsOf(join(root, 'dist/components', path)), []);
  // that relative path is the browsers' engine entry of package.json, so a CDN serves it as is
  assert.equal(
    new URL('../engine/index.js', pathToFileURL(bundle)).href,
    new URL(pkg.exports['.'].default, pathToFileURL(join(root, '/'))).href,
  );
  const text = readFileSync(bundle, 'utf8');
  assert.ok(!text.includes('../../web/'), 'the bundle reaches into the sources');
  // the engine's loader is not bundled in: one WebAssembly instance per page, shared with the app
  assert.doesNotMatch(text, /attention-engine/);
  // nor is KaTeX: it is the chunk, which imports nothing and is in the published folder
  assert.doesNotMatch(text, /KaTeX parse error/);
  const katex = join(root, 'dist/components/katex.js');
  assert.match(readFileSync(katex, 'utf8'), /KaTeX parse error/);
  assert.deepEqual(await importsOf(katex), []);
  assert.deepEqual(await importsOf(join(root, 'dist/components/locale-zh.js')), []);
  assert.ok(pkg.files.includes('dist/components/'), 'package.json publishes dist/components/');
});

test("every path package.json publishes exists after the build, and Node resolves the package's own name", async () => {
  const leaves = (value) => (typeof value === 'string' ? [value] : Object.values(value).flatMap(leaves));
  for (const path of [...leaves(pkg.exports), pkg.types, ...pkg.sideEffects, ...pkg.files]) {
    // a pattern ("./dist/engine/models/*") needs a folder with something in it
    const [folder, pattern] = path.split('*');
    assert.ok(existsSync(join(root, folder)), `${path} (package.json) does not exist`);
    if (pattern !== undefined) assert.ok(readdirSync(join(root, folder)).length > 0, `${path} matches nothing`);
  }
  assert.equal(import.meta.resolve('attention-stepper'), pathToFileURL(join(root, pkg.exports['.'].node)).href);
  const engine = await import('attention-stepper');
  assert.deepEqual(Object.keys(engine).sort(), [
    'MODEL_KINDS',
    'SHIPPED_MODELS',
    'TRAINING_DEFAULTS',
    'fieldsThat',
    'identityDefaults',
    'loadAttention',
    'modelFile',
    'modelIdentity',
    'toMatrix',
    'trainModel',
    'writeNpy',
    'writeNpz',
  ]);
  assert.deepEqual(engine.toMatrix([[1, 2]], 'm', Float32Array), { rows: 1, cols: 2, data: new Float32Array([1, 2]) });
  assert.throws(() => engine.toMatrix([[1, 2], [3]], 'keys', Float64Array), /keys is ragged: row 1 has 1 entries/);
});
