/**
 * Liveness on hand-written histories: each outage or stall next to the history just short of
 * it that must stay LIVE (the share at the limit, a stretch a microsecond short, stock gone,
 * no demand, failures before the last fault, too few requests).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../../src/checker/check-history.js';
import { MIN_JUDGED_REQUESTS, STALL_LIMIT_US } from '../../../src/checker/observers/liveness.js';
import { verdictOf } from '../../../src/checker/verdict.js';
import { end, fault, history, lockOp, requestOp, section, setup, type Entry } from '../histories.js';

const S = 1_000_000;
/** Request `id` arrives at `at` and is answered 1 ms later with `outcome` (null: never answered). */
function request(id: string, at: number, outcome: string | null, detail?: string): Entry[] {
  const entries: Entry[] = [[at, requestOp('invoke', id)]];
  if (detail !== undefined) entries.push([at, lockOp('acquire', 'invoke', id)], [at + 500, lockOp('acquire', 'fail', id, { detail })]);
  if (outcome !== null) entries.push([at + 1_000, requestOp(outcome === 'ordered' ? 'ok' : 'fail', id, { outcome })]);
  return entries;
}
/** `n` requests, one every `everyUs` from `fromUs`, the k-th answered with outcome(k). */
function requests(n: number, fromUs: number, everyUs: number, outcome: (k: number) => string | null, prefix = 'r'): Entry[] {
  return Array.from({ length: n }, (_, k) => request(`${prefix}${k + 1}`, fromUs + k * everyUs, outcome(k), outcome(k) === 'lock-error' ? 'ERR syntax error' : undefined)).flat();
}
const judge = (entries: Entry[], o: { available?: number; durationUs?: number } = {}) => {
  const { metrics } = checkHistory(history([[0, setup({ available: o.available ?? 1_000, durationUs: o.durationUs ?? 60 * S })], ...entries, [(o.durationUs ?? 60 * S) + 1, end()]]));
  return { ...metrics.liveness, word: verdictOf(metrics) };
};

/** Request `id` on `thread` tries the lock from `at` and is refused "lock busy" `waitUs` later. */
function busy(id: string, at: number, waitUs: number, thread = 'client-2/w1'): Entry[] {
  const client = thread.split('/')[0];
  return [
    [at, requestOp('invoke', id, { client })],
    [at, lockOp('acquire', 'invoke', id, { thread })],
    [at + waitUs, lockOp('acquire', 'fail', id, { thread, detail: 'busy' })],
    [at + waitUs + 1, requestOp('fail', id, { client, outcome: 'lock-busy' })],
  ];
}

describe('"lock busy" while nobody held the lock', () => {
  // 30 refusals one second apart, each after trying for 200 ms.
  const refusals = (from = 0) => Array.from({ length: 30 }, (_, k) => busy(`b${k + 1}`, from + k * S, 200_000)).flat();

  it('counts as a failure: 30 refusals with no holder at all are UNAVAILABLE, the lock failing', () => {
    const free = judge(refusals());
    expect(free).toMatchObject({ verdict: 'UNAVAILABLE', busyWhileFree: 30, failedRequests: 30, failedShare: 1 });
    expect(free.cause).toBe('100.0% of the 30 requests in the run (no fault) failed, got no answer or were refused "lock busy" while nobody held the lock (30 of them)');
  });

  it('... but not when a holder was inside during each refused acquire: contention is an answer', () => {
    // One holder inside from 0 to 29.5 s explains every refusal (the last ends at 29.2 s).
    expect(judge([...section('h', 0, 29.5 * S), ...refusals()])).toMatchObject({ verdict: 'LIVE', busyWhileFree: 0, failedRequests: 0 });
    // A holder whose work (its release answered) ends 1 us into a refused acquire explains it
    // (its DEL was in flight when the contender's SET arrived) ...
    const holderEnding = (endUs: number) =>
      Array.from({ length: 30 }, (_, k) => [...section(`h${k + 1}`, (k + 1) * S - 100_000, (k + 1) * S + endUs - 1), ...busy(`b${k + 1}`, (k + 1) * S, 200_000)]).flat();
    expect(judge(holderEnding(1))).toMatchObject({ busyWhileFree: 0, verdict: 'LIVE' });
    // ... one whose work ended 1 us before it does not.
    expect(judge(holderEnding(-1))).toMatchObject({ busyWhileFree: 30 });
  });

  it('counts each refusal its acquire window does not meet a holder in, as a share with the rest', () => {
    // Holders inside during the first 10 refusals only.
    const j = judge([...section('h', 0, 9 * S + 100_000), ...refusals()]);
    expect(j).toMatchObject({ busyWhileFree: 20, failedRequests: 20, verdict: 'UNAVAILABLE' });
    // A holder on another key explains nothing.
    expect(judge([...section('h', 0, 40 * S, 'client-1/w1', 'lock:stock:2'), ...refusals()]).busyWhileFree).toBe(30);
  });

  it('with a semaphore of two permits, one holder inside does not explain a refusal; two do', () => {
    const judgeN = (entries: Entry[]) => checkHistory(history([[0, setup({ available: 1_000, durationUs: 60 * S, permits: 2 })], ...entries, [60 * S + 1, end()]])).metrics.liveness;
    expect(judgeN([...section('h1', 0, 40 * S), ...refusals()]).busyWhileFree).toBe(30);
    expect(judgeN([...section('h1', 0, 40 * S), ...section('h2', 0, 40 * S, 'client-1/w2'), ...refusals()]).busyWhileFree).toBe(0);
  });

  it('judges only the refusals after the last fault when enough requests came then', () => {
    const entries = [[0, fault('crash', 'start', 'client-1')] as Entry, ...refusals(), [35 * S, fault('crash', 'end', 'client-1')] as Entry, ...section('h', 36 * S, 37 * S), ...requests(25, 38 * S, 100_000, () => 'ordered', 'q')];
    expect(judge(entries)).toMatchObject({ verdict: 'LIVE', busyWhileFree: 0, judgedFromUs: 35 * S });
  });
});

