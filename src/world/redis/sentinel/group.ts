/**
 * The Sentinels of one deployment (redis 7.0.15 src/sentinel.c): their processes
 * (process.ts), the phases the history tells, and the primary they announce (the one of the
 * newest configuration epoch, +switch-master).
 */
import type { RandomStreams } from '../../../engine/random.js';
import type { Simulation } from '../../../engine/simulation.js';
import { formatMicros } from '../../../engine/time.js';
import type { Fabric } from '../../network.js';
import type { PhaseListener, RedisControl } from '../failover.js';
import type { RedisNode } from '../node.js';
import { SentinelProcess } from './process.js';
import type { SentinelParams, SentinelWorld } from './state.js';

/** The Sentinels of one deployment, their shared view of events, and what they announce. */
export class Sentinels implements SentinelWorld {
  readonly processes: SentinelProcess[] = [];
  onPhase: PhaseListener | null = null;
  /** +switch-master: the Sentinels announce a new primary (get-master-addr-by-name changes). */
  onSwitch: ((primary: RedisNode, previous: RedisNode) => void) | null = null;
  /** The primary the Sentinels announce: the one of the newest configuration epoch. */
  announced: RedisNode;
  private announcedEpoch = 0;

  constructor(
    readonly sim: Simulation,
    readonly params: SentinelParams,
    readonly control: RedisControl,
    readonly fabric: Fabric,
    initialPrimary: RedisNode,
    random: RandomStreams,
  ) {
    this.announced = initialPrimary;
    for (let i = 1; i <= params.count; i++) {
      this.processes.push(new SentinelProcess(`sentinel-${i}`, this, initialPrimary, random));
    }
    for (const p of this.processes) p.meet(this.processes.filter((o) => o !== p));
  }

  /** kill -9 of a node: its kernel closes every connection to it (the Sentinels see a FIN). */
  nodeCrashed(node: RedisNode): void {
    for (const p of this.processes) p.connectionsClosedBy(node);
  }

  /** @internal */
  phase(phase: string, target: RedisNode, detail: string): void {
    this.onPhase?.(phase, target, detail);
  }

  /** @internal a Sentinel flagged its master SDOWN; the history tells the first one. */
  sdown(byId: string, node: RedisNode): void {
    const flagged = this.processes.filter((p) => p.master.node === node && p.master.sdown).length;
    if (flagged === 1) this.phase('sdown', node, `${byId} gets no valid reply from ${node.name} for over ${formatMicros(this.params.downAfterUs)}`);
  }

  /** @internal */
  odown(byId: string, node: RedisNode, agreeing: number): void {
    const flagged = this.processes.filter((p) => p.master.node === node && p.master.odown).length;
    if (flagged === 1) this.phase('odown', node, `${byId}: ${agreeing} of ${this.params.count} Sentinels see ${node.name} down (quorum ${this.params.quorum})`);
  }

  /** @internal a Sentinel switched its master to `primary` in configuration epoch `configEpoch`. */
  switched(primary: RedisNode, configEpoch: number): void {
    if (configEpoch <= this.announcedEpoch) return;
    this.announcedEpoch = configEpoch;
    const previous = this.announced;
    this.announced = primary;
    if (previous === primary) return;
    this.phase('switch-master', primary, `Sentinel announces ${primary.name} as the primary instead of ${previous.name} (configuration epoch ${configEpoch})`);
    this.onSwitch?.(primary, previous);
  }
}
