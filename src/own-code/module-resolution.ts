/**
 * Where a user module's imports are, and what each file is, as Node decides (the loader,
 * loader.ts, asks; each answer is kept for the worker's life, as the files do not change
 * during a run):
 * - a specifier: `node:` and builtin names, file URLs, relative paths and bare names as
 *   `require.resolve` finds them (node_modules, package `exports` with the
 *   "require"/"node"/"default" conditions, `main`), or, for an import-only `exports`, its
 *   "import" entry; a TypeScript file's import of `./x.js` finds x.ts;
 * - ESM or CommonJS: `.mjs`/`.mts` are ESM, `.cjs`/`.cts`/`.json` are not, other files follow
 *   the nearest package.json's "type" (a `.ts` file with module syntax is ESM, as Node 22
 *   detects);
 * - a file's text (types stripped from TypeScript) and the V8 code caches made from it.
 */
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasModuleSyntax, isTypeScript, stripTypes, typeScriptTwin } from './typescript.js';
import type { Analysis } from './esm-function.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

export interface Source {
  text: string;
  /** The V8 code cache of the file's module (or CommonJS function) form, made on its first compile. */
  cachedData?: Buffer;
  /** The file may call import(): V8's code cache loses the dynamic-import callback (measured on Node 20.20.2: "A dynamic import callback was not specified"), so it is compiled without one. */
  dynamicImport: boolean;
  /** An ES module as a function (esm-function.ts), analysed once. */
  analysis?: Analysis;
  /** V8 compiled the file as a module once (so its syntax errors are V8's own, reported by the module path). */
  compiles?: boolean;
  /** The code cache of its function form (esm-function.ts). */
  functionCache?: Buffer;
}
/** Each file's text and its code caches. */
const sources = new Map<string, Source>();

export function sourceOf(file: string): Source {
  let s = sources.get(file);
  if (!s) {
    const raw = readFileSync(file, 'utf8');
    const text = isTypeScript(file) ? stripTypes(raw, file) : raw;
    s = { text, dynamicImport: /\bimport\s*\(/.test(text) };
    sources.set(file, s);
  }
  return s;
}

const typeCache = new Map<string, string>();
/** The nearest package.json's "type" ("commonjs" when none). */
function packageType(dir: string): string {
  const known = typeCache.get(dir);
  if (known !== undefined) return known;
  let type = 'commonjs';
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    type = pkg.type === 'module' ? 'module' : 'commonjs';
  } catch {
    const parent = dirname(dir);
    type = parent === dir ? 'commonjs' : packageType(parent);
  }
  typeCache.set(dir, type);
  return type;
}

/** Whether `file` loads as an ES module (a builtin, `node:<name>`, does not). */
export function isEsm(file: string): boolean {
  if (file.startsWith('node:')) return false;
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.mts')) return true;
  if (file.endsWith('.cjs') || file.endsWith('.cts') || file.endsWith('.json')) return false;
  if (packageType(dirname(file)) === 'module') return true;
  return isTypeScript(file) && hasModuleSyntax(sourceOf(file).text);
}

/** A package's "import" entry when `require.resolve` finds no CommonJS one (an import-only package). */
function resolveImportOnly(specifier: string, fromFile: string): string | null {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const subpath = '.' + specifier.slice(name.length);
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', name);
    let pkg: any = null;
    try {
      pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    } catch {
      pkg = null;
    }
    if (pkg) {
      let entry: any = typeof pkg.exports === 'object' && pkg.exports !== null && !Array.isArray(pkg.exports) && Object.keys(pkg.exports)[0]?.startsWith('.') ? pkg.exports[subpath] : subpath === '.' ? pkg.exports : undefined;
      for (let i = 0; i < 5 && entry && typeof entry === 'object'; i++) entry = entry.import ?? entry.node ?? entry.default;
      if (typeof entry === 'string') return join(pkgDir, entry);
      if (subpath === '.' && typeof pkg.module === 'string') return join(pkgDir, pkg.module);
      return null;
    }
    if (dirname(dir) === dir) return null;
  }
}

const resolved = new Map<string, string>();

/** Where `specifier` imported from `fromFile` is: a file, or `node:<name>` for a builtin. A failure is not kept: it is thrown again, by Node, each time. */
export function resolveSpecifier(specifier: string, fromFile: string): string {
  const key = `${fromFile}\u0000${specifier}`;
  let target = resolved.get(key);
  if (target === undefined) {
    target = resolveNow(specifier, fromFile);
    resolved.set(key, target);
  }
  return target;
}

function resolveNow(specifier: string, fromFile: string): string {
  if (specifier.startsWith('node:')) return specifier;
  if (isBuiltin(specifier)) return `node:${specifier}`;
  if (specifier.startsWith('file:')) return fileURLToPath(specifier);
  try {
    return createRequire(fromFile).resolve(specifier);
  } catch (err) {
    // A TypeScript file imports another by the name of what it compiles to (`./x.js` for x.ts).
    const twin = /^[./]/.test(specifier) && isTypeScript(fromFile) ? typeScriptTwin(specifier) : null;
    if (twin !== null) {
      try {
        return createRequire(fromFile).resolve(twin);
      } catch {
        // not there either: the original error
      }
    }
    const found = /^[./]/.test(specifier) ? null : resolveImportOnly(specifier, fromFile);
    if (found) return found;
    throw err;
  }
}
