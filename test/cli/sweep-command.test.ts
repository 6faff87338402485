/** lock-sim sweep through the built bin: same bytes for any --jobs, shards merge, bad params exit 2 located, run --param replays a cell. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-sweepcmd-'));
const file = join(dir, 'section.yaml');
writeFileSync(
  file,
  `# A fixed 3s critical section against a lease (test world).
name: fixed-section
duration: 20s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 4, arrival: 4/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 3s }
variants:
  lease: { lock: lua-unlock, lease: 1s }
  cond:  { lock: lua-unlock, lease: 1s, guard: conditional }
`,
);
const grid = ['--param', 'variants.lease.lease=2s,4s', '--param', 'dependencies.work=1s,3s', '--seeds', '1..4'];

describe('lock-sim sweep', () => {
  it('prints the same JSON with 1 and 2 worker threads, and the same after merging shards', () => {
    const one = cli('sweep', file, ...grid, '--jobs', '1', '--json');
    const two = cli('sweep', file, ...grid, '--jobs', '2', '--json');
    expect(one.code).toBe(0);
    expect(two.out).toBe(one.out);
    const json = JSON.parse(one.out);
    expect(json.axes.map((a: { path: string }) => a.path)).toEqual(['variants.lease.lease', 'dependencies.work']);
    expect(json.cells).toHaveLength(4);
    const shards = [1, 2].map((k) => {
      const out = join(dir, `shard-${k}.json`);
      expect(cli('sweep', file, ...grid, '--jobs', '1', '--shard', `${k}/2`, '--output', out).code).toBe(0);
      return out;
    });
    const merged = cli('merge', ...shards, '--json');
    expect(merged.code).toBe(0);
    expect(merged.out).toBe(one.out);
  });

  it('prints a table per metric and writes an HTML heatmap', () => {
    const report = join(dir, 'sweep.html');
    const r = cli('sweep', file, ...grid, '--jobs', '1', '--report', report);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/P\(double holders\) of lease/);
    expect(r.out).toMatch(/lease \\ work/);
    const html = readFileSync(report, 'utf8');
    expect(html).toMatch(/<h2>P\(oversell\)<\/h2>/);
    expect((html.match(/<g class="cell">/g) ?? []).length).toBe(4 * 2 * 5);
  });

  it('finds the boundary and prints the replay of the worst run on the failing side, which run --param replays', () => {
    const report = join(dir, 'find.html');
    const r = cli('sweep', file, '--param', 'variants.lease.lease=1s..6s/11', '--seeds', '1..3', '--variants', 'lease', '--find', 'p(double-holders > 0) <= 0.01', '--jobs', '1', '--report', report);
    expect(r.code).toBe(0);
    // --report draws the cells the search ran (it wrote nothing, and said nothing, before).
    expect(r.out).toContain(`report written to ${report}`);
    const html = readFileSync(report, 'utf8');
    expect(html).toMatch(/--find &quot;p\(double-holders &gt; 0\) &lt;= 0\.01&quot; along variants\.lease\.lease: the \d of its 11 values the search ran\. lease: flips between 2500ms and 3s\./);
    expect(html).toContain('variants.lease.lease=2500ms');
    expect(r.out).toMatch(/lease: boundary between variants\.lease\.lease=2500ms \(fails: 100\.0%/);
    const replay = /npx lock-sim run (\S+) --seed (\d+) --variant lease --param (variants\.lease\.lease=2500ms)/.exec(r.out);
    expect(replay).not.toBeNull();
    const run = cli('run', file, '--seed', replay![2], '--variant', 'lease', '--param', replay![3], '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).variants[0].metrics.doubleHolders).toBeGreaterThan(0);
    const kept = cli('run', file, '--seed', replay![2], '--variant', 'lease', '--param', 'variants.lease.lease=4s', '--json');
    expect(JSON.parse(kept.out).variants[0].metrics.doubleHolders).toBe(0);
  });

  it('exits 2 with the place in the file for an unknown path, a bad value or a bad range', () => {
    const unknown = cli('sweep', file, '--param', 'variants.leese.lease=1s,2s', '--seeds', '1');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/section\.yaml:8:3: --param variants\.leese\.lease: variants has no "leese" \(did you mean "lease"\?\)/);
    const bad = cli('sweep', file, '--param', 'variants.lease.lease=1s,-2s', '--seeds', '1');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/section\.yaml:8:\d+: --param variants\.lease\.lease=-2s: variants\.lease\.lease: a duration cannot be negative/);
    const range = cli('sweep', file, '--param', 'variants.lease.lease=5s..1s/3', '--seeds', '1');
    expect(range.code).toBe(2);
    // Located at the field like any other --param problem (it was commander's unlocated message).
    expect(range.err).toMatch(/^\S*section\.yaml:8:\d+: --param variants\.lease\.lease=5s\.\.1s\/3: a range runs upwards, found "5s\.\.1s"\n$/);
    expect(cli('sweep', file, '--param', 'variants.lease.lease=1s..5s/1', '--seeds', '1').err).toMatch(/section\.yaml:8:\d+: --param variants\.lease\.lease=1s\.\.5s\/1: a range has 2 to 200 values/);
    expect(cli('sweep', file, '--seeds', '1').code).toBe(2);
    expect(cli('run', file, '--param', 'variants.lease.lease=1s,2s').err).toMatch(/run takes one value/);
    expect(cli('sweep', file, '--param', 'variants.lease.lease=1s,2s', '--seeds', '1', '--jobs', '1').code).toBe(0);
    const unordered = cli('sweep', file, '--param', 'variants.lease.lease=3s,1s,2s', '--seeds', '1', '--find', 'p(oversold > 0) <= 0.1');
    expect(unordered.code).toBe(2);
    expect(unordered.err).toMatch(/--find bisects variants\.lease\.lease in order/);
    expect(cli('sweep', file, '--param', 'variants.lease.lease=1s,2s,3s', '--seeds', '1', '--jobs', '1', '--find', 'p(oversold > 0) <= 0.1').code).toBe(0);
  });
});
