/**
 * The files of a user lock module that are the user's own code: the module and every file
 * it imports by a relative path or a file URL, transitively, outside node_modules. Found by
 * reading the source for `import ... from '...'`, `import('...')`, `export ... from '...'`
 * and `require('...')` with a literal specifier: a string that merely looks like one (in a
 * comment) adds a file that exists, which is harmless here; a specifier computed at run
 * time is not seen. Used to identify a tally's code (tally-identity.ts) and to keep an
 * output from overwriting an input (cli/output-files.ts). Packages are identified by the
 * lock file, not here.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readInputFile } from './input-file.js';

/** Files followed from one module, and the size read of each: a larger tree is not the user's lock. */
const MAX_MODULE_FILES = 1_000;
const MAX_MODULE_FILE_BYTES = 16 * 1024 * 1024;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"`])([^'"`\n]{1,1000})\1/g;

/** TypeScript sources are imported by the name of what they compile to (`./x.js` for x.ts). */
const TS_TWINS: Record<string, string> = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts', '.jsx': '.tsx' };

function resolveLocal(specifier: string, fromFile: string): string | null {
  let target: string;
  if (specifier.startsWith('file:')) {
    try {
      target = fileURLToPath(specifier);
    } catch {
      return null;
    }
  } else if (specifier.startsWith('./') || specifier.startsWith('../') || isAbsolute(specifier)) {
    target = resolve(dirname(fromFile), specifier);
  } else return null;
  const candidates = [target];
  for (const [js, ts] of Object.entries(TS_TWINS)) if (target.endsWith(js)) candidates.push(target.slice(0, -js.length) + ts);
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
  try {
    // CommonJS rules: an extension left out, a folder's index.js or package.json main.
    return createRequire(fromFile).resolve(target);
  } catch {
    return null;
  }
}

const inNodeModules = (file: string): boolean => file.split(sep).includes('node_modules');

/** The module `entry` and the user's files it imports, each with its text (null: not readable). */
export function localModuleFiles(entry: string): Array<{ file: string; text: string | null }> {
  const out: Array<{ file: string; text: string | null }> = [];
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0 && out.length < MAX_MODULE_FILES) {
    const file = queue.shift() as string;
    const read = readInputFile(file, 'a module file', MAX_MODULE_FILE_BYTES);
    const text = read.ok ? read.text : null;
    out.push({ file, text });
    if (text === null || file.endsWith('.json')) continue;
    for (const m of text.matchAll(SPECIFIER)) {
      const target = resolveLocal(m[2], file);
      if (target === null || seen.has(target) || inNodeModules(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return out;
}

/**
 * A hash of the user's module code of every own-code variant (null: none): each file's path
 * relative to the scenario's folder and its content, so the same code in another checkout
 * (another absolute path) has the same hash.
 */
export function moduleCodeHash(moduleFiles: readonly string[], scenarioFile: string): string | null {
  if (moduleFiles.length === 0) return null;
  const base = dirname(resolve(scenarioFile));
  const files = new Map<string, string | null>();
  for (const entry of moduleFiles) for (const f of localModuleFiles(entry)) files.set(relative(base, f.file).split(sep).join('/'), f.text);
  const hash = createHash('sha256');
  for (const name of [...files.keys()].sort()) {
    const text = files.get(name) as string | null;
    hash.update(`${name}\u0000${text === null ? '(unreadable)' : createHash('sha256').update(text).digest('hex')}\u0000`);
  }
  return hash.digest('hex');
}
