/**
 * scenarios/fair-lock-waiters-dropped.yaml: the failure is the one its header names. Behind the
 * 40 s holder the first waiters are dropped from the fair queue once threadWaitTime (5 s) has
 * passed their entry's estimate; on 3.12.5 (and 3.30.0 with 5 s) they were told a negative ttl,
 * so they wait for an unlock message that goes to the queue head only, and are still waiting when
 * the run ends while every later arrival gets the lock; on 4.7.0 with the same 5 s they rejoin at
 * the end and all finish; with 4.7.0's 5 minutes the lock goes in arrival order.
 */
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import type { Operation } from '../../src/history/operation.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/fair-lock-waiters-dropped.yaml');
const variant = (name: string) => scenario.variants.find((v) => v.name === name)!;
const slowFromUs = scenario.faults[0].atUs;

/** Requests whose acquire was invoked and never answered. */
const neverAnswered = (history: readonly Operation[]): string[] => {
  const waiting = new Set<string>();
  for (const op of history) {
    if (op.f !== 'acquire') continue;
    if (op.type === 'invoke') waiting.add(op.request);
    else waiting.delete(op.request);
  }
  return [...waiting];
};

describe('fair-lock-waiters-dropped', () => {
  it.each(['fair-3.12', 'fair-3.30-5s'])('%s: waiters that queued behind the 40 s holder never get the lock while later arrivals do', (name) => {
    const r = runVariant(scenario, variant(name));
    expect(r.metrics.starvedWaiters).toBeGreaterThan(0);
    expect(r.metrics.outcomes.unknown).toBe(r.metrics.starvedWaiters);
    const focus = focusViolation(r.violations)!;
    expect(focus.kind).toBe('fifo-overtaken');
    const [earlier, later] = focus.requests;
    // The one overtaken first is a waiter that asked once the holder's 40 s risk check had begun, and never got the lock.
    expect(neverAnswered(r.history)).toContain(earlier);
    const starved = r.violations.find((v) => v.kind === 'waiter-starved')!;
    expect(starved.requests[0]).toBe(earlier);
    expect(starved.summary).toMatch(new RegExp(`^${earlier} of client-\\d/w\\d+ asked for lock:stock:10071 at (\\d+\\.\\d+)s and never got it \\(still waited when the run ended at 180s\\), while the lock went to \\d+ later arrivals \\(the first ${later} at `));
    const askedUs = r.history.find((op) => op.f === 'acquire' && op.type === 'invoke' && op.request === earlier)!.timeUs;
    expect(askedUs).toBeGreaterThan(slowFromUs);
    expect(askedUs).toBeLessThan(slowFromUs + 5_000_000);
    const lines = tellStory(focus, r.history).lines.map((l) => `${l.who}: ${l.what}`);
    expect(lines).toContain('nemesis: slow-call start: latency now 40s');
    expect(lines.some((l) => new RegExp(`: ${earlier} asks for lock:stock:10071 and joins its waiters$`).test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(new RegExp(`: ${later} acquired lock:stock:10071 \\(lease 30s\\)$`));
  });

  it('fair-4.7-5s: the same waiters are dropped but rejoin the queue at its end (3.32.0+): out of order, none left waiting', () => {
    const r = runVariant(scenario, variant('fair-4.7-5s'));
    expect(r.metrics).toMatchObject({ starvedWaiters: 0, doubleHolders: 0 });
    expect(r.metrics.fifoOvertakes).toBeGreaterThan(0);
    expect(neverAnswered(r.history)).toEqual([]);
  });

  it('fair-4.7: threadWaitTime 5 minutes drops nobody, the lock goes in arrival order', () => {
    const r = runVariant(scenario, variant('fair-4.7'));
    expect(r.metrics).toMatchObject({ starvedWaiters: 0, fifoOvertakes: 0, doubleHolders: 0 });
    expect(r.violations).toEqual([]);
    expect(neverAnswered(r.history)).toEqual([]);
  });
});
