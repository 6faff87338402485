/**
 * One Sentinel process (redis 7.0.15 src/sentinel.c): its timer (sentinelTimer) and what each
 * tick does, composed of its parts, each given the Sentinel's state (state.ts) and the few
 * parts it calls: links.ts (connections, PING, INFO, REPLICAOF), election.ts (votes),
 * detection.ts (SDOWN, ODOWN), failover-machine.ts (the state machine), config.ts (INFO
 * replies, hellos), schedule.ts (when the next tick has something to do).
 */
import type { RandomStreams } from '../../../engine/random.js';
import { Link } from '../../network.js';
import { SkippableTimer, timerGapUs } from '../failover.js';
import type { RedisNode } from '../node.js';
import { ConfigSpread } from './config.js';
import { Detection } from './detection.js';
import { Election } from './election.js';
import { FailoverMachine } from './failover-machine.js';
import { NodeLinks } from './links.js';
import { CONFIG_DEFAULT_HZ, SENTINEL_PING_PERIOD_US, SENTINEL_PUBLISH_PERIOD_US } from './periods.js';
import { nextTickDueUs } from './schedule.js';
import { SentinelState, type HelloContent, type MasterDownReply, type PeerSentinel, type SentinelWorld } from './state.js';
import { InstanceView, MasterView } from './view.js';

export class SentinelProcess implements PeerSentinel {
  readonly state: SentinelState;
  private readonly links: NodeLinks;
  private readonly election: Election;
  private readonly detection: Detection;
  private readonly failover: FailoverMachine;
  private readonly config: ConfigSpread;
  /** sentinelTimer, with its own stream for the gaps between ticks. */
  private readonly timer: SkippableTimer;
  /**
   * Plans the next tick that has something to do (failover.ts SkippableTimer): a tick where
   * nothing is due changes nothing, so it is skipped. Called after anything that changes this
   * Sentinel's state between ticks.
   */
  private readonly plan = (): void => this.timer.plan();

  constructor(
    readonly id: string,
    world: SentinelWorld,
    initialPrimary: RedisNode,
    private readonly random: RandomStreams,
  ) {
    const state = new SentinelState(id, world, random);
    this.state = state;
    this.links = new NodeLinks(state, random, (view, s) => this.config.refreshInstanceInfo(view, s), this.plan);
    this.election = new Election(state);
    this.detection = new Detection(state, this.election, this.plan);
    this.failover = new FailoverMachine(state, this.election, this.links);
    this.config = new ConfigSpread(state, this.links, this.failover, this.plan);
    const timerRng = random.fork(`sentinel/${id}/timer`);
    this.timer = new SkippableTimer(
      world.sim,
      timerRng.int(0, SENTINEL_PING_PERIOD_US / CONFIG_DEFAULT_HZ - 1),
      // serverCron returns 1000 / hz, with hz = 10 + rand() % 10 redrawn after each tick.
      () => timerGapUs(Math.floor(1000 / (CONFIG_DEFAULT_HZ + timerRng.int(0, CONFIG_DEFAULT_HZ - 1))), timerRng),
      () => this.tick(),
      () => nextTickDueUs(state),
      world.params.everyTick === true,
    );
    // At time 0 the Sentinels have been running for a while: connected, the last PING and
    // INFO at a random point of their period, the timer at a random phase.
    state.master = new MasterView(initialPrimary, 0);
    state.master.replicas = world.control.nodes.filter((n) => n !== initialPrimary).map((n) => new InstanceView(n, 'replica', 0));
    for (const view of state.views()) this.links.steadyState(view);
  }

  /** What this Sentinel knows of the master it watches (and, in it, of the replicas). */
  get master(): MasterView {
    return this.state.master;
  }

  get currentEpoch(): number {
    return this.state.currentEpoch;
  }

  /** @internal the other Sentinels (they know each other from the start). */
  meet(others: SentinelProcess[]): void {
    const { sim, fabric, params } = this.state.world;
    const { random } = this;
    this.state.peers = others.map((process) => ({
      process,
      view: { masterDown: false, lastMasterDownReplyUs: -Infinity, leader: null, leaderEpoch: 0, lastHelloUs: -this.state.rng.int(0, SENTINEL_PUBLISH_PERIOD_US - 1) },
      out: new Link('sentinel', 'sentinel', sim, fabric, params.latency, random.fork(`sentinel/${this.id}->${process.id}`)),
      back: new Link('sentinel', 'sentinel', sim, fabric, params.latency, random.fork(`sentinel/${process.id}->${this.id}`)),
      lastHello: null,
    }));
    this.plan();
  }

  /** @internal the node died: each open connection to it sees its FIN after the one-way latency. */
  connectionsClosedBy(node: RedisNode): void {
    this.links.connectionsClosedBy(node);
  }

  /** @internal SENTINEL is-master-down-by-addr, answered by this Sentinel (detection.ts). */
  isMasterDownByAddr(node: RedisNode, reqEpoch: number, runId: string): MasterDownReply {
    return this.detection.isMasterDownByAddr(node, reqEpoch, runId);
  }

  /** @internal a hello from another Sentinel (config.ts). */
  receiveHello(hello: HelloContent): void {
    this.config.receiveHello(hello);
  }

  /** sentinelTimer -> sentinelHandleDictOfRedisInstances. */
  private tick(): void {
    const { links, detection, failover, config } = this;
    const now = this.state.now;
    const m = this.state.master;
    // sentinelHandleRedisInstance(master)
    links.reconnect(m, now);
    links.sendPeriodicCommands(m, now);
    detection.checkSubjectivelyDown(m, now);
    detection.checkObjectivelyDown(now);
    if (failover.startFailoverIfNeeded(now)) detection.askMasterStateToOtherSentinels(now, true);
    failover.failoverStateMachine(now);
    detection.askMasterStateToOtherSentinels(now, false);
    // ... then its replicas and the other Sentinels
    for (const r of m.replicas) {
      links.reconnect(r, now);
      links.sendPeriodicCommands(r, now);
      detection.checkSubjectivelyDown(r, now);
    }
    for (const peer of this.state.peers) config.sendHelloIfDue(peer, now);
    if (m.failoverState === 'update-config') failover.switchToPromotedReplica(now);
  }
}
