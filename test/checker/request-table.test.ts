import { describe, expect, it } from 'vitest';
import { RequestTable, requestNumber } from '../../src/checker/request-table.js';

const req = (id: string) => ({ id, num: requestNumber(id) });

describe('RequestTable', () => {
  it('finds the requests it holds, numbered or not', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    const a = req('r7');
    const b = req('client-request');
    t.add(a);
    t.add(b);
    expect([t.get('r7'), t.get('client-request'), t.size]).toEqual([a, b, 2]);
  });

  it('does not find a request it never held, nor one in the same slot with another number', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    t.add(req('r7'));
    expect([t.get('r8'), t.get('r4103'), t.get('r07'), t.get('other')]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('remembers dropped names, and only those', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    const a = req('r7');
    const b = req('x');
    t.add(a);
    t.add(b);
    t.add(req('r8'));
    t.drop(a);
    t.drop(b);
    expect([t.get('r7'), t.get('x'), t.size]).toEqual([undefined, undefined, 1]);
    expect([t.wasDropped('r7'), t.wasDropped('x'), t.wasDropped('r8'), t.wasDropped('r6'), t.wasDropped('y')]).toEqual([true, true, false, false, false]);
  });

  it('keeps a request held long after newer ones took its slot', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    const old = req('r1');
    t.add(old);
    // Many requests later (far more than the ring's first size), each dropped in turn as the
    // grace would drop them, while r1 is still held (a stuck lock).
    for (let n = 2; n < 50_000; n++) {
      const r = req(`r${n}`);
      t.add(r);
      if (n > 101) t.drop(t.get(`r${n - 100}`) as { id: string; num: number });
    }
    expect(t.get('r1')).toBe(old);
    expect(t.get('r49999')?.id).toBe('r49999');
    expect(t.get('r49950')?.id).toBe('r49950');
    expect(t.get('r49000')).toBeUndefined();
        expect(t.size).toBe(101);
    expect([...t.values()].map((r) => r.id)).toContain('r1');
    // One request held long does not make the ring grow: it alone waits in the overflow.
    expect([t.slots, t.overflowed]).toEqual([4_096, 1]);
  });

  // The scale world's shape: consecutive numbers, a window of held requests wider than the
  // ring (a minute of grace at 1000 requests/s), older ones dropped in turn.
  it('grows its ring for a window of consecutive requests wider than it, holding them in the ring', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    for (let n = 1; n < 100_000; n++) {
      t.add(req(`r${n}`));
      if (n > 20_000) t.drop(t.get(`r${n - 20_000}`) as { id: string; num: number });
    }
    expect(t.size).toBe(20_000);
    expect([t.slots, t.overflowed]).toEqual([32_768, 0]);
  });

  it('holds every request of a window wider than its first ring', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    for (let n = 0; n < 20_000; n++) t.add(req(`r${n}`));
    const missing = [];
    for (let n = 0; n < 20_000; n++) if (t.get(`r${n}`)?.id !== `r${n}`) missing.push(n);
    expect(missing).toEqual([]);
    expect(new Set([...t.values()].map((r) => r.id)).size).toBe(20_000);
  });

  it('holds nothing once cleared, and holds new requests after', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    const a = req('r7');
    t.add(a);
    t.add(req('x'));
    t.add(req('r9'));
    t.drop(a);
    for (let n = 5_000; n < 5_010; n++) t.add(req(`r${n}`));
    t.clear();
    expect([t.size, t.list(), t.get('r9'), t.get('x'), t.get('r5001')]).toEqual([0, [], undefined, undefined, undefined]);
    expect([t.wasDropped('r7'), t.wasDropped('r9')]).toEqual([false, false]);
    const b = req('r9');
    t.add(b);
    expect([t.get('r9'), t.size]).toEqual([b, 1]);
  });

  it('takes its slot from the number the object carries', () => {
    const t = new RequestTable<{ id: string; num: number }>();
    const a = req('r12');
    t.add(a);
    expect([t.get('r12'), a.num]).toEqual([a, 12]);
    expect(req('r012').num).toBe(-1);
  });
});
