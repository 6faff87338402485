/**
 * The real backend's one clock: microseconds on the monotonic clock since `origin`. Real runs
 * are timed by it (history times, when events fire); a simulated run never reads it.
 */
import type { Micros } from '../../engine/time.js';

export type MonotonicClock = () => Micros;

/** A clock that reads 0 now and follows the process's monotonic clock (never steps back). */
export function monotonicClock(): MonotonicClock {
  const originMs = performance.now(); // lock-sim: wall-clock ok (the real backend runs in real time; the origin of its monotonic clock)
  return () => Math.round((performance.now() - originMs) * 1000); // lock-sim: wall-clock ok (the real backend: "now" of a real run is elapsed monotonic time)
}
