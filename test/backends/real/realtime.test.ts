/** The real-time driver fires events in time order, at or after their times, and takes I/O in between. */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine/simulation.js';
import { RealTimeDriver } from '../../../src/backends/real/realtime.js';
import { monotonicClock } from '../../../src/backends/real/monotonic.js';

describe('RealTimeDriver', () => {
  it('fires queued events in time order, never before their time', async () => {
    const sim = new Simulation(1);
    const driver = new RealTimeDriver(sim);
    const clock = monotonicClock();
    const fired: Array<{ label: string; dueUs: number; nowUs: number; clockUs: number }> = [];
    for (const [label, dueUs] of [['b', 30_000], ['a', 10_000], ['c', 50_000]] as const) {
      sim.scheduleAt(dueUs, () => fired.push({ label, dueUs, nowUs: sim.nowUs, clockUs: clock() }));
    }
    driver.start(clock);
    await driver.runUntil(60_000);
    expect(fired.map((f) => f.label)).toEqual(['a', 'b', 'c']);
    for (const f of fired) {
      expect(f.nowUs).toBe(f.dueUs); // the engine's time is the event's own
      expect(f.clockUs).toBeGreaterThanOrEqual(f.dueUs); // and the real clock had reached it
    }
    expect(sim.nowUs).toBe(60_000);
  });

  it('runs an injected callback (an I/O completion) at the real time it came, between timed events', async () => {
    const sim = new Simulation(1);
    const driver = new RealTimeDriver(sim);
    const order: string[] = [];
    let injectedAtUs = -1;
    sim.scheduleAt(200_000, () => order.push('late timer'));
    driver.start(monotonicClock());
    setTimeout(() => driver.inject(() => {
      order.push('reply');
      injectedAtUs = sim.nowUs;
    }), 20);
    await driver.runUntil(250_000);
    expect(order).toEqual(['reply', 'late timer']);
    expect(injectedAtUs).toBeGreaterThan(0);
    expect(injectedAtUs).toBeLessThan(200_000);
  });

  it('stops with an error raised outside the loop', async () => {
    const sim = new Simulation(1);
    const driver = new RealTimeDriver(sim);
    driver.start(monotonicClock());
    setTimeout(() => driver.fail(new Error('redis-server would not start')), 5);
    await expect(driver.runUntil(10_000_000)).rejects.toThrow('redis-server would not start');
  });
});
