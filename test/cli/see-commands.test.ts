/** run --timeline / --report, compare --report and shrink through the built bin. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const dir = mkdtempSync(join(tmpdir(), 'lock-sim-see-'));

describe('lock-sim run --timeline', () => {
  it('zooms on the double holder by default and fits 80 columns', () => {
    const r = cli('run', 'scenarios/failover.yaml', '--variant', 'lua', '--timeline');
    expect(r.code).toBe(0);
    const timeline = r.out.slice(r.out.indexOf('timeline of lock:stock:'));
    expect(timeline).toMatch(/^two holders\s+ *!+/m);
    for (const line of timeline.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('takes an explicit window and key, and says when there is nothing to zoom on', () => {
    const r = cli('run', 'scenarios/failover.yaml', '--variant', 'watchdog', '--timeline', '--from', '29s', '--to', '31s', '--key', 'lock:stock:10040');
    expect(r.out).toContain('timeline of lock:stock:10040, 29s to 31s');
    const none = cli('run', 'scenarios/get-then-del.yaml', '--variant', 'lua-unlock', '--timeline');
    expect(none.out).toContain('lua-unlock: no violation to zoom on: give --from and --to');
    expect(cli('run', 'scenarios/failover.yaml', '--timeline', '--from', 'soon').code).toBe(2);
    expect(cli('run', 'scenarios/failover.yaml', '--timeline', '--around', 'last-violation').code).toBe(2);
  });
});

describe('HTML reports from the CLI', () => {
  it('run --report and compare --report write self-contained pages', () => {
    const runFile = join(dir, 'run.html');
    expect(cli('run', 'scenarios/failover.yaml', '--report', runFile).code).toBe(0);
    const html = readFileSync(runFile, 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<svg class="timeline"');
    expect(html).not.toMatch(/<script|<link |src="http|href="http/);
    const cmpFile = join(dir, 'compare.html');
    expect(cli('compare', 'scenarios/failover.yaml', '--seeds', '3', '--jobs', '1', '--report', cmpFile).code).toBe(0);
    expect(readFileSync(cmpFile, 'utf8')).toContain('<svg class="chart"');
    const unwritable = cli('run', 'scenarios/failover.yaml', '--variant', 'lua', '--report', join(dir, 'no-such-folder', 'r.html'));
    expect(unwritable.code).toBe(2);
    // Found before the run, not after it.
    expect(unwritable.err).toMatch(/^lock-sim: cannot write --report .*r\.html: no folder .*no-such-folder\n$/);
    expect(unwritable.out).toBe('');
  });
});

describe('lock-sim shrink', () => {
  it('writes a minimal scenario that run fails, and prints before/after sizes', () => {
    const out = join(dir, 'min.yaml');
    const r = cli('shrink', 'scenarios/watchdog-vs-gc-and-kill.yaml', '--seed', '1', '--variant', 'watchdog', '--output', out);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/faults\s+6 -> 1/);
    expect(r.out).toContain(`replay: npx lock-sim run ${out}`);
    expect(existsSync(out)).toBe(true);
    const replay = cli('run', out);
    expect(replay.code).toBe(1);
    expect(replay.out).toMatch(/FAIL {2}watchdog: lost-updates == 0/);
  });

  it('refuses a passing run and unknown failures with exit 2', () => {
    const passing = cli('shrink', 'scenarios/get-then-del.yaml', '--seed', '1', '--variant', 'lua-unlock');
    expect(passing.code).toBe(2);
    expect(passing.err).toContain('breaks no invariant');
    expect(cli('shrink', 'scenarios/failover.yaml', '--seed', '6', '--variant', 'lua', '--failure', 'meltdown').code).toBe(2);
    expect(cli('shrink', 'scenarios/failover.yaml', '--variant', 'lua').code).toBe(2); // --seed is required
  });
});
