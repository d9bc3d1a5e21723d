// Packs the repository with `npm pack` and installs the tarball into a new scratch folder, as a
// user would install the published package. Returns the scratch folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export function installPackedPackage(name) {
  const scratch = mkdtempSync(join(tmpdir(), `attention-stepper-${name}-`));
  const tarball = npm(['pack', '--ignore-scripts', '--pack-destination', scratch], root).trim().split('\n').pop();
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  npm(['install', '--offline', '--no-audit', '--no-fund', `./${tarball}`], scratch);
  return scratch;
}