describe('UNAVAILABLE', () => {
  it('when more than half of the requests failed, with the most frequent error text as its cause', () => {
    const all = judge(requests(40, 0, S, () => 'lock-error'));
    expect(all).toMatchObject({ verdict: 'UNAVAILABLE', word: 'UNAVAILABLE', judgedRequests: 40, failedRequests: 40, failedShare: 1 });
    expect(all.cause).toContain('100.0% of the 40 requests');
    expect(all.cause).toContain('ERR syntax error');
    // 21 of 40 failed: above half.
    expect(judge(requests(40, 0, S, (k) => (k < 21 ? 'lock-error' : 'ordered'))).verdict).toBe('UNAVAILABLE');
  });
  it('not at exactly half, nor for answers that are a "no"', () => {
    expect(judge(requests(40, 0, S, (k) => (k < 20 ? 'lock-error' : 'ordered')))).toMatchObject({ verdict: 'LIVE', failedShare: 0.5, cause: null, word: 'SAFE' });
    const refused = ['lock-busy', 'sold-out', 'conflict', 'fenced', 'duplicate', 'already-ordered', 'overloaded'];
    expect(judge(requests(40, 0, S, (k) => (k % 2 === 0 ? refused[k % refused.length] : 'ordered'))).verdict).toBe('LIVE');
  });
  it('counts unknown outcomes, lost or never answered, and an unavailable client as failures', () => {
    expect(judge(requests(40, 0, S, (k) => (k < 30 ? null : 'ordered'))).failedRequests).toBe(30);
    expect(judge(requests(40, 0, S, (k) => (k < 30 ? 'unavailable' : 'ordered'))).verdict).toBe('UNAVAILABLE');
    expect(judge(requests(40, 0, S, (k) => (k < 30 ? 'db-error' : 'ordered'))).verdict).toBe('UNAVAILABLE');
  });
  it('judges only the requests after the last fault, when enough of them came', () => {
    // 30 fail during a partition that heals at 31 s, then 25 succeed.
    const entries = [[0, fault('partition', 'start', 'client-1')] as Entry, ...requests(30, 0, S, () => 'lock-error'), [31 * S, fault('partition', 'end', 'client-1')] as Entry, ...requests(25, 32 * S, S, () => 'ordered', 'q')];
    expect(judge(entries)).toMatchObject({ verdict: 'LIVE', quietFromUs: 31 * S, judgedFromUs: 31 * S, judgedRequests: 25, failedRequests: 0 });
    // Its neighbour: fewer than MIN_JUDGED_REQUESTS after the fault: the whole run is judged.
    const few = [[0, fault('partition', 'start', 'client-1')] as Entry, ...requests(30, 0, S, () => 'lock-error'), [31 * S, fault('partition', 'end', 'client-1')] as Entry, ...requests(MIN_JUDGED_REQUESTS - 1, 32 * S, S, () => 'ordered', 'q')];
    expect(judge(few)).toMatchObject({ verdict: 'UNAVAILABLE', judgedFromUs: 0, judgedRequests: 30 + MIN_JUDGED_REQUESTS - 1, failedRequests: 30 });
  });
  it('is not judged on fewer than MIN_JUDGED_REQUESTS requests', () => {
    expect(judge(requests(MIN_JUDGED_REQUESTS - 1, 0, S, () => 'lock-error')).verdict).toBe('LIVE');
    expect(judge(requests(MIN_JUDGED_REQUESTS, 0, S, () => 'lock-error')).verdict).toBe('UNAVAILABLE');
  });
  it('leaves a broken safety verdict in front', () => {
    // Two requests take the last unit: oversold, and most of the rest fail.
    const r = checkHistory(history([[0, setup({ available: 1 })], ...requests(40, 0, S, (k) => (k < 2 ? 'ordered' : 'lock-error')), [0, { process: 'client-1/w1', type: 'ok', f: 'order', request: 'r1', sku: 1, qty: 1, orderKey: 'o1' }], [S, { process: 'client-1/w1', type: 'ok', f: 'order', request: 'r2', sku: 1, qty: 1, orderKey: 'o2' }], [61 * S, end()]]));
    expect([r.metrics.oversold, r.metrics.liveness.verdict, verdictOf(r.metrics)]).toEqual([1, 'UNAVAILABLE', 'UNSAFE']);
  });
});

