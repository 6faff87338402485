/**
 * One Sentinel's own state (redis 7.0.15 src/sentinel.c: its sentinelRedisInstance of the
 * master with the replicas in it, sentinel.current_epoch, the other Sentinels it knows), the
 * one object the parts of a Sentinel share: links.ts, election.ts, detection.ts,
 * failover-machine.ts, config.ts and schedule.ts each receive it and the few other parts they
 * call, and nothing else. What a Sentinel reads of the deployment and tells it is
 * `SentinelWorld` (the Sentinels of group.ts).
 */
import type { Distribution } from '../../../engine/distribution.js';
import type { RandomStream, RandomStreams } from '../../../engine/random.js';
import type { Simulation } from '../../../engine/simulation.js';
import type { Micros } from '../../../engine/time.js';
import type { Fabric, Link } from '../../network.js';
import type { RedisControl } from '../failover.js';
import type { RedisNode } from '../node.js';
import type { InstanceView, MasterView, PeerView } from './view.js';

export interface SentinelParams {
  /** How many Sentinels watch the master. */
  count: number;
  quorum: number;
  /** down-after-milliseconds. */
  downAfterUs: Micros;
  /** failover-timeout (sentinel.conf default 180000 ms). */
  failoverTimeoutUs: Micros;
  /** One-way latency between a Sentinel and a Redis node or another Sentinel. */
  latency: Distribution;
  /**
   * Run every timer tick, even those with nothing to do (for tests: the default skips them,
   * which changes no outcome, only the number of simulated events).
   */
  everyTick?: boolean;
}

/** What a Sentinel reads of the deployment and what it tells the group (group.ts Sentinels). */
export interface SentinelWorld {
  readonly sim: Simulation;
  readonly params: SentinelParams;
  readonly control: RedisControl;
  readonly fabric: Fabric;
  phase(phase: string, target: RedisNode, detail: string): void;
  /** Sentinel `byId` flagged its master SDOWN. */
  sdown(byId: string, node: RedisNode): void;
  /** Sentinel `byId` flagged its master ODOWN, `agreeing` Sentinels saying it is down. */
  odown(byId: string, node: RedisNode, agreeing: number): void;
  /** A Sentinel switched its master to `primary` in configuration epoch `configEpoch`. */
  switched(primary: RedisNode, configEpoch: number): void;
}

export interface HelloContent {
  epoch: number;
  master: RedisNode;
  configEpoch: number;
}

export interface MasterDownReply {
  isDown: boolean;
  leader: string | null;
  leaderEpoch: number;
}

/** What one Sentinel asks of another (SENTINEL is-master-down-by-addr, the hello). */
export interface PeerSentinel {
  readonly id: string;
  isMasterDownByAddr(node: RedisNode, reqEpoch: number, runId: string): MasterDownReply;
  receiveHello(hello: HelloContent): void;
}

export interface Peer {
  process: PeerSentinel;
  view: PeerView;
  out: Link;
  back: Link;
  /** What the last hello to this peer said; a repeat would change nothing there. */
  lastHello: HelloContent | null;
}

/** One Sentinel's view of the master it watches, its epoch and its peers. */
export class SentinelState {
  master!: MasterView;
  currentEpoch = 0;
  peers: Peer[] = [];
  readonly rng: RandomStream;

  constructor(
    readonly id: string,
    readonly world: SentinelWorld,
    random: RandomStreams,
  ) {
    this.rng = random.fork(`sentinel/${id}`);
  }

  get now(): number {
    return this.world.sim.nowUs;
  }

  /** The master, then its replicas. */
  views(): InstanceView[] {
    return [this.master, ...this.master.replicas];
  }
}
