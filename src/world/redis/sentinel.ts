/**
 * Redis Sentinel, process by process (redis 7.0.15 src/sentinel.c; 7.2 differs only in
 * configuration and logging, not in anything timed here). Each Sentinel runs its own timer
 * (sentinelTimer) and sees the Redis nodes only through its own connections, so the failover
 * arrives in the phases Sentinel logs:
 *
 * - SDOWN: a PING unanswered for longer than down-after-milliseconds, counted from the
 *   oldest unanswered PING (act_ping_time). A crashed node closes the connection at once;
 *   the reconnect a tick later queues a PING that is never answered, so SDOWN comes about
 *   down-after plus one or two ticks after the kill.
 * - ODOWN: `quorum` Sentinels (this one included) say the master is down, learnt by asking
 *   the others (SENTINEL is-master-down-by-addr) at most once a second per Sentinel.
 * - The Sentinel that reaches ODOWN starts a failover at once in a new epoch and asks for
 *   votes; each Sentinel votes for the first asker of an epoch. A majority of all Sentinels
 *   (and at least `quorum`) elects the leader, one tick later.
 * - The failover state machine moves one state per tick: select the replica, send
 *   REPLICAOF NO ONE, then wait for its INFO to say `role:master`. A replica of a master in
 *   ODOWN or failover gets INFO once its last reply is over a second old (10 s otherwise;
 *   sentinel-links.ts sendPeriodicCommands). Usually that reply is older at ODOWN, so an INFO
 *   goes at the ODOWN tick, before the promotion, and the next one, a second later, sees it:
 *   the switch 700-1000 ms after the promotion. When the regular 10 s INFO came between the
 *   promotion minus a second and ODOWN, the next one sees it sooner. Measured (100 kills of a
 *   7.0.15 primary after a random wait, docs/model/failover.md): 63 / 888.5 / 970 ms from the
 *   promotion to +switch-master (min / median / max), 8 of 100 under 700 ms; the model gives
 *   75 / 889 / 1051 ms over seeds 1..300, 24 under 700 ms.
 * - The other replicas are pointed at the promoted one (parallel-syncs 1), then
 *   +switch-master. The leader tells the other Sentinels at once (a forced hello carrying
 *   the new configuration epoch); they switch on receipt.
 * - A failover that fails (no leader within min(10 s, failover-timeout), no eligible
 *   replica, a replica that does not turn into a master) is retried no sooner than
 *   2 x failover-timeout after it started. The random 0-999 ms added to that start time
 *   (SENTINEL_MAX_DESYNC) only delays retries, and a Sentinel that voted for another.
 * - The timer runs at a random 10-19 Hz, redrawn after every tick (plus up to 1 ms of event
 *   loop slack, failover.ts timerGapUs), so that Sentinels do not stay in step and split
 *   their votes.
 *
 * Not modelled (docs/model/failover.md says so): TILT mode, the pending-command cap and the recycling of
 * links with late PINGs, TCP retransmission (a message sent across a partition is lost; the
 * next PING after it heals gets through), replica-priority (every replica has the default
 * 100), discovery (the Sentinels know each other and the replicas from the start), scripts,
 * and the time a Sentinel takes to save its configuration (CONFIG REWRITE and fsync when it
 * votes, starts a failover or switches; measured 2-8 ms at the quartiles for the leader's
 * ODOWN tick, which delays its next tick by as much).
 *
 * This file: the Sentinels of a deployment (what they announce) and one Sentinel's timer and
 * tick. A Sentinel is built in layers, one responsibility per file, each on the one before:
 * sentinel-links.ts (connections, PING and INFO; the shared state), sentinel-election.ts
 * (votes), sentinel-detection.ts (SDOWN, ODOWN), sentinel-failover.ts (the state machine),
 * sentinel-config.ts (INFO replies, hellos). sentinel-view.ts holds what a Sentinel knows of
 * each instance, sentinel-periods.ts sentinel.c's periods.
 */
import type { Distribution } from '../../engine/distribution.js';
import type { RandomStreams } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import { formatMicros, type Micros } from '../../engine/time.js';
import { Link, type Fabric } from '../network.js';
import { SkippableTimer, timerGapUs, type PhaseListener, type RedisControl } from './failover.js';
import type { RedisNode } from './node.js';
import { SentinelConfig } from './sentinel-config.js';
import type { SentinelLinks } from './sentinel-links.js';
import { CONFIG_DEFAULT_HZ, SENTINEL_ASK_PERIOD_US, SENTINEL_FAST_INFO_PERIOD_US, SENTINEL_INFO_PERIOD_US, SENTINEL_PING_PERIOD_US, SENTINEL_PUBLISH_PERIOD_US } from './sentinel-periods.js';
import { InstanceView, MasterView } from './sentinel-view.js';

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

/** The Sentinels of one deployment, their shared view of events, and what they announce. */
export class Sentinels {
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
    for (const p of this.processes) p.meet(this.processes.filter((o) => o !== p), random);
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
  sdown(by: SentinelLinks, node: RedisNode): void {
    const flagged = this.processes.filter((p) => p.master.node === node && p.master.sdown).length;
    if (flagged === 1) this.phase('sdown', node, `${by.id} gets no valid reply from ${node.name} for over ${formatMicros(this.params.downAfterUs)}`);
  }

