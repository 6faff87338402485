/**
 * The mutex's busy-while-free judge (counters, no record of finished holds) against the
 * general one that keeps every hold as a span and sweeps them (busy-while-free-permits.ts,
 * with one permit): generated lock works on two keys, with many events at one instant, in
 * every order the ledger may hear them. Beside it, hand-written cases each judge must get.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CriticalSection, RequestFacts } from '../../../src/checker/observer.js';
import { MutexBusyWhileFree, type RefusalJudge } from '../../../src/checker/observers/busy-while-free.js';
import { PermitsBusyWhileFree } from '../../../src/checker/observers/busy-while-free-permits.js';
import { UnexplainedRefusals } from '../../../src/checker/observers/unexplained-refusals.js';

type Ending = 'held' | 'refused' | 'failed' | 'unknown';

interface Work {
  key: number;
  fromUs: number;
  ending: Ending;
  /** held: section open from fromUs + d1 for d2; its work ends d3 after that, its request d4 after. Else: its request ends d1 after fromUs. */
  d: [number, number, number, number];
  /** held: its section is still open when its request ends. */
  openAtEnd: boolean;
}

type Step = { atUs: number; act: (j: RefusalJudge) => void };

/** The judge's hooks of one work, in its own order. */
function stepsOf(w: Work, id: string): Step[] {
  const key = `k${w.key}`;
  const facts = { id, request: id, key, fromUs: w.fromUs, toUs: Infinity, invokeUs: w.fromUs } as RequestFacts;
  facts.work = facts;
  const steps: Step[] = [{ atUs: w.fromUs, act: (j) => j.workStarted(facts) }];
  const [d1, d2, d3, d4] = w.d;
  if (w.ending !== 'held') {
    const endUs = w.fromUs + d1;
    steps.push({
      atUs: endUs,
      act: (j) => {
        if (w.ending !== 'unknown') facts.toUs = endUs;
        j.requestEnded(facts, w.ending === 'unknown' ? null : endUs, w.ending === 'refused', endUs);
      },
    });
    return steps;
  }
  const section: CriticalSection = { request: id, thread: `t-${id}`, client: 'c', key, startUs: w.fromUs + d1, endUs: NaN, shared: false };
  steps.push({ atUs: section.startUs, act: (j) => j.sectionOpened(section) });
  const closeUs = section.startUs + d2;
  if (!w.openAtEnd) steps.push({ atUs: closeUs, act: (j) => j.sectionClosed(section) });
  const endUs = closeUs + d3 + d4;
  steps.push({
    atUs: endUs,
    act: (j) => {
      facts.toUs = w.openAtEnd ? endUs : closeUs + d3;
      j.requestEnded(facts, endUs, false, endUs);
    },
  });
  return steps;
}

/** Every step in time order; at one instant, in the order `ties` gives (each work's own steps kept in order). */
function schedule(works: Work[], ties: number[]): Step[] {
  const perWork = works.map((w, i) => stepsOf(w, `r${i}`));
  const all = perWork.flatMap((steps, i) => steps.map((s, k) => ({ atUs: s.atUs, work: i, tie: ties[(i * 7 + k) % ties.length] })));
  all.sort((a, b) => a.atUs - b.atUs || a.tie - b.tie);
  // The n-th place a work appears in gets its n-th step (same times, its own order).
  const next = works.map(() => 0);
  return all.map((slot) => perWork[slot.work][next[slot.work]++]);
}

const workArb: fc.Arbitrary<Work> = fc.record({
  key: fc.integer({ min: 0, max: 1 }),
  fromUs: fc.integer({ min: 0, max: 40 }),
  ending: fc.constantFrom<Ending>('held', 'refused', 'refused', 'failed', 'unknown'),
  d: fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 8 })),
  openAtEnd: fc.boolean(),
});

function judged(make: (sink: UnexplainedRefusals) => RefusalJudge, steps: Step[], sinceUs: number[]): number[] {
  const unexplained = new UnexplainedRefusals();
  const judge = make(unexplained);
  for (const s of steps) s.act(judge);
  judge.finish();
  return sinceUs.map((since) => unexplained.count(since));
}

describe('busy-while-free for a mutex', () => {
  it('counts what the span sweep with one permit counts, on generated works in any order of one instant', () => {
    fc.assert(
      fc.property(fc.array(workArb, { maxLength: 30 }), fc.array(fc.integer(), { minLength: 1, maxLength: 20 }), (works, ties) => {
        const steps = schedule(works, ties);
        const since = [0, 10, 25];
        expect(judged((u) => new MutexBusyWhileFree(u), steps, since)).toEqual(judged((u) => new PermitsBusyWhileFree(1, u), steps, since));
      }),
      { numRuns: 2000, seed: 30 },
    );
  });

  const refused = (fromUs: number, d1: number): Work => ({ key: 0, fromUs, ending: 'refused', d: [d1, 0, 0, 0], openAtEnd: false });
  const held = (fromUs: number, openAfter: number, forUs: number, releaseUs: number, endAfter = 0): Work => ({ key: 0, fromUs, ending: 'held', d: [openAfter, forUs, releaseUs, endAfter], openAtEnd: false });
  const count = (works: Work[]): number => judged((u) => new MutexBusyWhileFree(u), schedule(works, [0]), [0])[0];

  it('explains a refusal met by a hold, open or ended, and by one whose acquire was on its way', () => {
    expect(count([held(0, 1, 10, 1), refused(2, 3)])).toBe(0);
    expect(count([held(0, 1, 2, 1), refused(3, 5)])).toBe(0);
    // The holder's acquire began before the refusal was answered; its section opened after.
    expect(count([held(0, 10, 5, 1), refused(2, 3)])).toBe(0);
    // Released the instant the refused acquire began (spans that touch meet), its request ending after the refusal.
    expect(count([held(0, 1, 2, 0, 5), refused(3, 2)])).toBe(0);
  });

  it('leaves unexplained a refusal no hold met: after the release, or with only contenders that never held', () => {
    expect(count([held(0, 1, 2, 1), refused(5, 2)])).toBe(1);
    expect(count([refused(0, 4), refused(1, 4), refused(2, 1)])).toBe(3);
    // A work begun after the refusal's answer does not explain it.
    expect(count([refused(0, 2), held(3, 0, 5, 1)])).toBe(1);
  });
});
