/**
 * check over many machines: shards write expectation tallies (check --shard-index --tally),
 * merge adds them up and judges them: the report and exit code of the unsharded check.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepWorld } from '../helpers.js';

const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'JOB_COMPLETION_INDEX' && k !== 'AWS_BATCH_JOB_ARRAY_INDEX'));
function cli(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...base, NO_COLOR: '1', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-check-shards-'));
const at = (f: string) => join(dir, f);
const VARIANTS = ['  short: { lock: lua-unlock, lease: 1s, wait: 3s, retry-interval: 10ms }', '  long:  { lock: lua-unlock, lease: 5s, wait: 3s, retry-interval: 10ms }'].join('\n');
// Holds: long never double-holds. Fails: short does on some seeds (a 1 s lease against 0.5-1.5 s of work).
writeFileSync(at('holds.yaml'), sweepWorld(VARIANTS, '  long: { double-holders: 0, "p(orders > 0)": 1 }', '1..10'));
writeFileSync(at('fails.yaml'), sweepWorld(VARIANTS, '  short: { double-holders: 0, "mean(double-holders)": "< 100" }', '1..10'));

/** Three shards as a Kubernetes Indexed Job runs them, each tally in a folder of its own. */
function shards(files: string[], folder: string, extra: string[] = []): void {
  for (const index of [0, 1, 2]) {
    mkdirSync(at(`${folder}/pod-${index}`), { recursive: true });
    const r = cli({ JOB_COMPLETION_INDEX: String(index) }, 'check', ...files, '--jobs', '1', '--shard-index', 'env', '--shard-count', '3', '--tally', at(`${folder}/pod-${index}/tally.json`), ...extra);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`^shard ${index + 1}/3: ${files.length} scenarios, \\d+ seeds? run, tallies written to `));
  }
}

describe('check shards judged by merge', () => {
  it('a passing set: the merged report and exit 0 are the unsharded check\'s, in every format', () => {
    const files = [at('holds.yaml')];
    const whole = cli({}, 'check', ...files, '--jobs', '1');
    expect(whole.code).toBe(0);
    shards(files, 'pass');
    const merged = cli({}, 'merge', at('pass'));
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toBe(whole.out);
    const junit = cli({}, 'merge', at('pass'), '--format', 'junit', '--output', at('merged.xml'));
    expect(junit.code).toBe(0);
    cli({}, 'check', ...files, '--jobs', '1', '--format', 'junit', '--output', at('whole.xml'));
    expect(readFileSync(at('merged.xml'), 'utf8')).toBe(readFileSync(at('whole.xml'), 'utf8'));
    expect(cli({}, 'merge', at('pass'), '--format', 'json').out).toBe(cli({}, 'check', ...files, '--jobs', '1', '--format', 'json').out);
  });

  it('a failing expectation: merge exits 1 with the failure and the replay command of the unsharded check', () => {
    const files = [at('holds.yaml'), at('fails.yaml')];
    const whole = cli({}, 'check', ...files, '--jobs', '1');
    expect(whole.code).toBe(1);
    expect(whole.out).toMatch(/FAIL {2}short: double-holders == 0/);
    shards(files, 'fail');
    const merged = cli({}, 'merge', join(at('fail'), '*', 'tally.json'));
    expect(merged.code).toBe(1);
    expect(merged.out).toBe(whole.out);
  });

  it('explore: expectations run once, in shard 1, and merge carries their verdict', () => {
    const files = [resolve('scenarios/explore/setnx-crash-window.yaml'), at('holds.yaml')];
    const whole = cli({}, 'check', ...files, '--jobs', '1');
    expect(whole.out).toContain('explore violations');
    shards(files, 'explore');
    const merged = cli({}, 'merge', at('explore'));
    expect(merged.code, merged.err).toBe(whole.code);
    expect(merged.out).toBe(whole.out);
    const second = JSON.parse(readFileSync(at('explore/pod-1/tally.json'), 'utf8'));
    expect(second.scenarios[0].explored).toEqual([]);
  });

  it('refuses a shard missing, a tally of another scenario, a mix with a compare tally, and a hand-edited count', () => {
    shards([at('holds.yaml')], 'a');
    const missing = cli({}, 'merge', at('a/pod-0/tally.json'), at('a/pod-1/tally.json'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing 3/3');
    writeFileSync(at('other.yaml'), readFileSync(at('holds.yaml'), 'utf8').replace('available: 1000', 'available: 999'));
    const r = cli({ JOB_COMPLETION_INDEX: '2' }, 'check', at('other.yaml'), '--jobs', '1', '--shard-index', 'env', '--shard-count', '3', '--tally', at('other-2.json'));
    expect(r.code).toBe(0);
    const other = cli({}, 'merge', at('a/pod-0/tally.json'), at('a/pod-1/tally.json'), at('other-2.json'));
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/other-2\.json: scenarios\[0\] \(.*other\.yaml\): scenario\.fingerprint: a tally of another scenario/);
    expect(cli({}, 'compare', at('holds.yaml'), '--seeds', '1..4', '--shard', '1/2', '--output', at('c.json'), '--jobs', '1').code).toBe(0);
    const mixed = cli({}, 'merge', at('a/pod-0/tally.json'), at('c.json'));
    expect(mixed.code).toBe(2);
    expect(mixed.err).toContain('c.json: format: not a check tally');
    const edited = JSON.parse(readFileSync(at('a/pod-1/tally.json'), 'utf8'));
    edited.scenarios[0].tallies[0].runs += 1;
    writeFileSync(at('edited.json'), JSON.stringify(edited));
    const bad = cli({}, 'merge', at('a/pod-0/tally.json'), at('edited.json'), at('a/pod-2/tally.json'));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/edited\.json: scenarios\[0\]\.tallies\[0\]\.runs: 4 runs, but shard 2\/3 of 10 seeds runs 3/);
  });

  it('a shard needs --tally, --tally needs a shard, and a shard takes no --output', () => {
    const f = at('holds.yaml');
    expect(cli({}, 'check', f, '--shard-index', '0', '--shard-count', '2').err).toContain('needs --tally <file>');
    expect(cli({}, 'check', f, '--tally', at('t.json')).err).toContain('--tally writes the tallies of a shard');
    expect(cli({}, 'check', f, '--shard', '1/2', '--tally', at('t.json'), '--output', at('o.xml')).err).toContain('a shard judges nothing');
    expect(cli({}, 'check', f, '--format', 'junt').err).toContain('unknown format "junt" (did you mean "junit"?)');
  });
});
