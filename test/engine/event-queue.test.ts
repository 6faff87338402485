import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue } from '../../src/engine/event-queue.js';

describe('EventQueue', () => {
  it('pops by time, then by insertion order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (times) => {
        const q = new EventQueue<number>();
        times.forEach((t, i) => q.push(t, i, 0));
        const out: Array<[number, number]> = [];
        while (q.size > 0) {
          const item = q.pop() as number;
          out.push([q.poppedTime, item]);
        }
        const expected = times.map((t, i) => [t, i] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        expect(out).toEqual(expected);
      }),
    );
  });
});
