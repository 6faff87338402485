/**
 * The program's shape: the command table against the commands' own modules, lazy loading,
 * colour, --quiet and progress lines.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { parses } from './parse-line.js';
import { describe, expect, it } from 'vitest';
import { colorWanted } from '../../src/cli/color.js';
import { COMMANDS } from '../../src/cli/commands/table.js';
import { buildProgram, main, PROGRAM_EXAMPLES } from '../../src/cli/program.js';
import { progressLines } from '../../src/cli/progress.js';

const quietCtx = () => ({ io: { out: () => {}, err: () => {}, progress: null, stdoutIsTTY: false }, setExitCode: () => {} });

function captured(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  return main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), progress: null, stdoutIsTTY: false }).then((code) => ({ code, out, err }));
}

describe('the command table', () => {
  it('names, in order, exactly the commands the modules define, each with its arguments and summary', async () => {
    const full = await buildProgram(quietCtx());
    expect(full.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    for (const entry of COMMANDS) {
      const own = new Command('lock-sim');
      (await entry.load())(own, quietCtx());
      const command = own.commands.find((c) => c.name() === entry.name);
      expect(command, `${entry.name}'s module defines it`).toBeDefined();
      expect(command!.description()).toBe(entry.summary);
      const args = command!.registeredArguments.map((a) => (a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`)).join(' ');
      expect(args, `${entry.name}'s arguments`).toBe(entry.args);
    }
  });

  it('--help from the table alone prints what the whole program prints', async () => {
    const lazy = await captured(['--help']);
    expect(lazy.code).toBe(0);
    let fullOut = '';
    const full = await buildProgram({ ...quietCtx(), io: { out: (t: string) => (fullOut += `${t}\n`), err: () => {}, progress: null, stdoutIsTTY: false } });
    full.outputHelp();
    expect(lazy.out).toBe(fullOut);
    expect(lazy.out).toContain('Examples:\n  $ lock-sim run scenarios/failover.yaml');
  });

  it('an unknown command is refused with a suggestion, exit 2, without loading any command', async () => {
    const r = await captured(['rn', 'scenarios/failover.yaml']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command 'rn'");
    expect(r.err).toContain('Did you mean run?');
  });

  it("a command's help loads its module: its options are listed", async () => {
    const r = await captured(['help', 'compare']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('--seeds');
    expect((await captured(['compare', '--help'])).out).toBe(r.out);
  });
});

/**
 * Value imports (not `import type`, not `await import(...)`) reachable from the CLI's entry:
 * what `lock-sim --version` loads before it can answer. None of the simulator's layers.
 */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^import\s+(?!type\b)[^'"]*?from\s+'(\.[^']+)'/gm)) visit(resolve(dirname(file), m[1].replace(/\.js$/, '.ts')));
    for (const m of text.matchAll(/^export\s+(?!type\b)[^'"]*?from\s+'(\.[^']+)'/gm)) visit(resolve(dirname(file), m[1].replace(/\.js$/, '.ts')));
  };
  visit(resolve(entry));
  return seen;
}

describe('lazy loading', () => {
  it('--version and --help load no simulator layer (beyond two leaf modules of units and distribution syntax), Redis client or Lua VM', () => {
    const loaded = [...staticClosure('src/cli/main.ts')].map((f) => f.slice(resolve('src').length + 1)).sort();
    const heavy = loaded.filter((f) => !/^(cli\/(main|program|exit-codes|option-parsers|output-files)\.ts|cli\/commands\/(table|summaries|context)\.ts|version\.ts|spec\/errors\.ts|scenario\/(cost|seeds|suggest|input-file|quote|limits|text-limits)\.ts|backends\/real\/errors\.ts|engine\/(time|distribution)\.ts)$/.test(f));
    expect(heavy, 'modules the entry loads beyond the light ones').toEqual([]);
  });

  it('the check above fails on a heavy import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-sim-closure-'));
    writeFileSync(join(dir, 'a.ts'), "import { x } from './b.js';\nimport type { T } from './c.js';\nconst later = () => import('./d.js');\n");
    writeFileSync(join(dir, 'b.ts'), 'export const x = 1;\n');
    expect([...staticClosure(join(dir, 'a.ts'))].map((f) => f.slice(dir.length + 1)).sort()).toEqual(['a.ts', 'b.ts']);
  });
});

