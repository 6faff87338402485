/**
 * The state the parts of the Cluster model share (redis 7.0.15 src/cluster.c, the clusterState
 * of every node): the bus nodes (bus-node.ts, each with its own flags, epochs and view of the
 * others), the quorum of masters, and what the model reads of the deployment. bus.ts,
 * detection.ts, election.ts, messages.ts and cron.ts each receive it and the few parts they
 * call.
 */
import type { RandomStreams } from '../../../engine/random.js';
import type { Simulation } from '../../../engine/simulation.js';
import type { Fabric } from '../../network.js';
import type { PhaseListener, RedisControl } from '../failover.js';
import type { RedisNode } from '../node.js';
import type { BusNode, ClusterParams, PeerState } from './bus-node.js';

export class ClusterState {
  onPhase: PhaseListener | null = null;
  readonly nodes: BusNode[] = [];
  readonly byRedis = new Map<RedisNode, BusNode>();
  readonly quorum: number;

  constructor(
    readonly sim: Simulation,
    readonly params: ClusterParams,
    readonly control: RedisControl,
    readonly fabric: Fabric,
    readonly random: RandomStreams,
  ) {
    // cluster->size is the number of masters serving slots; quorum = size / 2 + 1.
    this.quorum = Math.floor(params.masters / 2) + 1;
  }

  get now(): number {
    return this.sim.nowUs;
  }

  /** The masters (as the others see them), `node` aside, whose view of `node` passes `test`. */
  countFlagged(node: BusNode, test: (s: PeerState) => boolean): number {
    let n = 0;
    for (const b of this.nodes) if (b !== node && b.seenAsMaster && test(b.peers.get(node) as PeerState)) n++;
    return n;
  }

  phase(phase: string, node: BusNode, detail: string): void {
    if (node.redis) this.onPhase?.(phase, node.redis, detail);
  }
}
