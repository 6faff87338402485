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

  it('pops deadlines pushed into lanes (pushAfter) in exactly the order one heap gives, lanes reused and overflowing into the heap', () => {
    // Seven delays for four lanes: some delays find no free lane and go into the heap.
    const delays = [0, 3, 5, 8, 13, 21, 34];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), at: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constant('after' as const), delay: fc.constantFrom(...delays) }),
      fc.record({ kind: fc.constant('pop' as const) }),
      fc.record({ kind: fc.constant('advance' as const), by: fc.integer({ min: 0, max: 10 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const q = new EventQueue<number>();
        const model: Array<[number, number]> = [];
        let nowUs = 0;
        ops.forEach((o, i) => {
          if (o.kind === 'advance') {
            // The clock never passes an item still queued (the simulation pops it first).
            nowUs = Math.min(nowUs + o.by, q.peekTime());
            return;
          }
          if (o.kind === 'push' || o.kind === 'after') {
            const at = o.kind === 'push' ? nowUs + o.at : nowUs + o.delay;
            if (o.kind === 'push') q.push(at, i, i);
            else q.pushAfter(at, o.delay, i, i);
            model.push([at, i]);
            model.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
            return;
          }
          const expected = model.shift();
          const item = q.pop();
          expect(item).toBe(expected?.[1]);
          if (expected) {
            expect([q.poppedTime, q.poppedTag]).toEqual([expected[0], expected[1]]);
            nowUs = Math.max(nowUs, expected[0]);
          }
          expect(q.size).toBe(model.length);
          expect(q.peekTime()).toBe(model.length > 0 ? model[0][0] : Infinity);
        });
      }),
    );
  });

  it('keeps a lane that never drains bounded: its delivered part is dropped as it goes', () => {
    const q = new EventQueue<number>();
    // 2,000 deadlines always queued in one lane, 50,000 pushed and popped through it.
    let nowUs = 0;
    for (let i = 0; i < 52_000; i++) {
      q.pushAfter(nowUs + 100, 100, i, i);
      if (i < 2_000) continue;
      expect(q.pop()).toBe(i - 2_000);
      nowUs = q.poppedTime;
    }
    expect(q.size).toBe(2_000);
    const lane = (q as unknown as { lanes: Array<{ times: number[] }> }).lanes[0];
    // Without dropping the delivered part the lane's arrays would hold all 52,000.
    expect(lane.times.length).toBeLessThan(10_000);
  });
});
