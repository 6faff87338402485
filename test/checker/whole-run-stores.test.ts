import { describe, expect, it } from 'vitest';
import { NumberList, numberedTag, OrderKeyMap, TagSet, ValueCounts } from '../../src/checker/whole-run-stores.js';
import { percentile } from '../../src/checker/observers/outcomes.js';

describe('numberedTag', () => {
  it('reads the number of a canonical tag', () => {
    expect(numberedTag('r0', 'r')).toBe(0);
    expect(numberedTag('r123', 'r')).toBe(123);
    expect(numberedTag('o7', 'o')).toBe(7);
  });
  it('refuses other names, leading zeros and numbers too long for an index', () => {
    expect(numberedTag('r012', 'r')).toBe(-1); // would collide with r12
    expect(numberedTag('r', 'r')).toBe(-1);
    expect(numberedTag('x12', 'r')).toBe(-1);
    expect(numberedTag('r1a', 'r')).toBe(-1);
    expect(numberedTag('r1234567890', 'r')).toBe(-1);
  });
});

describe('TagSet', () => {
  it('holds numbered and other tags', () => {
    const s = new TagSet('r');
    s.add('r5');
    s.add('r100000');
    s.add('custom');
    expect([s.has('r5'), s.has('r100000'), s.has('custom')]).toEqual([true, true, true]);
  });
  it('does not hold what was not added', () => {
    const s = new TagSet('r');
    s.add('r5');
    expect([s.has('r4'), s.has('r6'), s.has('r05'), s.has('r99999999'), s.has('custom')]).toEqual([false, false, false, false, false]);
  });
});

describe('OrderKeyMap', () => {
  it('returns the request that first committed a key, numbered or not', () => {
    const m = new OrderKeyMap();
    m.set('o3', 'r9');
    m.set('o4', 'client-request');
    m.set('key-x', 'r1');
    m.set('o5', 'r5');
    m.set('o12345678', 'r12345678');
    expect([m.get('o3'), m.get('o4'), m.get('key-x'), m.get('o5'), m.get('o12345678')]).toEqual(['r9', 'client-request', 'r1', 'r5', 'r12345678']);
  });
  it('keeps a key committed by its own request in one bit, and one committed by another in a Map entry', () => {
    const m = new OrderKeyMap();
    m.set('o5', 'r5');
    m.set('o6', 'r60');
    const inner = m as unknown as { own: { size: number }; other: Map<string, string> };
    expect([inner.own.size, [...inner.other]]).toEqual([1, [['o6', 'r60']]]);
  });
  it('knows nothing of a key never set', () => {
    const m = new OrderKeyMap();
    m.set('o3', 'r9');
    expect([m.get('o2'), m.get('o30'), m.get('o03')]).toEqual([undefined, undefined, undefined]);
  });
});

describe('NumberList', () => {
  it('grows past its first block and sorts numerically', () => {
    const l = new NumberList();
    for (let i = 3000; i > 0; i--) l.push(i * 10);
    const sorted = l.sorted();
    expect([l.length, sorted[0], sorted[1], sorted[2999]]).toEqual([3000, 10, 20, 30000]);
  });
  it('sorts many 32-bit values as the built-in sort does, the largest and duplicates included', () => {
    let x = 987654321;
    const xs = Array.from({ length: 5000 }, (_, i) => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return i % 7 === 0 ? 2 ** 32 - 1 - (x % 3) : i % 5 === 0 ? x % 100 : x * 2 + (i & 1);
    });
    const l = new NumberList();
    for (const v of xs) l.push(v);
    expect([...l.sorted()]).toEqual([...Uint32Array.from(xs).sort()]);
    expect([...l.sorted()]).toEqual([...xs].sort((a, b) => a - b));
  });
  it('sorts many values under 2^11 and under 2^22 (one and two counting passes) as the built-in sort does', () => {
    for (const below of [2 ** 11, 2 ** 22]) {
      let x = 12345;
      const xs = Array.from({ length: 1000 }, () => {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        return x % below;
      });
      xs[500] = below - 1;
      const l = new NumberList();
      for (const v of xs) l.push(v);
      expect([below, ...l.sorted()]).toEqual([below, ...[...xs].sort((a, b) => a - b)]);
    }
  });
  it('sorts a few values as many', () => {
    const l = new NumberList();
    for (const v of [9, 2 ** 31, 0, 9, 4]) l.push(v);
    expect([...l.sorted()]).toEqual([0, 4, 9, 9, 2 ** 31]);
  });
  it('keeps values that are not 32-bit unsigned integers exactly', () => {
    const l = new NumberList();
    for (const x of [5, 2 ** 32 + 7, 1.5, 3]) l.push(x);
    expect([...l.sorted()]).toEqual([1.5, 3, 5, 2 ** 32 + 7]);
  });
});

describe('ValueCounts', () => {
  /** A deterministic stream of latencies (a linear congruential generator): few distinct values, or many. */
  const values = (n: number, distinct: number): number[] => {
    let x = 12345;
    return Array.from({ length: n }, () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return 100 + (x % distinct);
    });
  };
  const exact = (xs: number[], p: number): number => percentile([...xs].sort((a, b) => a - b), p);
  const ps = [0, 0.001, 0.5, 0.9, 0.99, 0.999, 1];

  it('gives the nearest-rank percentiles of every value added, across many merges', () => {
    for (const [n, distinct] of [[200_000, 3000], [150_000, 10_000_000]]) {
      const xs = values(n, distinct);
      const c = new ValueCounts();
      for (const x of xs) c.add(x);
      expect(ps.map((p) => c.percentile(p))).toEqual(ps.map((p) => exact(xs, p)));
      expect(c.length).toBe(n);
    }
  });
  it('holds one entry per distinct value, not per value', () => {
    for (const distinct of [3000, 10_000_000]) {
      const xs = values(300_000, distinct);
      const c = new ValueCounts();
      for (const x of xs) c.add(x);
      expect(c.distinctValues).toBe(new Set(xs).size);
    }
  });
  it('is exact for fractions, huge values, a single value and none', () => {
    const xs = [5, 2 ** 40 + 1, 1.5, 3, 5, 5];
    const c = new ValueCounts();
    for (const x of xs) c.add(x);
    expect(ps.map((p) => c.percentile(p))).toEqual(ps.map((p) => exact(xs, p)));
    const one = new ValueCounts();
    one.add(7);
    expect([one.percentile(0.5), one.percentile(0.99), new ValueCounts().percentile(0.5)]).toEqual([7, 7, 0]);
  });
  it('adds values after a percentile was read', () => {
    const c = new ValueCounts();
    for (const x of [1, 2, 3]) c.add(x);
    expect(c.percentile(1)).toBe(3);
    for (const x of [10, 10, 10]) c.add(x);
    expect([c.percentile(0.5), c.percentile(1), c.length]).toEqual([3, 10, 6]);
  });
});