describe('colour', () => {
  it('follows the flag, then FORCE_COLOR, then NO_COLOR, then the terminal', () => {
    expect(colorWanted(undefined, {}, true)).toBe(true);
    expect(colorWanted(undefined, {}, false)).toBe(false);
    expect(colorWanted(undefined, { NO_COLOR: '1' }, true)).toBe(false);
    expect(colorWanted(undefined, { NO_COLOR: '' }, true)).toBe(true); // no-color.org: set and not empty
    expect(colorWanted(undefined, { FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorWanted(undefined, { FORCE_COLOR: '' }, false)).toBe(true);
    expect(colorWanted(undefined, { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorWanted(undefined, { FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(colorWanted(undefined, { FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(colorWanted(false, { FORCE_COLOR: '1' }, true)).toBe(false);
    expect(colorWanted(true, { NO_COLOR: '1' }, false)).toBe(true);
  });

  const cli = (env: Record<string, string>, ...args: string[]) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NO_COLOR' && k !== 'FORCE_COLOR'));
    const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...base, ...env } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const ESC = /\u001b\[/;

  it('off a terminal: plain, coloured with FORCE_COLOR or --color (before or after the command), plain again with --no-color', () => {
    const args = ['run', 'scenarios/failover.yaml', '--variant', 'lua'];
    expect(cli({}, ...args).out).not.toMatch(ESC);
    expect(cli({ FORCE_COLOR: '1' }, ...args).out).toMatch(ESC);
    expect(cli({}, '--color', ...args).out).toMatch(ESC);
    expect(cli({}, ...args, '--color').out).toMatch(ESC);
    expect(cli({ FORCE_COLOR: '1' }, ...args, '--no-color').out).not.toMatch(ESC);
    expect(cli({ FORCE_COLOR: '1' }, ...args, '--color', '--no-color').out).not.toMatch(ESC);
  });

  it('--quiet drops notes (a local file a built-in name shadows) and keeps the result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-sim-quiet-'));
    writeFileSync(join(dir, 'failover.yaml'), 'name: mine\n');
    const bin = resolve('bin/lock-sim.js');
    const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const loud = run('explain', 'failover');
    expect(loud.status).toBe(0);
    expect(loud.stderr).toContain('note: "failover" runs the built-in scenario');
    const quiet = run('explain', 'failover', '--quiet');
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(loud.stdout);
  });
});

describe('progress lines off a terminal', () => {
  const sink = () => {
    const lines: string[] = [];
    return { lines, stream: { write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream };
  };

  it('a line per interval with runs done, rate and time left; none at the end or with interval 0', () => {
    const s = sink();
    const p = progressLines(s.stream, 'compare', 3, 1e-9);
    const until = performance.now() + 2;
    while (performance.now() < until) {
      // an interval of wall time passes
    }
    p.update(10, 40);
    p.update(40, 40);
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toMatch(/^compare: 30\/120 runs \(25%\), [\d.]+ runs\/s, about \d+ s left\n$/);
    const none = sink();
    progressLines(none.stream, 'compare', 3, 0).update(10, 40);
    expect(none.lines).toEqual([]);
  });

  it('a long check off a terminal prints them to stderr, and --quiet none', () => {
    const env = { ...process.env, NO_COLOR: '1', LOCK_SIM_PROGRESS_SECONDS: '0.000001' };
    const args = ['bin/lock-sim.js', 'compare', 'scenarios/failover.yaml', '--seeds', '1..6', '--jobs', '1'];
    const loud = spawnSync(process.execPath, args, { encoding: 'utf8', env });
    expect(loud.status).toBe(0);
    expect(loud.stderr).toMatch(/^compare: \d+\/24 runs/m);
    const quiet = spawnSync(process.execPath, [...args, '--quiet'], { encoding: 'utf8', env });
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(loud.stdout);
  });
});

describe('examples in --help', () => {
  it.each(COMMANDS.flatMap((c) => [...c.examples].map((line) => ({ name: c.name, line }))).concat(PROGRAM_EXAMPLES.map((line) => ({ name: 'lock-sim', line }))))(
    '$name: $line parses',
    async ({ line }) => expect(await parses(line, 1)).toBeNull(),
  );

  it('a misspelt example would be caught', async () => {
    expect(await parses('lock-sim compare failover --sedes 1..3', 1)).not.toBeNull();
  });

  it("every command's help ends with its examples", async () => {
    for (const entry of COMMANDS) {
      const r = await captured([entry.name, '--help']);
      expect(r.out).toContain(`Examples:\n${entry.examples.map((l) => `  $ ${l}`).join('\n')}\n`);
    }
  });
});
