/**
 * TypeScript user modules (`.ts`, `.mts`, `.cts`): their types are stripped before the loader
 * compiles them (loader.ts), by amaro 1.2.1, the Node.js project's own TypeScript wrapper (the
 * one behind Node 22's --experimental-strip-types: swc's type stripper as WebAssembly, no
 * native build, no dependency of its own). It replaces each type annotation with as many
 * spaces, so every line and column of the JavaScript is the `.ts` file's: a stack frame, a
 * refused call's location and a `(at file:line:col)` need no source map. What only a
 * transform could turn into JavaScript (an `enum`, a `namespace` with values, parameter
 * properties, legacy decorators) is refused as Node refuses it in strip-only mode, at its line
 * and column, as is a syntax error.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** `.ts` follows the package's "type" as `.js` does; `.mts` is ESM, `.cts` CommonJS. */
const TYPESCRIPT_EXTENSIONS = ['.ts', '.mts', '.cts'] as const;

export function isTypeScript(file: string): boolean {
  return TYPESCRIPT_EXTENSIONS.some((ext) => file.endsWith(ext)) && !file.endsWith('.d.ts');
}

/** The JavaScript twin a TypeScript import names (`./x.js` for x.ts, as tsc expects imports to be written). */
export function typeScriptTwin(file: string): string | null {
  for (const [js, ts] of [['.js', '.ts'], ['.mjs', '.mts'], ['.cjs', '.cts']] as const) if (file.endsWith(js)) return file.slice(0, -js.length) + ts;
  return null;
}

interface AmaroError {
  code?: string;
  message?: string;
  startLine?: number;
  startColumn?: number;
}
type Amaro = { transformSync(code: string, options: { mode: 'strip-only'; filename: string }): { code: string } };
let amaro: Amaro | null = null;

/**
 * `text` of the TypeScript file `file` as JavaScript with the same lines and columns. A
 * refusal is a SyntaxError whose stack names `file:line:col` (1-based column, as V8's frames),
 * so the loader's error reports locate it in the `.ts` file.
 */
export function stripTypes(text: string, file: string): string {
  amaro ??= createRequire(import.meta.url)('amaro') as Amaro;
  try {
    return amaro.transformSync(text, { mode: 'strip-only', filename: file }).code;
  } catch (err) {
    const e = err as AmaroError;
    if (typeof e?.startLine !== 'number') throw err;
    const unsupported = e.code === 'UnsupportedSyntax';
    const message = `${unsupported ? 'TypeScript that needs a transform, not just its types stripped' : 'TypeScript syntax error'}: ${e.message ?? 'invalid'}`;
    const located = new SyntaxError(message);
    located.stack = `SyntaxError: ${message}\n    at ${pathToFileURL(file).href}:${e.startLine}:${(e.startColumn ?? 0) + 1}`;
    throw located;
  }
}

/**
 * A `.ts` file of a package with no "type": "module" is still ESM when it has a top-level
 * import or export statement (as Node 22's module syntax detection decides for such files).
 */
export function hasModuleSyntax(stripped: string): boolean {
  return /^\s*(import\s*[\w*{'"]|export\s)/m.test(stripped);
}
