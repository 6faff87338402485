/**
 * The request ledger's facts (LedgerEntry) and the column store of their instants
 * (RequestTimes): a slot per request held, given back and given again, grown without losing
 * an instant, and a dropped request that is still read keeping its own.
 */
import { describe, expect, it } from 'vitest';
import { LedgerEntry, RequestTimes } from '../../src/checker/ledger-entry.js';

/** An hour and a bit in microseconds: past 2^31, where a V8 object field would hold a heap number. */
const LATE_US = 2 ** 32 + 7;

function filled(times: RequestTimes, id: string): LedgerEntry {
  const r = new LedgerEntry();
  r.refill(times, id, Number(id.slice(1)));
  return r;
}

describe('RequestTimes', () => {
  it('gives a fresh slot the instants of a request not yet invoked', () => {
    const r = filled(new RequestTimes(), 'r1');
    expect([r.invokeUs, r.endUs, r.csEndUs, r.fromUs, r.toUs, r.departureUs]).toEqual([0, -1, -1, 0, Infinity, 0]);
  });

  it('keeps instants past 2^31 us exactly, each in its own field', () => {
    const r = filled(new RequestTimes(), 'r1');
    [r.invokeUs, r.endUs, r.csEndUs, r.fromUs, r.toUs, r.departureUs] = [LATE_US, LATE_US + 1, LATE_US + 2, LATE_US + 3, LATE_US + 4, LATE_US + 5];
    expect([r.invokeUs, r.endUs, r.csEndUs, r.fromUs, r.toUs, r.departureUs]).toEqual([0, 1, 2, 3, 4, 5].map((d) => LATE_US + d));
  });

  it('gives a slot given back to the next request, with fresh instants', () => {
    const times = new RequestTimes();
    const a = filled(times, 'r1');
    const slot = a.slot;
    a.endUs = 500;
    a.release(times);
    const b = filled(times, 'r2');
    expect([b.slot, b.endUs, times.used]).toEqual([slot, -1, 1]);
  });

  it('gives distinct slots to requests held at once, and keeps their instants when the store grows by a chunk', () => {
    const times = new RequestTimes();
    const reqs = Array.from({ length: 1_030 }, (_, i) => filled(times, `r${i + 1}`));
    reqs.forEach((r, i) => (r.invokeUs = LATE_US + i));
    expect(new Set(reqs.map((r) => r.slot)).size).toBe(1_030);
    expect(times.capacity).toBe(2_048);
    expect(reqs.every((r, i) => r.invokeUs === LATE_US + i)).toBe(true);
    expect(reqs[1_029].cell).not.toBe(reqs[0].cell);
  });

  it('starts over from its first slot once cleared', () => {
    const times = new RequestTimes();
    filled(times, 'r1');
    filled(times, 'r2');
    times.clear();
    expect([filled(times, 'r3').slot, times.used]).toEqual([0, 1]);
  });
});

describe('LedgerEntry.detach', () => {
  it('keeps a detached request\'s instants when its old slot goes to another request', () => {
    const times = new RequestTimes();
    const a = filled(times, 'r1');
    a.departureUs = LATE_US;
    a.toUs = LATE_US + 1;
    const old = a.slot;
    a.detach(times);
    const b = filled(times, 'r2');
    b.departureUs = 9;
    expect([b.slot, a.departureUs, a.toUs, times.used]).toEqual([old, LATE_US, LATE_US + 1, 1]);
    a.release(times);
    expect(times.used).toBe(1);
  });

  it('shares a slot with the next request when it is released instead (what detach prevents)', () => {
    const times = new RequestTimes();
    const a = filled(times, 'r1');
    a.departureUs = LATE_US;
    const old = a.slot;
    a.release(times);
    const b = filled(times, 'r2');
    b.departureUs = 9;
    expect(b.slot).toBe(old);
    expect(times.cell(old)[old * 6 + 5]).toBe(9);
  });

  it('lets go of the store\'s chunk once released or parked, and keeps it while held', () => {
    const times = new RequestTimes();
    const held = filled(times, 'r1');
    const released = filled(times, 'r2');
    const parked = filled(times, 'r3');
    released.release(times);
    parked.park();
    expect([held.cell, released.cell.length, parked.cell.length, parked.slot]).toEqual([times.cell(held.slot), 0, 0, -1]);
  });
});
