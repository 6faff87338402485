/** compare's tallies and summary against a hand-computed example; merge; seed specs. */
import { describe, expect, it } from 'vitest';
import type { RunMetrics } from '../../src/checker/check-history.js';
import { parseSeedSpec, shardSeeds } from '../../src/scenario/seeds.js';
import { addOutcome, emptyTally, mergeTally } from '../../src/sweep/compare-tally.js';
import { mergeCompareResults, seedsLabel, summarise, type CompareResult } from '../../src/sweep/compare-variants.js';
import { meanInterval, wilson } from '../../src/sweep/stats.js';

function metrics(m: Partial<RunMetrics>): RunMetrics {
  return {
    requests: 0, orders: 0, unitsSold: 0, outcomes: {} as RunMetrics['outcomes'], timeouts: 0, oversold: 0, negativeStock: 0, lostUpdates: 0,
    refusedWrites: 0, casConflicts: 0, fenceRejections: 0, duplicateOrders: 0, staleTokens: 0, doubleHolders: 0, doubleHolderUs: 0,
    firstDoubleHolderUs: -1, lastDoubleHolderUs: -1, maxHolders: 0, lockLost: 0, foreignUnlocks: 0, stuckLockUs: 0, orphanLockUs: 0, renewals: 0,
    renewalFailures: 0, throughputPerS: 0, requestsPerS: 0, latencyP50Us: 0, latencyP99Us: 0, lostUnits: 0,
    flashSale: { soldOutUs: -1, arrivalsPerS: 0, busyShare: 0, latency: { ordered: { count: 0, p50Us: 0, p99Us: 0 }, refused: { count: 0, p50Us: 0, p99Us: 0 }, error: { count: 0, p50Us: 0, p99Us: 0 } } },
    liveness: { verdict: 'LIVE', cause: null, quietFromUs: 0, judgedFromUs: 0, judgedRequests: 0, failedRequests: 0, busyWhileFree: 0, failedShare: 0, longestStallUs: 0, longestStallFromUs: -1 },
    ...m,
  };
}

// Variant A against baseline B on four seeds.
const outcomes = [
  { seed: 1, metrics: [metrics({ oversold: 2, doubleHolders: 1, throughputPerS: 1.5, latencyP99Us: 1000 }), metrics({ throughputPerS: 1, latencyP99Us: 2000 })] },
  { seed: 2, metrics: [metrics({ throughputPerS: 2, latencyP99Us: 3000 }), metrics({ doubleHolders: 1, throughputPerS: 1, latencyP99Us: 2000 })] },
  { seed: 3, metrics: [metrics({ oversold: 3, doubleHolders: 2, doubleHolderUs: 500, throughputPerS: 1.25, latencyP99Us: 1000, stuckLockUs: 40 }), metrics({ throughputPerS: 2, latencyP99Us: 2000 })] },
  { seed: 4, metrics: [metrics({ oversold: 3, doubleHolders: 2, doubleHolderUs: 700, throughputPerS: 1.25, latencyP99Us: 1000 }), metrics({ oversold: 1, doubleHolders: 1, throughputPerS: 1, latencyP99Us: 2000 })] },
];

function result(order: typeof outcomes): CompareResult {
  const tally = emptyTally(['A', 'B'], 'B');
  for (const o of order) addOutcome(tally, o);
  return { version: '0.1.0', scenario: { name: 's', file: 's.yaml', fingerprint: 'f', code: null }, seeds: { label: '1..4', count: 4, sha256: 'h' }, shard: null, variants: ['A', 'B'], baseline: 'B', tally };
}

describe('stats', () => {
  it('gives the Wilson interval of textbook examples', () => {
    const w = wilson(2, 10);
    expect(w.estimate).toBe(0.2);
    expect(w.low).toBeCloseTo(0.05668, 5);
    expect(w.high).toBeCloseTo(0.50984, 5);
    expect(wilson(0, 10).high).toBeCloseTo(0.27753, 5);
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(10, 10).low).toBeCloseTo(0.72247, 5);
  });
  it('gives a mean and a 95% interval from sums: Student t for few runs, normal for many', () => {
    // 2, 0, 3, 2: mean 1.75, sample variance 4.75 / 3, t(3) = 3.182
    const i = meanInterval(4, 7, 4 + 0 + 9 + 4);
    expect(i.estimate).toBe(1.75);
    expect(i.low).toBeCloseTo(1.75 - 3.182 * Math.sqrt(4.75 / 3 / 4), 6);
    expect(i.high).toBeCloseTo(1.75 + 3.182 * Math.sqrt(4.75 / 3 / 4), 6);
    // 100 runs of 0 and 1 alternating: normal, z = 1.96
    const many = meanInterval(100, 50, 50);
    expect(many.high - many.estimate).toBeCloseTo(1.959964 * Math.sqrt(25 / 99 / 100), 6);
  });
});

