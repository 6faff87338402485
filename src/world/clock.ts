/**
 * A host's local clock over the one simulated time: an offset and a drift in parts per
 * million. Redis nodes judge TTLs by theirs, clients measure elapsed time by theirs.
 */
import type { Simulation } from '../engine/simulation.js';
import type { Micros } from '../engine/time.js';

export class LocalClock {
  constructor(
    private readonly sim: Simulation,
    public offsetUs: Micros = 0,
    public driftPpm = 0,
  ) {}

  nowUs(): Micros {
    const t = this.sim.nowUs;
    return t + this.offsetUs + (this.driftPpm === 0 ? 0 : Math.floor((t * this.driftPpm) / 1e6));
  }

  nowMs(): number {
    return Math.floor(this.nowUs() / 1000);
  }

  /** A step of the clock (an NTP step, an operator setting the time): forward if positive. */
  jump(byUs: Micros): void {
    this.offsetUs += byUs;
  }

  /** Changes the drift rate from now on without a step: the reading stays continuous. */
  setDrift(driftPpm: number): void {
    const t = this.sim.nowUs;
    const before = this.readAt(t);
    this.driftPpm = driftPpm;
    this.offsetUs += before - this.readAt(t);
  }

  /** The earliest simulated time at which this clock reads at least `localUs`. */
  simTimeAt(localUs: Micros): Micros {
    const rate = 1 + this.driftPpm / 1e6;
    let t = Math.max(0, Math.ceil((localUs - this.offsetUs) / rate));
    // Correct the rounding of the drift term in the forward direction.
    while (t > 0 && this.readAt(t - 1) >= localUs) t--;
    while (this.readAt(t) < localUs) t++;
    return t;
  }

  private readAt(t: Micros): Micros {
    return t + this.offsetUs + (this.driftPpm === 0 ? 0 : Math.floor((t * this.driftPpm) / 1e6));
  }
}
