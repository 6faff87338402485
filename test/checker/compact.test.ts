import { describe, expect, it } from 'vitest';
import { NumberList, numberedTag, OrderKeyMap, TagSet } from '../../src/checker/compact.js';

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
    expect([m.get('o3'), m.get('o4'), m.get('key-x')]).toEqual(['r9', 'client-request', 'r1']);
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
  it('keeps values that are not 32-bit unsigned integers exactly', () => {
    const l = new NumberList();
    for (const x of [5, 2 ** 32 + 7, 1.5, 3]) l.push(x);
    expect([...l.sorted()]).toEqual([1.5, 3, 5, 2 ** 32 + 7]);
  });
});
