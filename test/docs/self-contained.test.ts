/**
 * Every file of the project stands on its own: nothing points at a path outside the
 * repository (a `../` that climbs above its root; this machine's work, temporary or home
 * folders) or
 * at notes a user of the repository or the package does not have. Sources are cited by
 * title, author and address instead (docs/sources.md).
 *
 * The file list is git's (tracked files); without git (an unpacked tarball) the test walks
 * the tree, skipping what git ignores here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'reports', 'test-output', '.stryker-tmp', '.vitest']);

function projectFiles(): string[] {
  const git = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (git.status === 0 && git.stdout.length > 0) return git.stdout.split('\0').filter((f) => f !== '');
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
      const rel = dir === '' ? d.name : `${dir}/${d.name}`;
      if (d.isDirectory()) return SKIP_DIRS.has(d.name) ? [] : walk(rel);
      return d.isFile() ? [rel] : [];
    });
  return walk('');
}

/** Lock files list registry URLs and hashes; binary files are not text. */
const TEXT = /\.(ts|mts|mjs|js|json|ya?ml|md|txt|sh)$|(^|\/)(LICENSE|run|\.gitignore)$/;
const IGNORED = new Set(['package-lock.json']);

// Built from pieces so that this file does not match itself.
const FORBIDDEN: Array<{ what: string; pattern: RegExp }> = [
  { what: "this machine's project folder", pattern: new RegExp(['', 'work', ''].join('/')) },
  { what: 'a temporary folder', pattern: new RegExp(`(^|[\\s'"\`(])${['', 'tmp', ''].join('/')}`) },
  { what: 'a home folder', pattern: new RegExp(['', 'home', ''].join('/')) },
  { what: 'the internal lock notes', pattern: new RegExp(['lock', 'semantics'].join('-'), 'i') },
  { what: 'an internal seed article number', pattern: new RegExp(`${'se'}eds? 00\\d`, 'i') },
  { what: 'the internal shared folder', pattern: new RegExp(['\\.\\.', 'shared'].join('/')) },
  { what: 'the internal design notes', pattern: new RegExp(['DESIGN', 'md'].join('\\.')) },
];

/** Every `../` path in a text, resolved from the file's folder: must stay inside the repository. */
function escapingRelativePaths(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\.\.\/)+[\w.@-]*/g)) {
    const target = resolve(ROOT, dirname(file), m[0]);
    if (target !== ROOT && !target.startsWith(ROOT + sep)) found.push(m[0]);
  }
  return found;
}

describe('every project file is self-contained', () => {
  const files = projectFiles().filter((f) => TEXT.test(f) && !IGNORED.has(f));

  it('finds the files to check', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/sources.md');
    expect(files.filter((f) => f.startsWith('scenarios/')).length).toBeGreaterThan(20);
    expect(files.filter((f) => f.startsWith('src/')).length).toBeGreaterThan(50);
  });

  it('no file names a path outside the repository or an internal note', () => {
    const problems: string[] = [];
    for (const file of files) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      // A page's block fenced as ```yaml file=PATH shows that file: its relative paths start from PATH.
      let shown: string | null = null;
      lines.forEach((line, i) => {
        const fence = /^```\S*(?:.*\sfile=(\S+))?/.exec(line);
        if (fence && file.endsWith('.md')) shown = shown === null && fence[1] !== undefined ? fence[1] : null;
        for (const f of FORBIDDEN) if (f.pattern.test(line)) problems.push(`${file}:${i + 1}: ${f.what}: ${line.trim()}`);
        for (const p of escapingRelativePaths(shown ?? file, line)) problems.push(`${file}:${i + 1}: ${p} leaves the repository: ${line.trim()}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('catches each kind of reference it looks for (and leaves ordinary text alone)', () => {
    const hits = (line: string): string[] => FORBIDDEN.filter((f) => f.pattern.test(line)).map((f) => f.what);
    const bad = [
      ['see ', '', 'work', 'shared', 'x.md'].join('/'),
      `written to ${['', 'tmp', 'out.json'].join('/')}`,
      ['', 'home', 'me', 'x'].join('/'),
      `(${['reference', 'lock'].join('/')}-semantics.md 1.1)`,
      `(${'se'}ed 004 3.2)`,
      `${'Se'}eds 000 and 004`,
      `(\`${['..', 'shared', 'seeds'].join('/')}\`)`,
      `(${'DESIGN'}.md)`,
    ];
    for (const line of bad) expect(hits(line), line).not.toEqual([]);
    const fine = ['seeds 1..100', 'run it with --seed 4', 'os.tmpdir()', 'the homepage', "import { x } from '../engine/time.js';", 'redis/redis#8607'];
    for (const line of fine) expect(hits(line), line).toEqual([]);
    expect(escapingRelativePaths('src/cli/commands/run.ts', "import { a } from '../../report/html.js';")).toEqual([]);
    expect(escapingRelativePaths('README.md', `see ${['..', 'shared', 'seeds'].join('/')}/`)).toEqual([['..', 'shared'].join('/')]);
    expect(escapingRelativePaths('src/cli/x.ts', `'${['..', '..', '..', 'elsewhere'].join('/')}'`)).toEqual([['..', '..', '..', 'elsewhere'].join('/')]);
  });
});
