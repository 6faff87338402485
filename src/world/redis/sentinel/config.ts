/**
 * What a Sentinel learns and spreads about the configuration (redis 7.0.15 src/sentinel.c):
 * INFO replies (sentinelRefreshInstanceInfo: the promotion noticed, +convert-to-slave,
 * +fix-slave-config, replicas reconfigured) and hellos to and from the other Sentinels
 * (sentinelSendHello, sentinelProcessHelloMessage: the newest configuration epoch wins).
 * A part of a Sentinel (process.ts) on its state (state.ts): the INFO replies come from
 * links.ts, the promotion and the switch are failover-machine.ts's.
 */
import type { NodeSnapshot } from '../failover.js';
import type { RedisNode } from '../node.js';
import type { FailoverMachine } from './failover-machine.js';
import type { NodeLinks } from './links.js';
import { SENTINEL_INFO_PERIOD_US, SENTINEL_PUBLISH_PERIOD_US } from './periods.js';
import type { HelloContent, Peer, SentinelState } from './state.js';
import { MasterView, type InstanceView } from './view.js';

export class ConfigSpread {
  constructor(
    private readonly state: SentinelState,
    private readonly links: NodeLinks,
    private readonly failover: FailoverMachine,
    /** Plans the next timer tick that has something to do (process.ts). */
    private readonly plan: () => void,
  ) {}

  /** sentinelRefreshInstanceInfo: what INFO replication said, and what Sentinel does about it. */
  refreshInstanceInfo(view: InstanceView, s: NodeSnapshot): void {
    const now = this.state.now;
    const m = this.state.master;
    view.runId = s.runId;
    view.linkDownMs = 0;
    if (s.role === 'replica') {
      // master_link_down_since_seconds, in whole seconds (redis 7.0.15 server.c reports the
      // difference of the cached unix time in seconds, so it can turn 1 up to a second sooner).
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
        this.failover.setFailoverState('reconf-slaves', now);
        for (const peer of this.state.peers) peer.view.lastHelloUs = -Infinity;
      } else {
        // A replica that says it is a master: wait for new configurations to arrive, then
        // +convert-to-slave.
        const waitUs = 4 * SENTINEL_PUBLISH_PERIOD_US;
        if (!view.promoted && this.masterLooksSane(now) && noDownFor(view, waitUs, now) && now - view.roleReportedUs > waitUs) {
          this.links.replicaOf(view, m.node);
        }
      }
    }
    if (s.role === 'replica' && view.upstream !== m.node) {
      // +fix-slave-config: a replica following another master, for longer than failover-timeout.
      const waitUs = this.state.world.params.failoverTimeoutUs;
      if (this.masterLooksSane(now) && noDownFor(view, waitUs, now) && now - view.confChangeUs > waitUs) this.links.replicaOf(view, m.node);
    }
    if (s.role === 'replica' && (view.reconf === 'sent' || view.reconf === 'inprog')) {
      if (view.reconf === 'sent' && m.promotedReplica && view.upstream === m.promotedReplica.node) view.reconf = 'inprog';
      if (view.reconf === 'inprog' && view.masterLinkUp) view.reconf = 'done';
    }
  }

  /** sentinelMasterLooksSane. */
  private masterLooksSane(now: number): boolean {
    const m = this.state.master;
    return m.roleReported === 'primary' && !m.sdown && !m.odown && m.infoRefreshUs !== null && now - m.infoRefreshUs < 2 * SENTINEL_INFO_PERIOD_US;
  }

  /** sentinelGetCurrentMasterAddress: the promoted replica once it has answered as a master. */
  private currentMasterAddress(): RedisNode {
    const m = this.state.master;
    const promoted = m.promotedReplica;
    return promoted && (m.failoverState === 'reconf-slaves' || m.failoverState === 'update-config') ? promoted.node : m.node;
  }

  private hello(): HelloContent {
    return { epoch: this.state.currentEpoch, master: this.currentMasterAddress(), configEpoch: this.state.master.configEpoch };
  }

  /** Whether `a` tells what a hello made now (hello()) would. */
  private sameHello(a: HelloContent | null): boolean {
    return a !== null && a.epoch === this.state.currentEpoch && a.master === this.currentMasterAddress() && a.configEpoch === this.state.master.configEpoch;
  }

  /** The hello to another Sentinel, every SENTINEL_PUBLISH_PERIOD or at once when forced. */
  sendHelloIfDue(peer: Peer, now: number): void {
    if (now - peer.view.lastHelloUs <= SENTINEL_PUBLISH_PERIOD_US) return;
    peer.view.lastHelloUs = now;
    // Compared before a hello is made: most periods have no news (a repeat is not sent).
    if (this.sameHello(peer.lastHello)) return;
    const hello = this.hello();
    peer.lastHello = hello;
    sendHello(peer, hello);
  }

  /** @internal sentinelProcessHelloMessage: a newer configuration epoch wins. */
  receiveHello(hello: HelloContent): void {
    if (hello.epoch > this.state.currentEpoch) this.state.currentEpoch = hello.epoch;
    const m = this.state.master;
    if (m.configEpoch < hello.configEpoch) {
      m.configEpoch = hello.configEpoch;
      if (hello.master !== m.node) {
        // +config-update-from, +switch-master
        this.state.world.switched(hello.master, hello.configEpoch);
        this.failover.resetMasterAndChangeAddress(hello.master, this.state.now);
      }
    }
    this.plan();
  }
}

/**
 * The hello on its way to the peer. A function of its own: a closure made in sendHelloIfDue
 * had every call allocate a context for the variables it captures, news or not.
 */
function sendHello(peer: Peer, hello: HelloContent): void {
  peer.out.send(() => peer.process.receiveHello(hello));
}

/** sentinelRedisInstanceNoDownFor: no SDOWN or ODOWN began in the last `us`. */
function noDownFor(view: InstanceView, us: number, now: number): boolean {
  const starts = [view.sdownSinceUs, view instanceof MasterView ? view.odownSinceUs : null].filter((t): t is number => t !== null);
  return starts.length === 0 || now - Math.max(...starts) > us;
}
