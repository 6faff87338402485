#!/usr/bin/env node
/**
 * The `prepack` and `postpack` hooks of `npm pack` / `npm publish`.
 *
 * prepack: builds dist/ from scratch (a file whose source was deleted must not ship), then
 * takes the `prepare` script out of package.json for the length of the pack. `prepare` builds
 * a git checkout (a fresh clone's `npm install`, or `npm install github:...`), which has no
 * dist/; a tarball already holds dist/, and npm 11 warns about every install script a tarball
 * carries ("install scripts not yet covered by allowScripts"), prepare included. The same
 * trick as typicode's pinst (https://github.com/typicode/pinst), which disables a package's
 * postinstall in prepack and restores it in postpack.
 * postpack: puts package.json back byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const BACKUP = '.package.json.prepack';

function restore() {
  if (existsSync(BACKUP)) renameSync(BACKUP, 'package.json');
}

const mode = process.argv[2];
if (mode === 'prepack') {
  restore(); // a pack that failed after stripping left its backup: start from the original
  rmSync('dist', { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const text = readFileSync('package.json', 'utf8');
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(BACKUP, text);
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === 'postpack') {
  restore();
} else {
  console.error('usage: node scripts/pack.mjs prepack|postpack');
  process.exit(2);
}
