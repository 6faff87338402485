/**
 * Shards as the engines number them: processes started with a Kubernetes Indexed Job's or an
 * AWS Batch array job's index variable merge, by folder or glob, into the unsharded output.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shardOf } from '../../src/cli/shard-options.js';
import { tallyPaths } from '../../src/cli/tally-paths.js';
import { sweepWorld } from '../helpers.js';

const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'JOB_COMPLETION_INDEX' && k !== 'AWS_BATCH_JOB_ARRAY_INDEX'));
function cli(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...base, NO_COLOR: '1', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-shards-'));
const file = join(dir, 'shop.yaml');
writeFileSync(file, sweepWorld(['  short: { lock: lua-unlock, lease: 1s, wait: 3s, retry-interval: 10ms }', '  long:  { lock: lua-unlock, lease: 5s, wait: 3s, retry-interval: 10ms }'].join('\n'), '  long: { double-holders: 0 }'));

describe('--shard-index and --shard-count', () => {
  it('count from 0: index i is the slice --shard (i+1)/n', () => {
    expect(shardOf({ shardIndex: '0', shardCount: 4 })).toEqual({ k: 1, n: 4 });
    expect(shardOf({ shardIndex: '3', shardCount: 4 })).toEqual({ k: 4, n: 4 });
    expect(shardOf({ shard: { k: 2, n: 4 } })).toEqual({ k: 2, n: 4 });
    expect(shardOf({})).toBeNull();
  });

  it('read the index from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX with "env"', () => {
    expect(shardOf({ shardIndex: 'env', shardCount: 3 }, { JOB_COMPLETION_INDEX: '2' })).toEqual({ k: 3, n: 3 });
    expect(shardOf({ shardIndex: 'env', shardCount: 3 }, { AWS_BATCH_JOB_ARRAY_INDEX: '0' })).toEqual({ k: 1, n: 3 });
    expect(shardOf({ shardIndex: 'env', shardCount: 3 }, { JOB_COMPLETION_INDEX: '1', AWS_BATCH_JOB_ARRAY_INDEX: '1' })).toEqual({ k: 2, n: 3 });
  });

  it('refuse what is missing, out of range or contradictory, saying why', () => {
    const refused = (o: Parameters<typeof shardOf>[0], env: NodeJS.ProcessEnv = {}) => {
      try {
        shardOf(o, env);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(refused({ shardIndex: '4', shardCount: 4 })).toBe('--shard-index is 4: slices count from 0, so --shard-count 4 allows 0 to 3');
    expect(refused({ shardIndex: '1' })).toContain('--shard-index needs --shard-count');
    expect(refused({ shardCount: 2 })).toContain('--shard-count needs --shard-index');
    expect(refused({ shardIndex: '-1', shardCount: 2 })).toContain('expected a whole number from 0');
    expect(refused({ shard: { k: 1, n: 2 }, shardIndex: '0', shardCount: 2 })).toContain('not both');
    expect(refused({ shardIndex: 'env', shardCount: 2 })).toContain('neither JOB_COMPLETION_INDEX nor AWS_BATCH_JOB_ARRAY_INDEX is set');
    expect(refused({ shardIndex: 'env', shardCount: 2 }, { JOB_COMPLETION_INDEX: '5' })).toBe('JOB_COMPLETION_INDEX is 5: slices count from 0, so --shard-count 2 allows 0 to 1');
    expect(refused({ shardIndex: 'env', shardCount: 2 }, { JOB_COMPLETION_INDEX: '0', AWS_BATCH_JOB_ARRAY_INDEX: '1' })).toContain('disagree');
  });
});

describe('shard processes started as the engines start them', () => {
  it('compare: three Indexed Job pods merge, by folder, into the unsharded output', () => {
    const whole = cli({}, 'compare', file, '--seeds', '1..24', '--json', '--jobs', '1');
    expect(whole.code).toBe(0);
    const out = join(dir, 'k8s');
    for (const index of [0, 1, 2]) {
      mkdirSync(join(out, `pod-${index}`), { recursive: true });
      const r = cli({ JOB_COMPLETION_INDEX: String(index) }, 'compare', file, '--seeds', '1..24', '--jobs', '1', '--shard-index', 'env', '--shard-count', '3', '--output', join(out, `pod-${index}`, 'tally.json'));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(new RegExp(`^shard ${index + 1}/3: 8 seeds run`));
    }
    const merged = cli({}, 'merge', out, '--json');
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toBe(whole.out);
  });

  it('sweep: two AWS Batch array children merge, by a quoted glob, into the unsharded output; one missing is named', () => {
    const args = ['sweep', file, '--param', 'variants.short.lease=1s,2s', '--seeds', '1..10', '--jobs', '1'];
    const whole = cli({}, ...args, '--json');
    expect(whole.code, whole.err).toBe(0);
    for (const index of [0, 1]) {
      const r = cli({ AWS_BATCH_JOB_ARRAY_INDEX: String(index) }, ...args, '--shard-index', 'env', '--shard-count', '2', '--output', join(dir, `batch-${index}.json`));
      expect(r.code, r.err).toBe(0);
    }
    const merged = cli({}, 'merge', join(dir, 'batch-*.json'), '--json');
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toBe(whole.out);
    const one = cli({}, 'merge', join(dir, 'batch-0*.json'));
    expect(one.code).toBe(2);
    expect(one.err).toContain('missing 2/2');
  });
});

describe('merge arguments', () => {
  it('a folder or glob that yields nothing, or a path that is nothing, is refused', () => {
    const empty = mkdtempSync(join(tmpdir(), 'lock-sim-empty-'));
    expect(() => tallyPaths([empty])).toThrow(`${empty}: a folder with no .json tally files in it`);
    expect(() => tallyPaths([join(empty, '*.json')])).toThrow('the glob matches no file');
    const r = cli({}, 'merge', join(empty, 'nothing.json'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('nothing.json');
  });

  it('a folder gives its .json files in name order, subfolders included, dot-folders skipped; a file given twice stays twice (merge names it)', () => {
    const d = mkdtempSync(join(tmpdir(), 'lock-sim-tallies-'));
    for (const f of ['b/2.json', 'a/1.json', '.hidden/x.json', 'a/notes.txt', 'c.json']) {
      mkdirSync(join(d, f, '..'), { recursive: true });
      writeFileSync(join(d, f), '{}');
    }
    expect(tallyPaths([d]).map((p) => p.slice(d.length + 1))).toEqual(['a/1.json', 'b/2.json', 'c.json']);
    expect(tallyPaths([join(d, 'c.json'), join(d, '*.json')]).map((p) => p.slice(d.length + 1))).toEqual(['c.json', 'c.json']);
  });
});
