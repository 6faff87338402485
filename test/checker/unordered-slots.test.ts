import { describe, expect, it } from 'vitest';
import { Bag } from '../../src/checker/unordered-slots.js';

const items = <T>(b: Bag<T>): T[] => Array.from({ length: b.size }, (_, i) => b.at(i));

describe('Bag', () => {
  it('holds each item once', () => {
    const b = new Bag<string>();
    b.add('a');
    b.add('b');
    b.add('a');
    expect([b.size, b.has('a'), b.has('b'), b.has('c')]).toEqual([2, true, true, false]);
  });

  it('removes an item it holds, and nothing when it does not hold it', () => {
    const b = new Bag<string>();
    for (const x of ['a', 'b', 'c']) b.add(x);
    b.delete('z');
    expect(items(b).sort()).toEqual(['a', 'b', 'c']);
    b.delete('a');
    expect(items(b).sort()).toEqual(['b', 'c']);
    b.delete('c');
    b.delete('b');
    expect([b.size, b.has('b')]).toEqual([0, false]);
  });

  it('fills again after it emptied', () => {
    const b = new Bag<number>();
    for (let round = 0; round < 3; round++) {
      b.add(1);
      b.add(2);
      b.delete(1);
      b.delete(2);
    }
    b.add(3);
    expect(items(b)).toEqual([3]);
  });
});