  /** @internal */
  odown(by: SentinelLinks, node: RedisNode, agreeing: number): void {
    const flagged = this.processes.filter((p) => p.master.node === node && p.master.odown).length;
    if (flagged === 1) this.phase('odown', node, `${by.id}: ${agreeing} of ${this.params.count} Sentinels see ${node.name} down (quorum ${this.params.quorum})`);
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

/** One Sentinel process: its timer and what each tick does, on the layers of sentinel-links.ts .. sentinel-config.ts. */
export class SentinelProcess extends SentinelConfig {
  /** sentinelTimer, with its own stream for the gaps between ticks. */
  private readonly timer: SkippableTimer;

  constructor(id: string, group: Sentinels, initialPrimary: RedisNode, random: RandomStreams) {
    super(id, group, random);
    const timerRng = random.fork(`sentinel/${id}/timer`);
    this.timer = new SkippableTimer(
      group.sim,
      timerRng.int(0, SENTINEL_PING_PERIOD_US / CONFIG_DEFAULT_HZ - 1),
      // serverCron returns 1000 / hz, with hz = 10 + rand() % 10 redrawn after each tick.
      () => timerGapUs(Math.floor(1000 / (CONFIG_DEFAULT_HZ + timerRng.int(0, CONFIG_DEFAULT_HZ - 1))), timerRng),
      () => this.tick(),
      () => this.nextDueUs(),
      group.params.everyTick === true,
    );
    // At time 0 the Sentinels have been running for a while: connected, the last PING and
    // INFO at a random point of their period, the timer at a random phase.
    this.master = new MasterView(initialPrimary, 0);
    this.master.replicas = group.control.nodes.filter((n) => n !== initialPrimary).map((n) => new InstanceView(n, 'replica', 0));
    for (const view of [this.master, ...this.master.replicas]) this.steadyState(view);
  }

  /** @internal the other Sentinels (they know each other from the start). */
  meet(others: SentinelProcess[], random: RandomStreams): void {
    const { sim, fabric, params } = this.group;
    this.peers = others.map((process) => ({
      process,
      view: { masterDown: false, lastMasterDownReplyUs: -Infinity, leader: null, leaderEpoch: 0, lastHelloUs: -this.rng.int(0, SENTINEL_PUBLISH_PERIOD_US - 1) },
      out: new Link('sentinel', 'sentinel', sim, fabric, params.latency, random.fork(`sentinel/${this.id}->${process.id}`)),
      back: new Link('sentinel', 'sentinel', sim, fabric, params.latency, random.fork(`sentinel/${process.id}->${this.id}`)),
      lastHello: null,
    }));
    this.plan();
  }

  // ---------------------------------------------------------------- the timer

  /**
   * Plans the next tick that has something to do (failover.ts SkippableTimer): a tick where
   * nothing is due changes nothing, so it is skipped. Called after anything that changes this
   * Sentinel's state between ticks.
   */
  protected override plan(): void {
    this.timer.plan();
  }

  /**
   * The earliest time a tick would change something, as sentinelTimer's checks read: busy
   * (every tick) while the master is SDOWN or ODOWN or a failover runs.
   */
  private nextDueUs(): number {
    const m = this.master;
    const now = this.group.sim.nowUs;
    if (m.sdown || m.odown || m.failoverState !== 'none') return now;
    const { downAfterUs } = this.group.params;
    const pingPeriod = Math.min(downAfterUs, SENTINEL_PING_PERIOD_US);
    let due = Infinity;
    // The master, then its replicas (views() without its array: this runs after every reply).
    for (let i = -1; i < m.replicas.length; i++) {
      const v = i < 0 ? m : m.replicas[i];
      if (!v.connected) due = Math.min(due, v.lastReconnUs + SENTINEL_PING_PERIOD_US);
      else {
        const infoPeriod = v !== m && v.linkDownMs !== 0 ? SENTINEL_FAST_INFO_PERIOD_US : SENTINEL_INFO_PERIOD_US;
        due = Math.min(due, v.infoRefreshUs === null ? now : v.infoRefreshUs + infoPeriod + 1);
        due = Math.min(due, Math.max(v.lastPongUs + pingPeriod, v.lastPingUs + pingPeriod / 2) + 1);
      }
      if (!v.sdown) {
        if (v.actPingUs !== null) due = Math.min(due, v.actPingUs + downAfterUs + 1);
        else if (!v.connected) due = Math.min(due, v.lastAvailUs + downAfterUs + 1);
        if (v === m && v.roleReported === 'replica') due = Math.min(due, v.roleReportedUs + downAfterUs + 2 * SENTINEL_INFO_PERIOD_US + 1);
      } else if (v.actPingUs === null && v.connected) due = now; // answered again: -sdown
    }
    for (const peer of this.peers) {
      const v = peer.view;
      if (v.masterDown || v.leader !== null) due = Math.min(due, v.lastMasterDownReplyUs + 5 * SENTINEL_ASK_PERIOD_US + 1);
      // The hello period runs whether or not there is news to tell (a repeat is not sent).
      due = Math.min(due, v.lastHelloUs + SENTINEL_PUBLISH_PERIOD_US + 1);
    }
    return due;
  }

  /** sentinelTimer -> sentinelHandleDictOfRedisInstances. */
  private tick(): void {
    const now = this.now;
    const m = this.master;
    // sentinelHandleRedisInstance(master)
    this.reconnect(m, now);
    this.sendPeriodicCommands(m, now);
    this.checkSubjectivelyDown(m, now);
    this.checkObjectivelyDown(now);
    if (this.startFailoverIfNeeded(now)) this.askMasterStateToOtherSentinels(now, true);
    this.failoverStateMachine(now);
    this.askMasterStateToOtherSentinels(now, false);
    // ... then its replicas and the other Sentinels
    for (const r of m.replicas) {
      this.reconnect(r, now);
      this.sendPeriodicCommands(r, now);
      this.checkSubjectivelyDown(r, now);
    }
    for (const peer of this.peers) this.sendHelloIfDue(peer, now);
    if (m.failoverState === 'update-config') this.switchToPromotedReplica(now);
  }
}
