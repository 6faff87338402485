/** Which files `check` reads: folders searched for .yaml / .yml, never node_modules, .git or dot-folders, filtered by --include / --exclude. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioFiles } from '../../src/cli/commands/check.js';

const root = mkdtempSync(join(tmpdir(), 'lock-sim-check-files-'));
const files = ['a.yaml', 'b.yml', 'notes.txt', 'sub/c.yaml', 'sub/deep/d.yaml', 'real/e.yaml', 'node_modules/pkg/f.yaml', '.github/workflows/ci.yml', '.git/g.yaml', 'sub/.cache/h.yaml'];
for (const f of files) {
  mkdirSync(join(root, f, '..'), { recursive: true });
  writeFileSync(join(root, f), 'name: x\n');
}
// A link back up would loop: folders behind links are not followed; a link to a file is read.
symlinkSync(root, join(root, 'sub', 'loop'));
symlinkSync(join(root, 'a.yaml'), join(root, 'linked.yaml'));
const rel = (paths: string[]) => paths.map((p) => p.slice(root.length + 1));

describe('scenarioFiles', () => {
  it('finds every .yaml and .yml in name order, outside node_modules, .git and dot-folders, not through a linked folder', () => {
    expect(rel(scenarioFiles([root]))).toEqual(['a.yaml', 'b.yml', 'linked.yaml', 'real/e.yaml', 'sub/c.yaml', 'sub/deep/d.yaml']);
  });
  it('keeps only what --include matches, by path inside the folder or by name', () => {
    expect(rel(scenarioFiles([root], { include: ['sub/**'] }))).toEqual(['sub/c.yaml', 'sub/deep/d.yaml']);
    expect(rel(scenarioFiles([root], { include: ['*.yml', 'd.yaml'] }))).toEqual(['b.yml', 'sub/deep/d.yaml']);
  });
  it('leaves out what --exclude matches, by path as listed or inside the folder', () => {
    expect(rel(scenarioFiles([root], { exclude: ['real/**', 'sub/deep/**'] }))).toEqual(['a.yaml', 'b.yml', 'linked.yaml', 'sub/c.yaml']);
    expect(rel(scenarioFiles([root], { include: ['sub/**'], exclude: [join(root, 'sub', 'c.yaml')] }))).toEqual(['sub/deep/d.yaml']);
  });
  it('takes a file given by name as it is, filters included', () => {
    expect(scenarioFiles([join(root, 'node_modules/pkg/f.yaml')])).toEqual([join(root, 'node_modules/pkg/f.yaml')]);
    expect(() => scenarioFiles([join(root, 'a.yaml')], { exclude: ['a.yaml'] })).toThrow(/no scenario files \(\.yaml\) that --include \/ --exclude let through/);
    expect(() => scenarioFiles([join(root, 'node_modules')])).not.toThrow();
    expect(() => scenarioFiles([join(root, '.github')], { include: ['*.yaml'] })).toThrow(/no scenario files/);
  });
});
