/** Abstract states: what they tell apart, and client symmetry. */
import { describe, expect, it } from 'vitest';
import { StateTracker } from '../../src/explore/abstract-state.js';
import type { Operation } from '../../src/history/operation.js';
import { history, keyState, lock, request, setup } from './history.js';

function trajectory(ops: Operation[], symmetric: boolean): string[] {
  const t = new StateTracker(symmetric);
  for (const op of ops) t.observe(op);
  t.finish();
  return t.trajectory.map((s) => s.state);
}

/** `holder` (a request of `client`) takes the lock while the other client waits. */
const holding = (holderClient: string, otherClient: string, ttlUs = 5_000_000) =>
  history([
    [0, setup()],
    [10, request('invoke', 'r1', holderClient)],
    [10, request('invoke', 'r2', otherClient)],
    [20, lock('acquire', 'invoke', 'r1', `${holderClient}/w1`)],
    [30, keyState('redis-0', 'r1', 30 + ttlUs)],
    [40, lock('acquire', 'ok', 'r1', `${holderClient}/w1`)],
  ]);

describe('StateTracker', () => {
  it('records a state per instant, dropping repeats', () => {
    const states = trajectory(holding('client-1', 'client-2'), false);
    expect(states.length).toBe(5);
    expect(new Set(states).size).toBe(5);
  });

  it('tells clients apart by number unless they are interchangeable', () => {
    const a = holding('client-1', 'client-2');
    const b = holding('client-2', 'client-1');
    expect(trajectory(a, false)).not.toEqual(trajectory(b, false));
    expect(trajectory(a, true)).toEqual(trajectory(b, true));
  });

  it('buckets a TTL in powers of two of milliseconds', () => {
    const t = new StateTracker(false);
    for (const op of holding('client-1', 'client-2', 5_000_000)) t.observe(op);
    expect(t.canonical(40)).toContain('2^13ms');
    const u = new StateTracker(false);
    for (const op of holding('client-1', 'client-2', 5_100_000)) u.observe(op);
    expect(u.canonical(40)).toEqual(t.canonical(40));
    const v = new StateTracker(false);
    for (const op of holding('client-1', 'client-2', 500_000)) v.observe(op);
    expect(v.canonical(40)).not.toEqual(t.canonical(40));
  });
});
