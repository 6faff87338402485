/**
 * No export of src/ goes unused: each is imported by another file of src/, test/, scripts/ or
 * bin/, or is part of the package API (src/index.ts). One used only in its own file is not
 * exported; one used nowhere is deleted. The analysis is test/dead-exports.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadExports } from './dead-exports.js';

describe('exports', () => {
  it('every export of src/ is used by another file or the package API', { timeout: 600_000 }, () => {
    const found = deadExports('.').map((d) => `${d.file}:${d.line} ${d.name} (${d.usedLocally ? 'used only in its file: unexport it' : 'used nowhere: delete it'})`);
    expect(found).toEqual([]);
  });

  it('follows named, namespace, dynamic and type imports, re-exports and the package API', () => {
    const root = mkdtempSync(join(tmpdir(), 'lock-sim-exports-'));
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    try {
      write('src/index.ts', "export { api } from './api.js';\nexport * from './star.js';\n");
      write('src/api.ts', 'export const api = 1;\n');
      write('src/star.ts', 'export const starred = 1;\n');
      write('src/a.ts', [
        'export const named = 1;',
        'export const viaNamespace = 1;',
        'export const viaDynamic = 1;',
        'export interface ViaImportType { x: number }',
        'export const viaReexport = 1;',
        'export const unused = 1;',
        'export type OnlyHere = number;',
        'const here: OnlyHere = 1;',
        'void here;',
      ].join('\n'));
      write('src/b.ts', "export { viaReexport as renamed } from './a.js';\nexport const deadToo = 1;\n");
      write('src/c.ts', [
        "import { named } from './a.js';",
        "import * as ns from './a.js';",
        "import { renamed } from './b.js';",
        "type T = import('./a.js').ViaImportType;",
        "const { viaDynamic } = await import('./a.js');",
        'export const used: T = { x: named + ns.viaNamespace + viaDynamic + renamed };',
      ].join('\n'));
      write('test/c.test.ts', "import { used } from '../src/c.js';\nvoid used;\n");
      expect(deadExports(root).map((d) => [d.file, d.name, d.usedLocally])).toEqual([
        ['src/a.ts', 'unused', false],
        ['src/a.ts', 'OnlyHere', true],
        ['src/b.ts', 'deadToo', false],
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
