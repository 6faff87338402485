/**
 * The engine benchmark (docs/benchmarks.md): 1000 processes, each looping on an
 * exponential random timeout, until 1M timeouts have fired. Real engine features stay on:
 * named seeded streams (one per process) and a pausable group around every process.
 */
import { Simulation } from '../engine/simulation.js';

interface PingPongResult {
  timeouts: number;
  wallMs: number;
  eventsPerSecond: number;
}

export function pingPong(processCount = 1000, totalTimeouts = 1_000_000, now: () => number): PingPongResult {
  const sim = new Simulation(42);
  const perProcess = Math.ceil(totalTimeouts / processCount);
  let fired = 0;
  for (let i = 0; i < processCount; i++) {
    const rng = sim.random.fork(`pp-${i}`);
    const group = sim.group(`g-${i}`);
    sim.spawn(
      `pp-${i}`,
      (function* () {
        for (let k = 0; k < perProcess; k++) {
          yield Math.round(rng.exponential(1000));
          fired++;
        }
      })(),
      group,
    );
  }
  const start = now();
  sim.run();
  const wallMs = now() - start;
  return { timeouts: fired, wallMs, eventsPerSecond: (sim.eventCount / wallMs) * 1000 };
}
