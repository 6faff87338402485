import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/world/fifo.js';

describe('Fifo', () => {
  it('gives items back in the order they came, across drains', () => {
    const q = new Fifo<number>();
    q.push(1);
    q.push(2);
    expect([q.shift(), q.size]).toEqual([1, 1]);
    q.push(3);
    expect([q.shift(), q.shift(), q.size]).toEqual([2, 3, 0]);
    q.push(4);
    expect([q.shift(), q.size]).toEqual([4, 0]);
  });

  it('keeps the order when it drops its taken half of a queue never empty (past 1,024 items)', () => {
    const q = new Fifo<number>();
    const out: number[] = [];
    let next = 0;
    for (let round = 0; round < 5_000; round++) {
      q.push(next++);
      q.push(next++);
      out.push(q.shift());
    }
    while (q.size > 0) out.push(q.shift());
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
  });
});
