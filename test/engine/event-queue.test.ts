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

  it('pops in order through pushes and pops interleaved (its arrays keep their length, the size is its own)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(-1)), { maxLength: 300 }), (ops) => {
        const q = new EventQueue<number>();
        const model: Array<[number, number]> = [];
        ops.forEach((op, i) => {
          if (op >= 0) {
            q.push(op, i, i);
            model.push([op, i]);
            model.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
            return;
          }
          const expected = model.shift();
          const item = q.pop();
          expect(item).toBe(expected?.[1]);
          if (expected) expect([q.poppedTime, q.poppedTag]).toEqual([expected[0], expected[1]]);
          expect(q.size).toBe(model.length);
          expect(q.peekTime()).toBe(model.length > 0 ? model[0][0] : Infinity);
        });
      }),
    );
  });
});
