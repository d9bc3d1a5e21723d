// The public API's names as the types declare them: the exports of attention-stepper and of
// attention-stepper/components, and the members of the engine object loadAttention() resolves to.
// Run directly, it prints them as tests/fixtures/released-api.json holds them (for a release).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = {
  'attention-stepper': 'dist/engine/index.d.ts',
  'attention-stepper/components': 'web/components/index.d.ts',
};

/** A TypeScript program of `files` (paths) with tests/types' module options, to read the types with. */
export const typesProgram = (files) =>
  ts.createProgram(files, {
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  });

export function apiSurface() {
  const program = typesProgram(Object.values(ENTRIES).map((file) => root + file));
  const checker = program.getTypeChecker();
  const surface = {};
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(root + file)));
    surface[entry] = exports.map((symbol) => symbol.name).sort();
    const engine = exports.find((symbol) => symbol.name === 'AttentionEngine');
    if (engine)
      surface.AttentionEngine = checker
        .getDeclaredTypeOfSymbol(engine)
        .getProperties()
        .map((member) => member.name)
        .sort();
  }
  return surface;
}

export const version = () => JSON.parse(readFileSync(root + 'package.json', 'utf8')).version;

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(JSON.stringify({ version: version(), ...apiSurface() }, null, 2));