describe('compare summary', () => {
  it('matches the hand-computed example', () => {
    const s = summarise(result(outcomes));
    const [a, b] = s.variants;
    expect(a).toMatchObject({ variant: 'A', runs: 4, oversoldMean: 2, oversoldMax: 3, stuckMeanUs: 10, throughputMean: 1.5, p99MeanUs: 1500 });
    expect(a.oversell).toEqual({ estimate: 0.75, low: 0.3006, high: 0.9544 });
    expect(a.doubleHolders.estimate).toBe(0.75);
    // Seeds 3 and 4 tie on oversold and double holders; seed 4's overlap lasted longer.
    expect(a.worst).toEqual({ seed: 4, oversold: 3, doubleHolders: 2, replay: 'npx lock-sim run s.yaml --seed 4 --variant A' });
    expect(b).toMatchObject({ oversoldMean: 0.25, oversoldMax: 1, throughputMean: 1.25 });
    expect(b.oversell.estimate).toBe(0.25);
    const [p] = s.paired;
    expect(p).toMatchObject({ variant: 'A', baseline: 'B', runs: 4 });
    // t(3) = 3.182 for four paired runs.
    expect(p.oversold).toEqual({ estimate: 1.75, low: -0.252, high: 3.752 });
    // The t interval would reach 1.4186; a difference of probabilities stops at 1.
    expect(p.oversell).toEqual({ estimate: 0.5, low: -0.4186, high: 1 });
    expect(p.throughput).toEqual({ estimate: 0.25, low: -0.92, high: 1.42 });
  });

  it('does not depend on the order in which seeds finish', () => {
    const forward = JSON.stringify(summarise(result(outcomes)));
    const backward = JSON.stringify(summarise(result([...outcomes].reverse())));
    expect(backward).toBe(forward);
  });

  it('merges shards into exactly the unsharded tally, and refuses incomplete or foreign sets', () => {
    const whole = result(outcomes);
    const part = (k: number): CompareResult => {
      const tally = emptyTally(['A', 'B'], 'B');
      for (const o of outcomes.filter((_, i) => i % 2 === k - 1)) addOutcome(tally, o);
      return { ...whole, shard: { k, n: 2 }, tally };
    };
    const merged = mergeCompareResults([part(2), part(1)]);
    expect(JSON.stringify(summarise(merged))).toBe(JSON.stringify(summarise(whole)));
    expect(() => mergeCompareResults([part(1)])).toThrow('missing 2/2');
    expect(() => mergeCompareResults([part(1), part(1), part(2)])).toThrow('given twice 1/2 (part 1, part 2)');
    expect(() => mergeCompareResults([part(1), { ...part(2), scenario: { ...whole.scenario, fingerprint: 'other' } }])).toThrow('part 2: scenario.fingerprint: a tally of another scenario');
    const t = emptyTally(['A', 'B'], 'B');
    mergeTally(t, whole.tally);
    expect(t).toEqual(whole.tally);
  });
});

describe('seed specs and shards', () => {
  it('parses ranges, counts and lists, and refuses the rest', () => {
    expect(parseSeedSpec('3..6')).toEqual({ ok: true, value: [3, 4, 5, 6] });
    expect(parseSeedSpec('4')).toEqual({ ok: true, value: [1, 2, 3, 4] });
    expect(parseSeedSpec(4)).toEqual({ ok: true, value: [1, 2, 3, 4] });
    expect(parseSeedSpec('7, 3,9')).toEqual({ ok: true, value: [7, 3, 9] });
    for (const bad of ['6..3', '0', '1..2000000', 'abc', '1,1', '-5', '']) expect(parseSeedSpec(bad).ok).toBe(false);
  });
  it('splits seeds into shards that cover them once', () => {
    const seeds = [1, 2, 3, 4, 5, 6, 7];
    const parts = [1, 2, 3].map((k) => shardSeeds(seeds, { k, n: 3 }));
    expect(parts).toEqual([[1, 4, 7], [2, 5], [3, 6]]);
    expect(seedsLabel(seeds)).toBe('1..7');
    expect(seedsLabel([3, 9])).toBe('2 seeds');
  });
});
