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
 *   REPLICAOF NO ONE, then wait for its INFO to say `role:master`. Replicas of a master in
 *   ODOWN get INFO every second (10 s otherwise), counted from the INFO of the ODOWN tick,
 *   which is why the switch comes about 800 ms after the promotion.
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
 * Not modelled (README says so): TILT mode, the pending-command cap and the recycling of
 * links with late PINGs, TCP retransmission (a message sent across a partition is lost; the
 * next PING after it heals gets through), replica-priority (every replica has the default
 * 100), discovery (the Sentinels know each other and the replicas from the start), scripts.
 */
import type { Distribution } from '../../engine/distribution.js';
import type { RandomStream, RandomStreams } from '../../engine/random.js';
import type { Simulation } from '../../engine/simulation.js';
import { formatMicros, type Micros } from '../../engine/time.js';
import { Link, type Fabric } from '../network.js';
import { NodeConnection } from '../node-connection.js';
import { SkippableTimer, timerGapUs, type NodeSnapshot, type PhaseListener, type RedisControl } from './failover.js';
import type { RedisNode } from './node.js';
import { InstanceView, MasterView, type PeerView } from './sentinel-view.js';

// sentinel.c (7.0.15) periods, in microseconds.
const MS = 1000;
const SENTINEL_PING_PERIOD_US = 1000 * MS;
const SENTINEL_INFO_PERIOD_US = 10_000 * MS;
/** INFO period for replicas of a master in ODOWN or failover (sentinelSendPeriodicCommands). */
const SENTINEL_FAST_INFO_PERIOD_US = 1000 * MS;
const SENTINEL_ASK_PERIOD_US = 1000 * MS;
const SENTINEL_PUBLISH_PERIOD_US = 2000 * MS;
const SENTINEL_ELECTION_TIMEOUT_US = 10_000 * MS;
const SENTINEL_MAX_DESYNC_MS = 1000;
/** sentinel.conf parallel-syncs default. */
const SENTINEL_PARALLEL_SYNCS = 1;
/** server.h CONFIG_DEFAULT_HZ; sentinelTimer sets hz = 10 + rand() % 10 after each tick. */
const CONFIG_DEFAULT_HZ = 10;

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

interface HelloContent {
  epoch: number;
  master: RedisNode;
  configEpoch: number;
}

interface MasterDownReply {
  isDown: boolean;
  leader: string | null;
  leaderEpoch: number;
}

interface Peer {
  process: SentinelProcess;
  view: PeerView;
  out: Link;
  back: Link;
  /** What the last hello to this peer said; a repeat would change nothing there. */
  lastHello: HelloContent | null;
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
  sdown(by: SentinelProcess, node: RedisNode): void {
    const flagged = this.processes.filter((p) => p.master.node === node && p.master.sdown).length;
    if (flagged === 1) this.phase('sdown', node, `${by.id} gets no valid reply from ${node.name} for over ${formatMicros(this.params.downAfterUs)}`);
  }

