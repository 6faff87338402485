/** merge reads tally files that may have been edited: shape and counts are checked, each problem at its field. */
import { describe, expect, it } from 'vitest';
import type { RunMetrics } from '../../src/checker/check-history.js';
import { shardSeeds } from '../../src/scenario/seeds.js';
import { addOutcome, emptyTally } from '../../src/sweep/compare-tally.js';
import { SHARD_FORMAT, shardRuns, validateTally } from '../../src/sweep/tally-file.js';
import { seedsIdentity } from '../../src/sweep/tally-identity.js';

const split = { count: 1, p50Us: 5, p99Us: 10 };
const flashSale: RunMetrics['flashSale'] = { soldOutUs: 3_000_000, arrivalsPerS: 2, busyShare: 0.25, latency: { ordered: split, refused: split, error: split } };
const liveness: RunMetrics['liveness'] = { verdict: 'LIVE', cause: null, quietFromUs: 0, judgedFromUs: 0, judgedRequests: 40, failedRequests: 2, busyWhileFree: 0, failedShare: 0.05, longestStallUs: 1_000, longestStallFromUs: 10 };
const metrics = (oversold: number): RunMetrics =>
  ({ oversold, doubleHolders: oversold, doubleHolderUs: 0, stuckLockUs: 0, orphanLockUs: 0, throughputPerS: 1, latencyP99Us: 10, flashSale, lostUpdates: oversold, lostUnits: 2 * oversold, liveness }) as RunMetrics;

/** Shard k of n over seeds 1..count, as compare --shard --output writes it. */
function shardFile(k: number, n: number, count = 4): Record<string, any> {
  const tally = emptyTally(['A', 'B'], 'B');
  for (const seed of shardSeeds(Array.from({ length: count }, (_, i) => i + 1), { k, n })) addOutcome(tally, { seed, metrics: [metrics(seed % 2), metrics(0)] });
  const seeds = seedsIdentity(Array.from({ length: count }, (_, i) => i + 1));
  return JSON.parse(JSON.stringify({ format: SHARD_FORMAT, version: '0.1.0', scenario: { name: 's', file: 's.yaml', fingerprint: 'f'.repeat(16), code: null }, seeds, shard: { k, n }, variants: ['A', 'B'], baseline: 'B', tally }));
}

const problems = (data: unknown): string[] => {
  const r = validateTally(data);
  return r.ok ? [] : r.problems;
};

describe('validateTally', () => {
  it('accepts what compare writes, every shard of it', () => {
    for (const k of [1, 2, 3]) expect(problems(shardFile(k, 3, 7))).toEqual([]);
    const r = validateTally(shardFile(1, 2));
    expect(r.ok && r.result.tally.variants[0].runs).toBe(2);
    expect([shardRuns(7, 1, 3), shardRuns(7, 3, 3), shardRuns(2, 3, 3)]).toEqual([3, 2, 0]);
  });

  it('refuses verdict and liveness counts that do not add up to the runs, and more lost-update runs than runs', () => {
    const f = shardFile(1, 2);
    f.tally.variants[0].verdictRuns[0] += 1;
    f.tally.variants[1].livenessRuns = [0, 0, 0];
    f.tally.variants[1].lostUpdateRuns = 9;
    expect(problems(f)).toEqual([
      'tally.variants[0].verdictRuns: counts 3 runs, not 2',
      'tally.variants[1].livenessRuns: counts 0 runs, not 2',
      'tally.variants[1].lostUpdateRuns: 9 is more than its 2 runs',
      'tally.variants[1].lostUpdatesSum: 0 lost updates cannot come from 9 runs that lost one',
    ]);
    // What compare writes adds up: seeds 1 and 3 of A oversell (UNSAFE), with a lost update each.
    const t = shardFile(1, 2).tally.variants[0];
    expect([t.verdictRuns, t.livenessRuns, t.lostUpdateRuns, t.lostUpdatesSum, t.lostUnitsSum, t.failedBasisPointsSum, t.longestStallUsSum]).toEqual([[0, 0, 0, 0, 0, 2], [2, 0, 0], 2, 2, 4, 1_000, 2_000]);
  });

  it('refuses counts that contradict each other (50 oversells out of 2 runs)', () => {
    const f = shardFile(1, 2);
    f.tally.variants[0].oversellRuns = 50;
    expect(problems(f)).toEqual([
      'tally.variants[0].oversellRuns: 50 is more than its 2 runs',
      'tally.variants[0].oversoldSum: 2 units cannot come from 50 runs that oversold',
      'tally.variants[0].oversoldHistogram: 2 runs oversold by it, 50 by oversellRuns',
    ]);
  });

  it('refuses more sold-out runs than runs, and a busy share over 100%, and keeps the flash-sale sums of each shard', () => {
    const f = shardFile(1, 2);
    expect(f.tally.variants[0]).toMatchObject({ soldOutRuns: 2, soldOutUsSum: 6_000_000, arrivalsCentsSum: 400, busyBasisPointsSum: 5_000, p99OrderedUsSum: 20 });
    expect(problems(f)).toEqual([]);
    f.tally.variants[0].soldOutRuns = 3;
    f.tally.variants[0].busyBasisPointsSum = 20_001;
    expect(problems(f)).toEqual([
      'tally.variants[0].soldOutRuns: 3 is more than its 2 runs',
      'tally.variants[0].busyBasisPointsSum: 20001 is more than 100% in each of its 2 runs',
    ]);
  });

  it('refuses a count written as a string, and a missing field, by path', () => {
    const f = shardFile(1, 2);
    f.tally.variants[1].runs = '5';
    delete f.tally.paired[0].oversell;
    expect(problems(f)).toEqual([
      'tally.variants[1].runs: Invalid input: expected number, received string',
      'tally.paired[0].oversell: Invalid input: expected object, received undefined',
    ]);
  });

  it('refuses a name no scenario could give (over 100 characters)', () => {
    const f = shardFile(1, 2);
    f.variants[0] = 'A'.repeat(101);
    expect(problems(f)).toContain('variants[0]: Too big: expected string to have <=100 characters');
  });

  it('refuses a 1/2 shard relabelled 1/1: its runs are not every seed', () => {
    const f = shardFile(1, 2);
    f.shard = { k: 1, n: 1 };
    expect(problems(f)).toContain('tally.variants[0].runs: 2 runs, but shard 1/1 of 4 seeds runs 4');
    f.shard = { k: 3, n: 2 };
    expect(problems(f)).toContain('shard: 3/2 is not one of 1/2..2/2');
  });
});
