/**
 * scenarios/multilock-opposite-order.yaml: the failure is the one its header names. The two
 * carts of each pair take their first SKU at once and each waits for the other's; lock() gives
 * both back after its 3 s round and starts over, tryLock(2 s) gives up; the same carts taken in
 * one order (lock-order: sorted) never hold a lock while they wait.
 */
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/multilock-opposite-order.yaml');
const variant = (name: string) => scenario.variants.find((v) => v.name === name)!;

describe('multilock-opposite-order', () => {
  const asGiven = runVariant(scenario, variant('as-given'));
  const tries = runVariant(scenario, variant('try-2s'));
  const sorted = runVariant(scenario, variant('sorted'));

  it('as given: the first pair each hold one SKU and wait for the other, give back after lock()\'s 3 s round, and every order still goes through', () => {
    expect(asGiven.metrics).toMatchObject({ orders: 24, oversold: 0, doubleHolders: 0, maxLocksHeldWhileWaiting: 1 });
    expect(asGiven.metrics.partialHoldsGivenBack).toBeGreaterThanOrEqual(12);
    const focus = focusViolation(asGiven.violations)!;
    expect(focus).toMatchObject({ kind: 'partial-hold', timeUs: 1_001_000 });
    // n x 1500 ms: lock()'s tryLock round for two locks (RedissonMultiLock.lockInterruptibly).
    expect(focus.summary).toMatch(/^r[12] \(client-[12]\/w1\) held lock:stock:1003[78] of its 2 locks, waiting for lock:stock:1003[78] \(held by r[12], which waits for lock:stock:1003[78]: each waits for the other\), from 1\.001s and gave it back at 4\.00\d+s without the lock/);
    const story = tellStory(focus, asGiven.history);
    expect(story.lines[0].what).toMatch(/^lock:stock:1003[78] held by r[12]/);
    expect(asGiven.metrics.latencyP99Us).toBeGreaterThan(5_000_000);
  });

  it('tryLock(2 s): each request gives up after its wait with one SKU held, and nothing is ordered', () => {
    expect(tries.metrics).toMatchObject({ orders: 0, partialHolds: 24, partialHoldsGivenBack: 24 });
    expect(tries.metrics.outcomes['lock-busy']).toBe(24);
    // Refused with nobody inside: both carts hold a partial lock and neither enters.
    expect(tries.metrics.liveness.verdict).toBe('UNAVAILABLE');
    expect(tries.metrics.liveness.busyWhileFree).toBe(24);
  });

  it('sorted: no partial hold is given back, each partial hold lasts a round trip, and every order goes through fast', () => {
    expect(sorted.metrics).toMatchObject({ orders: 24, partialHoldsGivenBack: 0, givenBackHoldUs: 0, oversold: 0 });
    expect(sorted.violations).toEqual([]);
    expect(sorted.metrics.partialHoldUs! / sorted.metrics.partialHolds!).toBeLessThan(5_000);
    expect(sorted.metrics.latencyP99Us).toBeLessThan(1_000_000);
  });
});
