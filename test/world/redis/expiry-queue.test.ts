/**
 * A node's planned expiry checks come out in the engine queue's order: by time, then by when
 * they were planned (so each shared-callback event takes the check a closure would have run).
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine/simulation.js';
import { ExpiryQueue } from '../../../src/world/redis/expiry-queue.js';

describe('ExpiryQueue', () => {
  it('gives keys by time, and same-time keys in the order they were planned', () => {
    const q = new ExpiryQueue();
    q.push(300, 'c');
    q.push(100, 'a1');
    q.push(200, 'b');
    q.push(100, 'a2');
    q.push(100, 'a3');
    expect([q.shift(), q.shift(), q.shift(), q.shift(), q.shift()]).toEqual(['a1', 'a2', 'a3', 'b', 'c']);
    expect(q.size).toBe(0);
  });

  it('matches the engine queue event for event over thousands of plans made while checks fall due', () => {
    // The engine runs one closure per plan (what the node did before); the queue must hand out
    // the same key at each of the shared callback's events.
    const sim = new Simulation(3);
    const rng = sim.random.fork('t');
    const q = new ExpiryQueue();
    const byClosure: string[] = [];
    const byQueue: string[] = [];
    let planned = 0;
    const plan = (): void => {
      const key = `k${planned++}`;
      // Few distinct times, so many plans share an instant; some in the past (queued for now).
      const at = Math.max(sim.nowUs + rng.int(-2, 30) * 10, sim.nowUs);
      sim.scheduleAt(at, () => byClosure.push(key));
      q.push(at, key);
      sim.scheduleAt(at, () => {
        byQueue.push(q.shift());
        if (planned < 5000) plan();
        if (planned < 5000 && rng.next() < 0.5) plan();
      });
    };
    for (let i = 0; i < 50; i++) plan();
    sim.run();
    expect(byQueue.length).toBe(planned);
    expect(byQueue).toEqual(byClosure);
  });
});
