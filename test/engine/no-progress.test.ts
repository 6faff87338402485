/** The engine stops a run whose clock no longer advances, and leaves busy instants alone. */
import { describe, expect, it } from 'vitest';
import { NoProgressError } from '../../src/engine/no-progress.js';
import { Simulation } from '../../src/engine/simulation.js';
import type { ProcessGenerator } from '../../src/engine/process.js';

function* spinner(delayUs: number): ProcessGenerator<void> {
  for (;;) yield delayUs;
}

describe('no progress in simulated time', () => {
  it('stops a process that loops without waiting, naming it and the instant', () => {
    const sim = new Simulation(1);
    sim.maxEventsPerInstant = 1_000;
    sim.schedule(5_000_000, () => sim.spawn('user-7', spinner(0)));
    let error: unknown;
    try {
      sim.run(10_000_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NoProgressError);
    expect((error as NoProgressError).message).toBe('simulated time stopped at 5s: over 1000 events at that one instant (the last of them in user-7)');
    expect((error as NoProgressError).atUs).toBe(5_000_000);
  });

  it('lets the same loop run when each turn takes 1us', () => {
    const sim = new Simulation(1);
    sim.maxEventsPerInstant = 1_000;
    sim.spawn('user-7', spinner(1));
    sim.run(100_000);
    expect(sim.nowUs).toBe(100_000);
    expect(sim.eventCount).toBeGreaterThan(99_000);
  });

  it('allows exactly the limit at one instant, over several runs of the loop', () => {
    const sim = new Simulation(1);
    sim.maxEventsPerInstant = 1_000;
    for (let i = 0; i < 1_000; i++) sim.schedule(7, () => undefined);
    sim.run(3);
    sim.run(10);
    expect(sim.eventCount).toBe(1_000);
    sim.schedule(0, () => undefined);
    sim.run(20);
    expect(sim.eventCount).toBe(1_001);
  });

  it('counts an instant across calls to run', () => {
    const sim = new Simulation(1);
    sim.maxEventsPerInstant = 10;
    for (let i = 0; i < 6; i++) sim.schedule(0, () => undefined);
    sim.run(0);
    for (let i = 0; i < 5; i++) sim.schedule(0, () => undefined);
    expect(() => sim.run(0)).toThrow('simulated time stopped at 0us: over 10 events at that one instant');
  });
});