  /** @internal */
  odown(by: SentinelProcess, node: RedisNode, agreeing: number): void {
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

/** One Sentinel process. */
export class SentinelProcess {
  master: MasterView;
  currentEpoch = 0;
  private peers: Peer[] = [];
  private readonly rng: RandomStream;
  /** sentinelTimer, with its own stream for the gaps between ticks. */
  private readonly timer: SkippableTimer;
  private readonly connections = new Map<RedisNode, NodeConnection>();

  constructor(
    readonly id: string,
    private readonly group: Sentinels,
    initialPrimary: RedisNode,
    private readonly random: RandomStreams,
  ) {
    this.rng = random.fork(`sentinel/${id}`);
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

  /** @internal the node died: each open connection to it sees its FIN after the one-way latency. */
  connectionsClosedBy(node: RedisNode): void {
    for (const view of this.views()) {
      if (view.node !== node || !view.connected) continue;
      const generation = view.generation;
      this.connectionTo(node).back.send(() => {
        if (view.generation !== generation) return;
        view.close();
        this.plan();
      });
    }
  }

  private views(): InstanceView[] {
    return [this.master, ...this.master.replicas];
  }

  private steadyState(view: InstanceView): void {
    const pingAgoUs = this.rng.int(0, SENTINEL_PING_PERIOD_US - 1);
    view.connected = true;
    view.actPingUs = null;
    view.lastPingUs = -pingAgoUs;
    view.lastPongUs = -pingAgoUs;
    view.lastAvailUs = -pingAgoUs;
    view.infoRefreshUs = -this.rng.int(0, SENTINEL_INFO_PERIOD_US - 1);
    const s = this.group.control.snapshot(view.node);
    view.roleReportedUs = -SENTINEL_INFO_PERIOD_US;
    view.offset = s.offset;
    view.upstream = s.upstream;
    view.masterLinkUp = s.linkDownSinceUs === null;
    view.runId = s.runId;
  }

  private get now(): number {
    return this.group.sim.nowUs;
  }

  // ---------------------------------------------------------------- the timer

  /**
   * Plans the next tick that has something to do (failover.ts SkippableTimer): a tick where
   * nothing is due changes nothing, so it is skipped. Called after anything that changes this
   * Sentinel's state between ticks.
   */
  private plan(): void {
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
    for (const v of this.views()) {
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

  // ---------------------------------------------------------------- links to Redis nodes

  private connectionTo(node: RedisNode): NodeConnection {
    let connection = this.connections.get(node);
    if (!connection) {
      const { sim, fabric, params } = this.group;
      connection = new NodeConnection(
        node,
        new Link('sentinel', node.name, sim, fabric, params.latency, this.random.fork(`sentinel/${this.id}->${node.name}`)),
        new Link(node.name, 'sentinel', sim, fabric, params.latency, this.random.fork(`sentinel/${node.name}->${this.id}`)),
      );
      this.connections.set(node, connection);
    }
    return connection;
  }

  /**
   * Sends a command on the view's connection; the reply (with the node's state when it ran
   * it) comes back on it, and is dropped if that connection closed meanwhile.
   */
  private command(view: InstanceView, args: string[], onReply: (s: NodeSnapshot) => void): void {
    const generation = view.generation;
    const node = view.node;
    this.connectionTo(node).command(args, this.id, () => this.group.control.snapshot(node), (snapshot) => {
      if (view.generation !== generation || !view.connected) return;
      onReply(snapshot);
      this.plan();
    });
  }

  /** REPLICAOF: run by the node in order with its other commands; the reply is not read. */
  private replicaOf(view: InstanceView, primary: RedisNode | null): void {
    const { control } = this.group;
    const node = view.node;
    this.connectionTo(node).deliver(() => (primary === null ? control.promote(node) : control.follow(node, primary)));
  }

  /** sentinelReconnectInstance: at most once per second while disconnected. */
  private reconnect(view: InstanceView, now: number): void {
    if (view.connected || now - view.lastReconnUs < SENTINEL_PING_PERIOD_US) return;
    view.lastReconnUs = now;
    // The connect is asynchronous (EINPROGRESS, even on loopback) and a PING is queued on it
    // "ASAP" before its outcome is known: a refused connect leaves that PING unanswered,
    // which is what starts the SDOWN clock of a crashed node. Across a partition the SYN is
    // lost and the connect hangs, which looks connected and silent.
    if (view.node.up || this.group.fabric.isCut('sentinel', view.node.name)) {
      view.connected = true;
      this.sendPing(view, now);
    } else {
      view.lastPingUs = now;
      if (view.actPingUs === null) view.actPingUs = now;
      view.generation++;
    }
  }

  /** sentinelSendPeriodicCommands: INFO and PING when due. */
  private sendPeriodicCommands(view: InstanceView, now: number): void {
    if (!view.connected) return;
    const m = this.master;
    const fast = view !== m && (m.odown || m.failoverState !== 'none' || view.linkDownMs !== 0);
    const infoPeriod = fast ? SENTINEL_FAST_INFO_PERIOD_US : SENTINEL_INFO_PERIOD_US;
    if (view.infoRefreshUs === null || now - view.infoRefreshUs > infoPeriod) {
      this.command(view, ['INFO', 'replication'], (s) => this.refreshInstanceInfo(view, s));
    }
    const pingPeriod = Math.min(this.group.params.downAfterUs, SENTINEL_PING_PERIOD_US);
    if (now - view.lastPongUs > pingPeriod && now - view.lastPingUs > pingPeriod / 2) this.sendPing(view, now);
  }

  /** sentinelSendPing: act_ping_time stays at the oldest unanswered PING. */
  private sendPing(view: InstanceView, now: number): void {
    view.lastPingUs = now;
    if (view.actPingUs === null) view.actPingUs = now;
    this.command(view, ['PING'], () => {
      // sentinelPingReplyCallback: PONG is a valid reply.
      view.lastAvailUs = this.now;
      view.lastPongUs = this.now;
      view.actPingUs = null;
    });
  }

  // ---------------------------------------------------------------- availability

  /** sentinelCheckSubjectivelyDown. */
  private checkSubjectivelyDown(view: InstanceView, now: number): void {
    const { downAfterUs } = this.group.params;
    let elapsed = 0;
    if (view.actPingUs !== null) elapsed = now - view.actPingUs;
    else if (!view.connected) elapsed = now - view.lastAvailUs;
    const down =
      elapsed > downAfterUs ||
      // a master that reports itself a replica for long enough
      (view === this.master && view.roleReported === 'replica' && now - view.roleReportedUs > downAfterUs + 2 * SENTINEL_INFO_PERIOD_US);
    if (down && !view.sdown) {
      view.sdown = true;
      view.sdownSinceUs = now;
      if (view === this.master) this.group.sdown(this, view.node);
    } else if (!down && view.sdown) {
      view.sdown = false;
    }
  }

  /** sentinelCheckObjectivelyDown: this Sentinel plus the peers whose last reply said down. */
  private checkObjectivelyDown(now: number): void {
    const m = this.master;
    let agreeing = 0;
    let odown = false;
    if (m.sdown) {
      agreeing = 1 + this.peers.filter((p) => p.view.masterDown).length;
      odown = agreeing >= this.group.params.quorum;
    }
    if (odown && !m.odown) {
      m.odown = true;
      m.odownSinceUs = now;
      this.group.odown(this, m.node, agreeing);
    } else if (!odown && m.odown) {
      m.odown = false;
    }
  }

  /** sentinelAskMasterStateToOtherSentinels: while SDOWN, once per ASK_PERIOD unless forced. */
  private askMasterStateToOtherSentinels(now: number, forced: boolean): void {
    const m = this.master;
    for (const peer of this.peers) {
      const v = peer.view;
      if (now - v.lastMasterDownReplyUs > 5 * SENTINEL_ASK_PERIOD_US) {
        v.masterDown = false;
        v.leader = null;
      }
      if (!m.sdown) continue;
      if (!forced && now - v.lastMasterDownReplyUs < SENTINEL_ASK_PERIOD_US) continue;
      const node = m.node;
      const epoch = this.currentEpoch;
      const runId = m.failoverState !== 'none' ? this.id : '*';
      peer.out.send(() => {
        const reply = peer.process.isMasterDownByAddr(node, epoch, runId);
        peer.back.send(() => this.receiveIsMasterDownReply(peer.view, reply));
      });
    }
  }

  /** @internal SENTINEL is-master-down-by-addr, answered by this Sentinel. */
  isMasterDownByAddr(node: RedisNode, reqEpoch: number, runId: string): MasterDownReply {
    const m = this.master;
    if (m.node !== node) return { isDown: false, leader: null, leaderEpoch: 0 };
    if (runId === '*') return { isDown: m.sdown, leader: null, leaderEpoch: 0 };
    const vote = this.voteLeader(reqEpoch, runId);
    this.plan();
    return { isDown: m.sdown, leader: vote.leader, leaderEpoch: vote.leaderEpoch };
  }

  /** sentinelReceiveIsMasterDownReply. */
  private receiveIsMasterDownReply(v: PeerView, reply: MasterDownReply): void {
    v.lastMasterDownReplyUs = this.now;
    v.masterDown = reply.isDown;
    if (reply.leader !== null) {
      v.leader = reply.leader;
      v.leaderEpoch = reply.leaderEpoch;
    }
    this.plan();
  }

  // ---------------------------------------------------------------- leader election

  /**
   * sentinelVoteLeader: one vote per epoch, for the first who asks. A Sentinel that votes
   * for another pushes its own failover start time forward (2 x failover-timeout plus up
   * to SENTINEL_MAX_DESYNC), so it will not compete with the leader it chose.
   */
  private voteLeader(reqEpoch: number, reqRunId: string): { leader: string | null; leaderEpoch: number } {
    const m = this.master;
    if (reqEpoch > this.currentEpoch) this.currentEpoch = reqEpoch;
    if (m.leaderEpoch < reqEpoch && this.currentEpoch <= reqEpoch) {
      m.leader = reqRunId;
      m.leaderEpoch = this.currentEpoch;
      if (reqRunId !== this.id) m.failoverStartUs = this.now + this.desyncUs();
    }
    return { leader: m.leader, leaderEpoch: m.leaderEpoch };
  }

  /**
   * sentinelGetLeader: the votes the peers reported for the current epoch, plus this
   * Sentinel's own (for the most voted, or itself). The winner needs a majority of all the
   * Sentinels and at least `quorum` votes.
   */
  private getLeader(epoch: number): string | null {
    const votes = new Map<string, number>();
    const count = (id: string): number => {
      const n = (votes.get(id) ?? 0) + 1;
      votes.set(id, n);
      return n;
    };
    for (const p of this.peers) if (p.view.leader !== null && p.view.leaderEpoch === this.currentEpoch) count(p.view.leader);
    let winner: string | null = null;
    let max = 0;
    for (const [id, n] of votes) {
      if (n > max) {
        max = n;
        winner = id;
      }
    }
    const mine = this.voteLeader(epoch, winner ?? this.id);
    if (mine.leader !== null && mine.leaderEpoch === epoch) {
      const n = count(mine.leader);
      if (n > max) {
        max = n;
        winner = mine.leader;
      }
    }
    const voters = this.peers.length + 1;
    if (winner !== null && (max < Math.floor(voters / 2) + 1 || max < this.group.params.quorum)) winner = null;
    return winner;
  }

  private desyncUs(): number {
    return this.rng.int(0, SENTINEL_MAX_DESYNC_MS - 1) * MS;
  }

  // ---------------------------------------------------------------- the failover

  /** sentinelStartFailoverIfNeeded: ODOWN, none in progress, none started in 2 x failover-timeout. */
  private startFailoverIfNeeded(now: number): boolean {
    const m = this.master;
    if (!m.odown || m.failoverState !== 'none') return false;
    if (now - m.failoverStartUs < 2 * this.group.params.failoverTimeoutUs) return false;
    // sentinelStartFailover: the desync only matters to the next attempt.
    m.failoverState = 'wait-start';
    m.failoverEpoch = ++this.currentEpoch;
    m.failoverStartUs = now + this.desyncUs();
    m.failoverStateChangeUs = now;
    return true;
  }

  /** sentinelFailoverStateMachine: one state per tick. */
  private failoverStateMachine(now: number): void {
    switch (this.master.failoverState) {
      case 'wait-start':
        return this.failoverWaitStart(now);
      case 'select-slave':
        return this.failoverSelectSlave(now);
      case 'send-slaveof-noone':
        return this.failoverSendSlaveOfNoOne(now);
      case 'wait-promotion':
        return this.failoverWaitPromotion(now);
      case 'reconf-slaves':
        return this.failoverReconfNextSlave(now);
      default:
        return;
    }
  }

  private failoverWaitStart(now: number): void {
    const m = this.master;
    const { failoverTimeoutUs } = this.group.params;
    if (this.getLeader(m.failoverEpoch) !== this.id) {
      if (now - m.failoverStartUs > Math.min(SENTINEL_ELECTION_TIMEOUT_US, failoverTimeoutUs)) {
        this.abortFailover(now, 'not elected leader in time');
      }
      return;
    }
    this.group.phase('elected-leader', m.node, `${this.id} leads the failover of ${m.node.name} (epoch ${m.failoverEpoch})`);
    this.setFailoverState('select-slave', now);
  }

  private failoverSelectSlave(now: number): void {
    const m = this.master;
    const chosen = this.selectSlave(now);
    if (!chosen) {
      this.abortFailover(now, 'no replica eligible for promotion');
      return;
    }
    chosen.promoted = true;
    m.promotedReplica = chosen;
    this.setFailoverState('send-slaveof-noone', now);
  }

  /**
   * sentinelSelectSlave: replicas that are up (not SDOWN, connected, answered a PING in the
   * last 5 s), whose INFO is fresh (5 s while the master is SDOWN, 30 s otherwise) and whose
   * link to the master has not been down much longer than the master has; the best by
   * priority (all 100 here), then replication offset, then run id.
   */
  private selectSlave(now: number): InstanceView | null {
    const m = this.master;
    const { downAfterUs } = this.group.params;
    const maxMasterDownUs = (m.sdown && m.sdownSinceUs !== null ? now - m.sdownSinceUs : 0) + 10 * downAfterUs;
    const infoValidityUs = m.sdown ? 5 * SENTINEL_PING_PERIOD_US : 3 * SENTINEL_INFO_PERIOD_US;
    const candidates = m.replicas.filter(
      (r) =>
        !r.sdown &&
        r.connected &&
        now - r.lastAvailUs <= 5 * SENTINEL_PING_PERIOD_US &&
        r.infoRefreshUs !== null &&
        now - r.infoRefreshUs <= infoValidityUs &&
        r.linkDownMs * MS <= maxMasterDownUs,
    );
    candidates.sort((a, b) => b.offset - a.offset || compareRunIds(a.runId, b.runId));
    return candidates[0] ?? null;
  }

  private failoverSendSlaveOfNoOne(now: number): void {
    const m = this.master;
    const promoted = m.promotedReplica as InstanceView;
    if (!promoted.connected) {
      if (now - m.failoverStateChangeUs > this.group.params.failoverTimeoutUs) this.abortFailover(now, `${promoted.node.name} unreachable`);
      return;
    }
    this.replicaOf(promoted, null);
    this.setFailoverState('wait-promotion', now);
  }

  /** The promotion itself is noticed in the replica's INFO (refreshInstanceInfo). */
  private failoverWaitPromotion(now: number): void {
    const m = this.master;
    if (now - m.failoverStateChangeUs > this.group.params.failoverTimeoutUs) {
      this.abortFailover(now, `${(m.promotedReplica as InstanceView).node.name} did not turn into a primary`);
    }
  }

  /**
   * sentinelFailoverReconfNextSlave: REPLICAOF <promoted> to `parallel-syncs` replicas at a
   * time. Its -slave-reconf-sent-timeout (10 s) is checked inside the loop, which never gets
   * to a replica in RECONF_SENT while parallel-syncs is 1 (that replica is in progress and
   * stops the loop), so it is left out here.
   */
  private failoverReconfNextSlave(now: number): void {
    const m = this.master;
    const promoted = m.promotedReplica as InstanceView;
    let inProgress = m.replicas.filter((r) => r.reconf === 'sent' || r.reconf === 'inprog').length;
    for (const r of m.replicas) {
      if (inProgress >= SENTINEL_PARALLEL_SYNCS) break;
      if (r.promoted || r.reconf !== 'none' || !r.connected) continue;
      this.replicaOf(r, promoted.node);
      r.reconf = 'sent';
      inProgress++;
    }
    this.failoverDetectEnd(now);
  }

  /** sentinelFailoverDetectEnd: every reachable replica follows the promoted one, or failover-timeout. */
  private failoverDetectEnd(now: number): void {
    const m = this.master;
    const promoted = m.promotedReplica;
    if (!promoted || promoted.sdown) return;
    let notReconfigured = m.replicas.filter((r) => !r.promoted && r.reconf !== 'done' && !r.sdown).length;
    const timedOut = now - m.failoverStateChangeUs > this.group.params.failoverTimeoutUs;
    if (timedOut) notReconfigured = 0;
    if (notReconfigured === 0) this.setFailoverState('update-config', now);
    if (timedOut) {
      for (const r of m.replicas) {
        if (r.promoted || r.reconf !== 'none' || !r.connected) continue;
        this.replicaOf(r, promoted.node);
        r.reconf = 'sent';
      }
    }
  }

  private setFailoverState(state: MasterView['failoverState'], now: number): void {
    this.master.failoverState = state;
    this.master.failoverStateChangeUs = now;
  }

  /** sentinelAbortFailover: the start time stays, so the next attempt waits 2 x failover-timeout. */
  private abortFailover(now: number, reason: string): void {
    const m = this.master;
    const retryUs = m.failoverStartUs + 2 * this.group.params.failoverTimeoutUs;
    this.group.phase('failover-abort', m.node, `${this.id} gives up the failover of ${m.node.name}: ${reason}; next attempt at ${formatMicros(retryUs)} at the earliest`);
    m.failoverState = 'none';
    m.failoverStateChangeUs = now;
    if (m.promotedReplica) m.promotedReplica.promoted = false;
    m.promotedReplica = null;
  }

  /** sentinelFailoverSwitchToPromotedSlave: +switch-master. */
  private switchToPromotedReplica(now: number): void {
    const m = this.master;
    const ref = m.promotedReplica ?? m;
    this.group.switched(ref.node, m.configEpoch);
    this.resetMasterAndChangeAddress(ref.node, now);
  }

  /**
   * sentinelResetMasterAndChangeAddress: the master is now `node`; the old master and the
   * other replicas are watched as its replicas, on fresh connections.
   */
  private resetMasterAndChangeAddress(node: RedisNode, now: number): void {
    const old = this.master;
    const replicaNodes = old.replicas.map((r) => r.node).filter((n) => n !== node);
    if (node !== old.node) replicaNodes.push(old.node);
    for (const view of this.views()) view.close();
    const m = new MasterView(node, now);
    m.configEpoch = old.configEpoch;
    m.lastReconnUs = old.lastReconnUs; // the link object survives the reset
    m.replicas = replicaNodes.map((n) => new InstanceView(n, 'replica', now));
    this.master = m;
  }

  // ---------------------------------------------------------------- INFO

  /** sentinelRefreshInstanceInfo: what INFO replication said, and what Sentinel does about it. */
  private refreshInstanceInfo(view: InstanceView, s: NodeSnapshot): void {
    const now = this.now;
    const m = this.master;
    view.runId = s.runId;
    view.linkDownMs = 0;
    if (s.role === 'replica') {
      if (s.linkDownSinceUs !== null) view.linkDownMs = Math.floor((now - s.linkDownSinceUs) / 1_000_000) * 1000;
      view.masterLinkUp = s.linkDownSinceUs === null;
      view.offset = s.offset;
      if (s.upstream !== view.upstream) {
        view.upstream = s.upstream;
        view.confChangeUs = now;
      }
    }
    view.infoRefreshUs = now;
    if (s.role !== view.roleReported) {
      view.roleReportedUs = now;
      view.roleReported = s.role;
      if (s.role === 'replica') view.confChangeUs = now;
    }
    if (view === m) return;

    if (s.role === 'primary') {
      if (view.promoted && m.failoverState === 'wait-promotion') {
        // +promoted-slave: the new configuration epoch is ours; tell the other Sentinels now.
        m.configEpoch = m.failoverEpoch;
        this.setFailoverState('reconf-slaves', now);
        for (const peer of this.peers) peer.view.lastHelloUs = -Infinity;
      } else {
        // A replica that says it is a master: wait for new configurations to arrive, then
        // +convert-to-slave.
        const waitUs = 4 * SENTINEL_PUBLISH_PERIOD_US;
        if (!view.promoted && this.masterLooksSane(now) && noDownFor(view, waitUs, now) && now - view.roleReportedUs > waitUs) {
          this.replicaOf(view, m.node);
        }
      }
    }
    if (s.role === 'replica' && view.upstream !== m.node) {
      // +fix-slave-config: a replica following another master, for longer than failover-timeout.
      const waitUs = this.group.params.failoverTimeoutUs;
      if (this.masterLooksSane(now) && noDownFor(view, waitUs, now) && now - view.confChangeUs > waitUs) this.replicaOf(view, m.node);
    }
    if (s.role === 'replica' && (view.reconf === 'sent' || view.reconf === 'inprog')) {
      if (view.reconf === 'sent' && m.promotedReplica && view.upstream === m.promotedReplica.node) view.reconf = 'inprog';
      if (view.reconf === 'inprog' && view.masterLinkUp) view.reconf = 'done';
    }
  }

  /** sentinelMasterLooksSane. */
  private masterLooksSane(now: number): boolean {
    const m = this.master;
    return m.roleReported === 'primary' && !m.sdown && !m.odown && m.infoRefreshUs !== null && now - m.infoRefreshUs < 2 * SENTINEL_INFO_PERIOD_US;
  }

  // ---------------------------------------------------------------- hellos

  /** sentinelGetCurrentMasterAddress: the promoted replica once it has answered as a master. */
  private currentMasterAddress(): RedisNode {
    const m = this.master;
    const promoted = m.promotedReplica;
    return promoted && (m.failoverState === 'reconf-slaves' || m.failoverState === 'update-config') ? promoted.node : m.node;
  }

  private hello(): HelloContent {
    return { epoch: this.currentEpoch, master: this.currentMasterAddress(), configEpoch: this.master.configEpoch };
  }

  private sameHello(a: HelloContent | null, b: HelloContent): boolean {
    return a !== null && a.epoch === b.epoch && a.master === b.master && a.configEpoch === b.configEpoch;
  }

  /** The hello to another Sentinel, every SENTINEL_PUBLISH_PERIOD or at once when forced. */
  private sendHelloIfDue(peer: Peer, now: number): void {
    if (now - peer.view.lastHelloUs <= SENTINEL_PUBLISH_PERIOD_US) return;
    peer.view.lastHelloUs = now;
    const hello = this.hello();
    if (this.sameHello(peer.lastHello, hello)) return;
    peer.lastHello = hello;
    peer.out.send(() => peer.process.receiveHello(hello));
  }

  /** @internal sentinelProcessHelloMessage: a newer configuration epoch wins. */
  receiveHello(hello: HelloContent): void {
    if (hello.epoch > this.currentEpoch) this.currentEpoch = hello.epoch;
    const m = this.master;
    if (m.configEpoch < hello.configEpoch) {
      m.configEpoch = hello.configEpoch;
      if (hello.master !== m.node) {
        // +config-update-from, +switch-master
        this.group.switched(hello.master, hello.configEpoch);
        this.resetMasterAndChangeAddress(hello.master, this.now);
      }
    }
    this.plan();
  }
}

/** sentinelRedisInstanceNoDownFor: no SDOWN or ODOWN began in the last `us`. */
function noDownFor(view: InstanceView, us: number, now: number): boolean {
  const starts = [view.sdownSinceUs, view instanceof MasterView ? view.odownSinceUs : null].filter((t): t is number => t !== null);
  return starts.length === 0 || now - Math.max(...starts) > us;
}

/** compareSlavesForPromotion's last key: the smaller run id (strcasecmp); an unknown one last. */
function compareRunIds(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
