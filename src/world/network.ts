/**
 * The network between hosts. A `Fabric` knows which pairs of hosts are cut off from each
 * other (partitions, counted so overlapping faults heal independently) and which hosts
 * have extra one-way delay (network-delay fault). A `Link` is one direction of one TCP
 * connection: messages keep their order (a message never overtakes the one sent before
 * it); a message sent or due across a cut is dropped, as a TCP connection that breaks
 * loses what was in flight.
 */
import { sample, type Distribution } from '../engine/distribution.js';
import type { RandomStream } from '../engine/random.js';
import type { Simulation } from '../engine/simulation.js';
import type { PartitionMode } from '../spec/faults.js';
import { Fifo } from './fifo.js';

/** A message that can hear of a reset: a client's command whose connection a reject cut resets. */
interface Resettable {
  reset(): void;
}

export class Fabric {
  private readonly cuts = new Map<string, number>();
  /** Pairs cut by a partition in 'reject' mode (counted as `cuts` is). */
  private readonly resets = new Map<string, number>();
  private readonly extraDelayUs = new Map<string, number>();
  /** Called after any partition change, so topology code can react (sentinel, cluster). */
  onChange: (() => void) | null = null;

  private static pair(a: string, b: string): string {
    return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
  }

  isCut(a: string, b: string): boolean {
    if (this.cuts.size === 0) return false; // the common case: no partition at all
    return (this.cuts.get(Fabric.pair(a, b)) ?? 0) > 0;
  }

  /** Whether the cut between a and b resets connections (a 'reject' partition). */
  rejects(a: string, b: string): boolean {
    if (this.resets.size === 0) return false;
    return (this.resets.get(Fabric.pair(a, b)) ?? 0) > 0;
  }

  cut(pairs: ReadonlyArray<readonly [string, string]>, mode: PartitionMode = 'silent'): void {
    for (const [a, b] of pairs) {
      const key = Fabric.pair(a, b);
      this.cuts.set(key, (this.cuts.get(key) ?? 0) + 1);
      if (mode === 'reject') this.resets.set(key, (this.resets.get(key) ?? 0) + 1);
    }
    this.onChange?.();
  }

  heal(pairs: ReadonlyArray<readonly [string, string]>, mode: PartitionMode = 'silent'): void {
    const down = (map: Map<string, number>, key: string): void => {
      const n = (map.get(key) ?? 0) - 1;
      if (n <= 0) map.delete(key);
      else map.set(key, n);
    };
    for (const [a, b] of pairs) {
      const key = Fabric.pair(a, b);
      down(this.cuts, key);
      if (mode === 'reject') down(this.resets, key);
    }
    this.onChange?.();
  }

  addDelay(host: string, us: number): void {
    this.extraDelayUs.set(host, (this.extraDelayUs.get(host) ?? 0) + us);
  }

  delayBetween(a: string, b: string): number {
    if (this.extraDelayUs.size === 0) return 0; // the common case: no delay fault
    return (this.extraDelayUs.get(a) ?? 0) + (this.extraDelayUs.get(b) ?? 0);
  }
}

/**
 * A message that carries its own delivery (a client command in flight: world/command-trip.ts):
 * one object for the whole round trip instead of a closure per leg.
 */
export interface Delivery {
  arrive(): void;
}

export class Link {
  private lastDeliveryUs = 0;
  /**
   * Messages in flight, in sending order. Delivery times never decrease along a link and the
   * queue keeps same-time items in scheduling order, so each queue entry of this link delivers
   * the oldest message: one shared callback instead of a closure per message.
   */
  private readonly inFlight = new Fifo<(() => void) | Delivery>();
  private readonly deliverNext = (): void => {
    const deliver = this.inFlight.shift();
    if (this.cut) {
      this.lost(deliver);
      return;
    }
    if (typeof deliver === 'function') deliver();
    else deliver.arrive();
  };

  constructor(
    readonly from: string,
    readonly to: string,
    private readonly sim: Simulation,
    private readonly fabric: Fabric,
    private readonly latency: Distribution,
    private readonly rng: RandomStream,
  ) {}

  get cut(): boolean {
    return this.fabric.isCut(this.from, this.to);
  }

  /** A message lost to a cut: one that can hear of a reset does, when the cut resets (reject). */
  private lost(deliver: (() => void) | Delivery | undefined): void {
    if (deliver !== undefined && typeof deliver !== 'function' && 'reset' in deliver && this.fabric.rejects(this.from, this.to)) (deliver as Resettable).reset();
  }

  send(deliver: (() => void) | Delivery): void {
    if (this.cut) {
      this.lost(deliver);
      return;
    }
    const delayUs = sample(this.latency, this.rng) + this.fabric.delayBetween(this.from, this.to);
    const at = Math.max(this.lastDeliveryUs, this.sim.nowUs + delayUs);
    this.lastDeliveryUs = at;
    this.inFlight.push(deliver);
    this.sim.scheduleAt(at, this.deliverNext);
  }
}
