/**
 * A downstream service called inside the critical section (the risk check of "From setnx to Redisson":
 * about 800 ms normally, 3-8 s while it misbehaved). A slow-call fault swaps its latency
 * distribution for a window.
 */
import { sample, type Distribution } from '../engine/distribution.js';
import type { RandomStream } from '../engine/random.js';
import type { Micros } from '../engine/time.js';

export class Dependency {
  private override: Distribution | null = null;

  constructor(
    readonly name: string,
    private readonly latency: Distribution,
    private readonly rng: RandomStream,
  ) {}

  setOverride(latency: Distribution | null): void {
    this.override = latency;
  }

  /** The latency of one call starting now. */
  callLatencyUs(): Micros {
    return sample(this.override ?? this.latency, this.rng);
  }
}
