/**
 * Built-in scenarios by name (src/cli/builtin-scenarios.ts) and `lock-sim init`, through the
 * built bin, from a folder that has no scenarios/ (as in a project that installed lock-sim).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { schemaModeline, withModeline } from '../../src/scenario/schema-line.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve('bin/lock-sim.js');
const SCENARIOS = resolve('scenarios');

function cliIn(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const emptyDir = (): string => mkdtempSync(join(tmpdir(), 'lock-sim-builtin-'));

describe('a built-in scenario by name', () => {
  it('runs the packaged scenario file from a folder without it, under its name', () => {
    // failover-lag-race rather than failover: the same code path in a fifth of the time.
    const r = cliIn(emptyDir(), 'run', 'failover-lag-race', '--json');
    expect(r.code).toBe(0);
    const byName = JSON.parse(r.out);
    const byPath = JSON.parse(cliIn(process.cwd(), 'run', 'scenarios/failover-lag-race.yaml', '--json').out);
    expect(byName.scenario.file).toBe('failover-lag-race');
    expect(byName.variants).toEqual(byPath.variants);
    expect(r.err).toBe('');
  });

  it('is accepted by compare and check, and shrink and compare name its variants', () => {
    const dir = emptyDir();
    const c = cliIn(dir, 'compare', 'failover', '--seeds', '1', '--variants', 'lua', '--jobs', '1');
    expect(c.code).toBe(0);
    expect(c.out).toContain('seeds 1 (1 runs per variant), failover');
    const k = cliIn(dir, 'check', 'failover-lag-race', '--jobs', '1');
    expect(k.code).toBe(0);
    expect(k.out).toContain('failover-lag-race');
    expect(k.out).toMatch(/\n\d+ expectations held in 1 scenarios( \(\d+ of them the implicit live == 1\))?\n/);
    const s = cliIn(dir, 'shrink', 'failover', '--seed', '1', '--variant', 'nope');
    expect(s.code).toBe(2);
    expect(s.err).toContain('no variant named "nope"; variants are lua, watchdog-nosync, watchdog, lua+guard');
  });

  it('a misspelt name is exit 2 with a did-you-mean over the built-in names', () => {
    const r = cliIn(emptyDir(), 'run', 'failvoer');
    expect(r.code).toBe(2);
    expect(r.err).toContain('no such file or built-in scenario "failvoer" (did you mean "failover"?)');
    expect(r.err).toContain('built-in scenarios: cluster-split-brain,');
    const k = cliIn(emptyDir(), 'check', 'get-then-dl');
    expect(k.code).toBe(2);
    expect(k.err).toContain('(did you mean "get-then-del"?)');
  });

  it('a name close to none gets the list but no did-you-mean', () => {
    const r = cliIn(emptyDir(), 'run', 'zzzzzzzz');
    expect(r.code).toBe(2);
    expect(r.err).toContain('no such file or built-in scenario "zzzzzzzz"; built-in scenarios:');
    expect(r.err).not.toContain('did you mean');
  });

  it('a missing path stays "no such file", pointing at the built-in of the same name', () => {
    const r = cliIn(emptyDir(), 'run', 'scenarios/failover.yaml');
    expect(r.code).toBe(2);
    expect(r.err).toContain('scenarios/failover.yaml: (top level): no such file (there is a built-in scenario "failover": give its bare name)');
    const other = cliIn(emptyDir(), 'run', 'scenarios/mine.yaml');
    expect(other.code).toBe(2);
    expect(other.err).toContain('scenarios/mine.yaml: (top level): no such file');
    expect(other.err).not.toContain('built-in');
  });

  it('a file of that exact name wins over the built-in', () => {
    const dir = emptyDir();
    copyFileSync(join(SCENARIOS, 'failover-lag-race.yaml'), join(dir, 'failover'));
    const r = cliIn(dir, 'run', 'failover', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).scenario.name).toBe('failover-lag-race');
  });

  it('a local <name>.yaml does not shadow the built-in, and a note on stderr says which ran', () => {
    const dir = emptyDir();
    copyFileSync(join(SCENARIOS, 'failover-lag-race.yaml'), join(dir, 'failover-lag-race-kept.yaml'));
    const r = cliIn(dir, 'run', 'failover-lag-race-kept', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).scenario.name).toBe('failover-lag-race-kept');
    expect(r.err).toContain('note: "failover-lag-race-kept" runs the built-in scenario, not ./failover-lag-race-kept.yaml');
  });
});

describe('lock-sim list', () => {
  const files = readdirSync(SCENARIOS).filter((f) => f.endsWith('.yaml'));

  it('lists every built-in scenario with its description', () => {
    const r = cliIn(emptyDir(), 'list');
    expect(r.code).toBe(0);
    const section = r.out.slice(r.out.indexOf('built-in scenarios'));
    for (const f of files) expect(section).toMatch(new RegExp(`\\n  ${f.replace('.yaml', '')} +\\S`));
    expect(section).toContain('Sentinel failover with unreplicated locks; lock-only variants oversell, the guarded one does not');
  });

  it('--json carries them too, in name order', () => {
    const r = cliIn(emptyDir(), 'list', '--json');
    const scenarios = JSON.parse(r.out).scenarios as Array<{ name: string; description: string }>;
    expect(scenarios.map((s) => s.name)).toEqual(files.map((f) => f.replace('.yaml', '')).sort());
    expect(scenarios.every((s) => s.description.length > 0)).toBe(true);
  });
});

describe('lock-sim init', () => {
  const original = readFileSync(join(SCENARIOS, 'failover.yaml'), 'utf8');

  /** The built-in's text with its modeline pointing at the package's schema from `dir`. */
  const copied = (dir: string, file: string) => withModeline(original, schemaModeline(join(dir, file), resolve('schema/scenario.schema.json')));

  it('--from copies the built-in byte for byte to <name>.yaml, its schema modeline pointing at the package from there', () => {
    const dir = emptyDir();
    const r = cliIn(dir, 'init', '--from', 'failover');
    expect(r.code).toBe(0);
    expect(r.out).toContain('wrote failover.yaml');
    const written = readFileSync(join(dir, 'failover.yaml'), 'utf8');
    expect(written).toBe(copied(realpathSync(dir), 'failover.yaml'));
    expect(written.split('\n').slice(1)).toEqual(original.split('\n').slice(1));
  });

  it('--output names the file', () => {
    const dir = emptyDir();
    expect(cliIn(dir, 'init', '--from', 'failover', '--output', 'mine.yaml').code).toBe(0);
    expect(readFileSync(join(dir, 'mine.yaml'), 'utf8')).toBe(copied(realpathSync(dir), 'mine.yaml'));
    expect(existsSync(join(dir, 'failover.yaml'))).toBe(false);
  });

  it('refuses to overwrite an existing file (exit 2, file untouched) ...', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'failover.yaml'), 'mine\n');
    const r = cliIn(dir, 'init', '--from', 'failover');
    expect(r.code).toBe(2);
    expect(r.err).toContain('failover.yaml already exists; pass --force');
    expect(readFileSync(join(dir, 'failover.yaml'), 'utf8')).toBe('mine\n');
  });

  it('... and overwrites it with --force', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'failover.yaml'), 'mine\n');
    expect(cliIn(dir, 'init', '--from', 'failover', '--force').code).toBe(0);
    expect(readFileSync(join(dir, 'failover.yaml'), 'utf8')).toBe(copied(realpathSync(dir), 'failover.yaml'));
  });

  it('an unknown --from is exit 2 with a did-you-mean; no --from is exit 2 with the names', () => {
    const dir = emptyDir();
    const r = cliIn(dir, 'init', '--from', 'failovr');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--from: no built-in scenario "failovr" (did you mean "failover"?)');
    const none = cliIn(dir, 'init');
    expect(none.code).toBe(2);
    expect(none.err).toContain('init needs --from <built-in scenario> or --topology/--lock for a starter (e.g. init --topology sentinel --lock redisson); built-in scenarios: cluster-split-brain,');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--topology and --lock write a commented starter that runs, and explain tells its defaults', () => {
    const dir = emptyDir();
    const r = cliIn(dir, 'init', '--topology', 'sentinel', '--lock', 'redisson');
    expect(r.code).toBe(0);
    expect(r.out).toContain('wrote starter-sentinel-redisson.yaml (a starter for redisson on sentinel)');
    const text = readFileSync(join(dir, 'starter-sentinel-redisson.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(schemaModeline(join(realpathSync(dir), 'starter-sentinel-redisson.yaml'), resolve('schema/scenario.schema.json')));
    expect(text.split('\n')[1]).toMatch(/^# A starter scenario, written by `lock-sim init --topology sentinel --lock redisson`/);
    expect(cliIn(dir, 'run', 'starter-sentinel-redisson.yaml').code).toBe(0);
    const explained = cliIn(dir, 'explain', 'starter-sentinel-redisson.yaml');
    expect(explained.code).toBe(0);
    expect(explained.out).toMatch(/redis\.down-after: 30s +default: sentinel\.conf down-after-milliseconds default 30000/);
    expect(explained.out).toMatch(/workload\.clients: 2 +file/);
  });

  it('refuses a starter that cannot be built, naming why (exit 2, nothing written)', () => {
    const dir = emptyDir();
    const redlock = cliIn(dir, 'init', '--topology', 'sentinel', '--lock', 'redlock');
    expect(redlock.code).toBe(2);
    expect(redlock.err).toContain('--lock redlock needs --topology independent');
    const typo = cliIn(dir, 'init', '--lock', 'redison');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('--lock: no "redison" (did you mean "redisson"?)');
    const guard = cliIn(dir, 'init', '--lock', 'lua-unlock', '--guard', 'fenced-write');
    expect(guard.code).toBe(2);
    expect(guard.err).toContain('fenced-write needs a lock that hands out fencing tokens');
    expect(cliIn(dir, 'init', '--from', 'failover', '--lock', 'redisson').code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('explain takes a built-in name too, and refuses an invalid file with its location (exit 2)', () => {
    const dir = emptyDir();
    const r = cliIn(dir, 'explain', 'failover-lag-race', '--json');
    expect(r.code).toBe(0);
    const fields = JSON.parse(r.out) as Array<{ field: string; origin: string; source: string }>;
    expect(fields.find((f) => f.field === 'network.command-timeout')).toMatchObject({ origin: 'default', source: expect.stringContaining('Redisson BaseConfig timeout') });
    writeFileSync(join(dir, 'bad.yaml'), 'name: x\nduration: -1s\n');
    const bad = cliIn(dir, 'explain', 'bad.yaml');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad\.yaml:\d+:\d+/);
  });
});
