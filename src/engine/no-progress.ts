/**
 * A simulation whose clock stopped: more events at one simulated instant than any real
 * system could produce there. Something loops without ever waiting (a closed-loop user
 * turned away and asking again at once, a chain of zero delays); left alone it would grow
 * the history until the process runs out of memory. The engine stops and says where.
 */
import { formatMicros, type Micros } from './time.js';

/**
 * Events allowed at one instant before the run is declared stuck. The largest legitimate
 * burst is everything that starts at time 0 or at one shared instant: at most 100,000
 * threads (the scenario's budget, scenario/cost.ts) and 100,000 users (schema), each a
 * handful of events. Measured on the casebook (every scenario, its own seed): at most 556
 * events at one instant (version-cas-retry-storm.yaml, 256 threads and 300 users); every
 * other file under 330. A loop that never waits reaches the limit within seconds of CPU.
 */
export const DEFAULT_MAX_EVENTS_PER_INSTANT = 2_000_000;

export class NoProgressError extends Error {
  constructor(
    readonly atUs: Micros,
    readonly events: number,
    /** The process that ran last at that instant ('' if it was world machinery). */
    readonly lastProcess: string,
  ) {
    super(
      `simulated time stopped at ${formatMicros(atUs)}: over ${events} events at that one instant` +
        (lastProcess ? ` (the last of them in ${lastProcess})` : ''),
    );
    this.name = 'NoProgressError';
  }
}