describe('STALLED', () => {
  it('when no order comes in the whole run, though stock and requests were there', () => {
    const busy = judge(requests(40, 0, S, () => 'lock-busy'));
    expect(busy).toMatchObject({ verdict: 'STALLED', word: 'STALLED', failedShare: 0 });
    expect(busy.cause).toContain('no order in the whole run');
    // Its neighbours: an order every 10 s, no stock, too few requests.
    expect(judge(requests(40, 0, S, (k) => (k % 10 === 0 ? 'ordered' : 'lock-busy'))).verdict).toBe('LIVE');
    expect(judge(requests(40, 0, S, () => 'sold-out'), { available: 0 }).verdict).toBe('LIVE');
    expect(judge(requests(MIN_JUDGED_REQUESTS - 1, 0, S, () => 'lock-busy')).verdict).toBe('LIVE');
  });
  // An order answered at 1 ms, shoppers turned away every second from 1 s on, and the next
  // order answered `lengthUs` after the first of them arrived.
  const gap = (lengthUs: number, o: { arrivals?: boolean } = {}): Entry[] => {
    const nextAnsweredUs = S + lengthUs;
    const entries: Entry[] = [...request('a', 0, 'ordered'), ...request('b', nextAnsweredUs - 1_000, 'ordered')];
    if (o.arrivals !== false) for (let t = S; t < nextAnsweredUs - 1_000; t += S) entries.push(...request(`w${t}`, t, 'lock-busy'));
    for (let k = 0; k < MIN_JUDGED_REQUESTS; k++) entries.push(...request(`late${k}`, 50 * S + k * 1_000, 'ordered'));
    return entries;
  };
  it(`when no order is answered for ${STALL_LIMIT_US / S} s while stock and demand remain`, () => {
    const stalled = judge(gap(STALL_LIMIT_US));
    expect(stalled).toMatchObject({ verdict: 'STALLED', longestStallUs: STALL_LIMIT_US, longestStallFromUs: S });
    expect(stalled.cause).toContain('no order answered from 1s to 31s (30s)');
    expect(judge(gap(STALL_LIMIT_US - 1))).toMatchObject({ verdict: 'LIVE', longestStallUs: STALL_LIMIT_US - 1 });
  });
  it('not while nobody asked, nor once the stock is gone', () => {
    // Only the next order's own request waits (1 ms).
    expect(judge(gap(40 * S, { arrivals: false }))).toMatchObject({ verdict: 'LIVE', longestStallUs: 1_000 });
    // The one unit goes with the first order (after its own 1 ms): no stretch after it counts.
    expect(judge(gap(40 * S), { available: 1 })).toMatchObject({ verdict: 'LIVE', longestStallUs: 1_000 });
  });
  it('counts requests still waiting as demand', () => {
    // 30 requests arrive at once and wait, turned away at 59 s; two others are ordered by 1 s.
    const waiting: Entry[] = Array.from({ length: 30 }, (_, k): Entry[] => [[0, requestOp('invoke', `q${k}`)], [59 * S, requestOp('fail', `q${k}`, { outcome: 'lock-busy' })]]).flat();
    const burst: Entry[] = [...request('a', 0, 'ordered'), ...request('b', S, 'ordered'), ...waiting];
    expect(judge(burst)).toMatchObject({ verdict: 'STALLED', longestStallFromUs: S + 1_000, longestStallUs: 60 * S - S - 1_000 });
  });
  it('counts a stretch that runs to the end of arrivals, and only after the last fault', () => {
    // The last order at 1 ms; shoppers from 2 s on; the run's arrivals end at 60 s.
    const tail = [...request('a', 0, 'ordered'), ...requests(30, 2 * S, 2 * S, () => 'lock-busy')];
    expect(judge(tail)).toMatchObject({ verdict: 'STALLED', longestStallFromUs: 2 * S, longestStallUs: 58 * S });
    // A fault at 40 s: only 40-60 s is judged, 20 s: live.
    expect(judge([...tail, [40 * S, fault('gc-pause', 'end', 'client-1')]])).toMatchObject({ verdict: 'LIVE', quietFromUs: 40 * S, longestStallUs: 20 * S });
  });
});
