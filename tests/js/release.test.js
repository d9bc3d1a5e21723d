// Releases as npm users expect them (docs/api.md, "Versions"): one version, said alike everywhere a
// user copies it from; a changelog in Keep a Changelog's form whose Unreleased section says every
// change of the public API's names since the last release; a tarball of exactly what is exported.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { npm, root } from '../pack.js';
import { apiSurface, version } from './api-surface.js';

const read = (file) => readFileSync(join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const changelog = read('CHANGELOG.md');

// The versions the changelog releases, newest first, and each section's text.
function releases() {
  const sections = changelog.split(/^## /m).slice(1);
  return sections.map((section) => {
    const [heading, ...body] = section.split('\n');
    return { heading, body: body.join('\n') };
  });
}

const compareVersions = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

test('the version is said in one place: package.json, and every snippet that pins it says the same', () => {
  assert.match(pkg.version, /^0\.\d+\.\d+$/);
  const lock = JSON.parse(read('package-lock.json'));
  assert.equal(lock.version, pkg.version);
  assert.equal(lock.packages[''].version, pkg.version);
  const pinned = [];
  for (const file of [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
    'examples/jupyter/attention_basics.ipynb',
    'examples/tutorial/index.html',
    'examples/vite-app/package.json',
  ]) {
    const text = read(file);
    for (const [, given] of text.matchAll(/attention-stepper@(\d+\.\d+\.\d+)/g)) pinned.push([file, given]);
    for (const [, given] of text.matchAll(/"attention-stepper": "\^(\d+\.\d+\.\d+)"/g)) pinned.push([file, given]);
  }
  // the README's snippets, the tutorial, the notebook and the Vite app's dependency
  assert.ok(pinned.length >= 5, pinned.join('; '));
  assert.deepEqual(
    pinned.filter(([, given]) => given !== pkg.version),
    [],
  );
});

test("the changelog is in Keep a Changelog's form, newest first, its newest release the package's version", () => {
  const sections = releases();
  assert.equal(sections[0].heading, '[Unreleased]');
  const versions = sections.slice(1).map(({ heading }) => {
    const match = heading.match(/^\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/);
    assert.ok(match, `a release's heading is "[x.y.z] - YYYY-MM-DD", got "${heading}"`);
    return match[1];
  });
  assert.equal(versions[0], pkg.version);
  for (let i = 1; i < versions.length; i++)
    assert.ok(compareVersions(versions[i - 1], versions[i]) > 0, versions.join(' '));
  for (const { heading, body } of sections)
    for (const [, kind] of body.matchAll(/^### (.*)$/gm))
      assert.ok(
        ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(kind),
        `${heading}: ${kind}`,
      );
  // each release's commit, in the table at the end
  for (const version of versions)
    assert.match(changelog, new RegExp(`^\\| ${version.replaceAll('.', '\\.')} \\| \`[0-9a-f]{7,}\` \\|`, 'm'));
});

test("every public name added or removed since the last release is in the changelog's Unreleased section", () => {
  const released = JSON.parse(read('tests/fixtures/released-api.json'));
  assert.equal(
    released.version,
    version(),
    'tests/fixtures/released-api.json is the released API: on a release, write it anew with `node tests/js/api-surface.js`',
  );
  const unreleased = releases()[0].body;
  // the names written as code in Unreleased: `name`, `attn.name(…)`, `<element name>`
  const said = new Set([...unreleased.matchAll(/`([^`]+)`/g)].flatMap(([, code]) => code.match(/[\w$-]+/g) ?? []));
  const now = apiSurface();
  const unsaid = [];
  for (const [where, names] of Object.entries(now)) {
    const before = new Set(released[where]);
    for (const name of names) if (!before.has(name) && !said.has(name)) unsaid.push(`${where}: ${name} added`);
    for (const name of before) if (!names.includes(name) && !said.has(name)) unsaid.push(`${where}: ${name} removed`);
  }
  assert.deepEqual(unsaid, []);
  // what the surface reads: the exports and the engine object's members
  assert.ok(now['attention-stepper'].includes('loadAttention'));
  assert.ok(now.AttentionEngine.includes('createModel'));
  assert.ok(now['attention-stepper/components'].includes('renderHeatmap'));
});

test("the tarball holds what package.json exports and publishes, and nothing else; engines names the tests' Node", () => {
  const [{ files }] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], root));
  const packed = files.map((file) => file.path).sort();
  // npm's own: the manifest, the readme, the licence, the changelog
  const own = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
  for (const file of own) assert.ok(packed.includes(file), `${file} is packed`);
  const outside = packed.filter((path) => !own.includes(path) && !pkg.files.some((entry) => path.startsWith(entry)));
  assert.deepEqual(outside, [], 'files outside package.json `files`');
  // every export is in it: a file, or a pattern that matches some
  const leaves = (value) => (typeof value === 'string' ? [value] : Object.values(value).flatMap(leaves));
  for (const target of [...leaves(pkg.exports), pkg.types]) {
    const path = target.replace(/^\.\//, '');
    const [prefix, suffix] = path.split('*');
    const found =
      suffix === undefined
        ? packed.includes(path)
        : packed.some((file) => file.startsWith(prefix) && file.endsWith(suffix));
    assert.ok(found, `${target} (exports) is not in the tarball`);
  }
  // nothing private: no sources, tests, maps or build leftovers
  assert.deepEqual(
    packed.filter((path) => /(^|\/)(web|cpp|tests|bench|scripts|site)\/|\.map$|\.tsbuildinfo$|\.test\.js$/.test(path)),
    [],
  );
  // every file in it is reached: an export, or named by another packed file (an import, a URL, a
  // loader's worker or .wasm)
  const texts = packed.filter((path) => /\.(m?js|cjs|d\.ts|json)$/.test(path)).map((path) => [path, read(path)]);
  // names built in a template literal from a stem of their own (`attention-${which}-threads.cjs`),
  // as patterns
  const patterns = texts.flatMap(([, text]) =>
    [...text.matchAll(/[\w-]+\$\{[^}]+\}[\w.-]*/g)].map(
      ([name]) =>
        new RegExp(
          `^${name
            .split(/\$\{[^}]+\}/)
            .map((part) => part.replaceAll('.', '\\.'))
            .join('[\\w-]+')}$`,
        ),
    ),
  );
  const unreached = packed.filter((path) => {
    if (own.includes(path) || leaves(pkg.exports).some((target) => target.replace(/^\.\//, '').split('*')[0] === path))
      return false;
    const base = path
      .split('/')
      .pop()
      .replace(/\.d\.ts$/, '.js');
    if (base === 'package.json') return false; // a folder's module type, read by Node
    if (path.startsWith('dist/engine/models/')) return false; // the exports' pattern
    if (patterns.some((pattern) => pattern.test(base))) return false;
    return !texts.some(([other, text]) => other !== path && text.includes(base));
  });
  assert.deepEqual(unreached, []);
  assert.equal(pkg.engines.node, `^${process.versions.node.split('.')[0]}.0.0`);
});
