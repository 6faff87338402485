/**
 * A one-way network link with a latency distribution. Messages on one link keep their
 * order (a TCP connection): a message never overtakes the one sent before it. A cut link
 * drops what is sent on it.
 */
import { sample, type Distribution } from '../engine/distribution.js';
import type { RandomStream } from '../engine/random.js';
import type { Simulation } from '../engine/simulation.js';

export class Link {
  private lastDeliveryUs = 0;
  cut = false;
  /** Extra one-way delay added on top of the distribution (network-delay fault). */
  extraDelayUs = 0;

  constructor(
    readonly name: string,
    private readonly sim: Simulation,
    private readonly latency: Distribution,
    private readonly rng: RandomStream,
  ) {}

  send(deliver: () => void): void {
    if (this.cut) return;
    const at = Math.max(this.lastDeliveryUs, this.sim.nowUs + sample(this.latency, this.rng) + this.extraDelayUs);
    this.lastDeliveryUs = at;
    this.sim.scheduleAt(at, () => {
      if (!this.cut) deliver();
    });
  }
}
