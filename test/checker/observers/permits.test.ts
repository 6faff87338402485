/**
 * Leaked permits on hand-written semaphore histories: each leak next to the case that must not
 * count as one (a permit given back, a lease that ran out in time, a holder still at work).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { brokenInvariants, safetyOf } from '../../../src/checker/verdict.js';
import { end, fault, history, lockOp, requestOp, setup, type Entry } from '../histories.js';

const K = 'lock:stock:1';

/** r takes a permit at `from` on client-N/w1 (lease in ms, or none). */
const take = (request: string, from: number, o: { client?: string; leaseMs?: number | null } = {}): Entry[] => {
  const client = o.client ?? 'client-1';
  const thread = `${client}/${request}`;
  return [
    [from, requestOp('invoke', request, { client })],
    [from, lockOp('acquire', 'invoke', request, { thread })],
    [from, lockOp('acquire', 'ok', request, { thread, leaseMs: o.leaseMs ?? null })],
  ];
};
const giveBack = (request: string, at: number, type: 'ok' | 'fail' | 'info' = 'ok', client = 'client-1'): Entry[] => [
  [at, lockOp('release', 'invoke', request, { thread: `${client}/${request}` })],
  [at + 1, lockOp('release', type, request, { thread: `${client}/${request}`, ...(type === 'fail' ? { detail: 'refused' } : {}) })],
  [at + 2, requestOp(type === 'info' ? 'info' : 'ok', request, { client, outcome: 'ordered' })],
];
const crash = (client: string, at: number): Entry => [at, fault('crash', 'start', client, 'kill -9')];

function judge(entries: Entry[], permits: number | null = 2, endUs = 10_000_000) {
  const { metrics: m, violations } = checkHistory(history([[0, setup(permits === null ? {} : { permits })], ...entries, [endUs, end()]]));
  return { leaked: m.permitsLeaked, leakedUs: m.leakedPermitUs, expired: m.permitsExpired, first: violations.find((v) => v.kind === 'permit-leak') ?? null, m };
}

describe('leaked permits', () => {
  it('counts nothing when every permit is given back', () => {
    const r = judge([...take('r1', 1_000), ...take('r2', 2_000), ...giveBack('r1', 5_000), ...giveBack('r2', 6_000)]);
    expect(r).toMatchObject({ leaked: 0, leakedUs: 0, expired: 0, first: null });
  });

  it('counts a permit without lease whose holder crashed, from the crash to the end', () => {
    const r = judge([...take('r1', 1_000, { client: 'client-1' }), ...take('r2', 2_000, { client: 'client-2' }), ...giveBack('r2', 3_000, 'ok', 'client-2'), crash('client-1', 4_000)]);
    expect(r).toMatchObject({ leaked: 1, leakedUs: 10_000_000 - 4_000, expired: 0 });
    expect(r.first).toEqual({
      kind: 'permit-leak',
      timeUs: 4_000,
      subject: K,
      requests: ['r1'],
      summary: 'a permit of lock:stock:1 taken by client-1/r1 (r1) was never given back: its process died at 4ms, and the permit has no lease (1 of its 2 permits gone by the end)',
    });
    expect(brokenInvariants(r.m)).toContain('leaked permits');
    expect(safetyOf(r.m)).toBe('LEAKY');
  });

  it('counts a permit whose lease ran out before the end as expired, not leaked', () => {
    const r = judge([...take('r1', 1_000, { leaseMs: 5_000 }), crash('client-1', 2_000)]);
    expect(r).toMatchObject({ leaked: 0, expired: 1, first: null });
    expect(safetyOf(r.m)).toBe('SAFE');
  });

  it('counts one whose lease runs past the end as leaked', () => {
    const r = judge([...take('r1', 1_000, { leaseMs: 60_000 }), crash('client-1', 2_000)], 2, 30_000_000);
    expect(r).toMatchObject({ leaked: 1, expired: 0 });
    expect(r.first?.summary).toContain('its 60s lease runs past the end of the run');
  });

  it('counts a failed release and a release without answer as not given back', () => {
    const r = judge([...take('r1', 1_000), ...take('r2', 2_000), ...giveBack('r1', 3_000, 'fail'), ...giveBack('r2', 4_000, 'info')]);
    expect(r).toMatchObject({ leaked: 2, leakedUs: 10_000_000 - 3_001 + 10_000_000 - 4_001 });
    expect(r.first?.summary).toContain('its release failed (refused) at 3ms');
  });

  it('does not count a holder still at work when the run ends', () => {
    expect(judge([...take('r1', 1_000)])).toMatchObject({ leaked: 0, expired: 0 });
  });

  it('counts a request that ended without giving its permit back', () => {
    const r = judge([...take('r1', 1_000), [2_000, requestOp('ok', 'r1', { outcome: 'ordered' })]]);
    expect(r).toMatchObject({ leaked: 1, leakedUs: 10_000_000 - 2_000 });
    expect(r.first?.summary).toContain('its request ended without giving it back at 2ms');
  });

  it('has no permit figures for a mutex, which the same crash leaves to the ownership observer', () => {
    const r = judge([...take('r1', 1_000), crash('client-1', 2_000)], null);
    expect(r).toMatchObject({ leaked: undefined, leakedUs: undefined, expired: undefined, first: null });
    expect(Object.keys(r.m)).not.toContain('permitsLeaked');
  });
});
