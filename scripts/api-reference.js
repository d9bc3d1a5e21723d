// The API reference generated from the public types (the built dist/engine/index.d.ts, which
// re-exports every kind's, and web/components/index.d.ts) by TypeDoc and typedoc-plugin-markdown, both pinned in
// package.json: `npm run docs` (`node scripts/api-reference.js`) writes it to docs/reference/,
// which is committed; `node scripts/api-reference.js --out DIR` writes it elsewhere, as
// tests/js/docs.test.js does to hold the committed files to what the types make. The output is
// the same on every machine and at every commit: no sources' links, no dates, no generator line.
// docs/api.md stays the hand-written account of what the calls compute.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Application, LogLevel } from 'typedoc';

import { root } from './generated-blocks.js';

export const referenceDir = join(root, 'docs/reference');

/** TypeDoc's options */
const options = (out) => ({
  entryPoints: ['dist/engine/index.d.ts', 'web/components/index.d.ts'].map((path) => join(root, path)),
  plugin: ['typedoc-plugin-markdown'],
  out,
  // tests/types/tsconfig.json's options (not its files; TypeScript's own lib files unchecked, which
  // tsc -p tests/types does), with the package's own name resolved to the sources, as the build's
  // package would give it (the build's dist/engine/, which scripts/build.sh makes)
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2022', 'dom'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    paths: { 'attention-stepper': [join(root, 'dist/engine/index.d.ts')] },
  },
  // the same output everywhere: no links to sources (they would name a commit), no generator line
  disableSources: true,
  disableGit: true,
  hideGenerator: true,
  readme: 'none',
  excludeExternals: true,
  // the functions first: loadAttention() is where a reader starts
  groupOrder: ['Functions', 'Variables', 'Classes', 'Interfaces', 'Type Aliases', '*'],
  sort: ['kind', 'instance-first', 'alphabetical-ignoring-documents'],
  // the conditional type behind "Float32 in, Float32 out", named in signatures only
  intentionallyNotExported: ['Out'],
  validation: { notExported: true, invalidLink: true, rewrittenLink: true },
  treatWarningsAsErrors: false,
  logLevel: LogLevel.Warn,
  // typedoc-plugin-markdown: one page per module, tables rather than a heading per parameter
  outputFileStrategy: 'modules',
  entryFileName: 'README',
  hideBreadcrumbs: true,
  hidePageHeader: true,
  useCodeBlocks: true,
  // a comment's <eos> or <attention-stepper …> is text, not HTML for GitHub to swallow
  sanitizeComments: true,
  expandObjects: false,
  parametersFormat: 'table',
  interfacePropertiesFormat: 'table',
  classPropertiesFormat: 'table',
  typeAliasPropertiesFormat: 'table',
  enumMembersFormat: 'table',
  propertyMembersFormat: 'table',
  typeDeclarationFormat: 'table',
  indexFormat: 'table',
  tableColumnSettings: { hideSources: true, hideDefaults: true, hideOverrides: true, hideInherited: true },
});

/** the files under a folder, relative to it, sorted */
export function listFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
}

/** the files under a folder and their text: { path: text }, sorted by path */
export const readTree = (dir) =>
  Object.fromEntries(listFiles(dir).map((path) => [path, readFileSync(join(dir, path), 'utf8')]));

/** writes the reference to `out` (emptied first); resolves to TypeDoc's count of warnings */
export async function generate(out = referenceDir) {
  // emptied first, so a type removed leaves no page behind; a folder of anything else is refused
  if (existsSync(out) && listFiles(out).some((path) => !path.endsWith('.md')))
    throw new Error(`${out} holds other files than a reference's pages: not emptying it`);
  rmSync(out, { recursive: true, force: true });
  const app = await Application.bootstrapWithPlugins(options(out));
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the types (its errors are above)');
  app.validate(project);
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error('TypeDoc reported errors (above)');
  // no spaces at the ends of lines (the plugin's signatures leave some), one newline at the end
  for (const [path, text] of Object.entries(readTree(out)))
    writeFileSync(join(out, path), text.replace(/[ \t]+$/gm, '').trimEnd() + '\n');
  return app.logger.warningCount;
}

/** the reference generated into a temporary folder: { path: text }, the folder removed */
export async function generated() {
  const out = mkdtempSync(join(tmpdir(), 'api-reference-'));
  try {
    await generate(out);
    return readTree(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? resolve(process.argv[at + 1]) : referenceDir;
  const warnings = await generate(out);
  console.log(
    `wrote ${relative(process.cwd(), out) || '.'}: ${Object.keys(readTree(out)).length} files${warnings ? `, ${warnings} warnings` : ''}`,
  );
}
