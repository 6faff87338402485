/**
 * What one Sentinel knows about the instances it watches (redis 7.0.15 src/sentinel.c,
 * struct sentinelRedisInstance and struct instanceLink): the state of its connection to a
 * master or replica, what the last INFO said, and what the other Sentinels answered.
 * Times are simulated microseconds; `null` stands where sentinel.c uses 0 for "never".
 */
import type { RedisNode } from '../node.js';

type ReportedRole = 'primary' | 'replica';

/** sentinel.c SENTINEL_FAILOVER_STATE_*; `none` is no failover in progress. */
type FailoverState =
  | 'none'
  | 'wait-start'
  | 'select-slave'
  | 'send-slaveof-noone'
  | 'wait-promotion'
  | 'reconf-slaves'
  | 'update-config';

export class InstanceView {
  /** !link->disconnected (a connect in progress counts as connected, as in sentinelReconnectInstance). */
  connected = false;
  /** Bumped when the connection closes: replies still on their way to it are dropped. */
  generation = 0;
  /** act_ping_time: when the oldest PING still unanswered was sent. */
  actPingUs: number | null;
  lastPingUs = -Infinity;
  /** last_pong_time: any reply to PING. */
  lastPongUs: number;
  /** last_avail_time: a valid reply to PING (PONG). */
  lastAvailUs: number;
  lastReconnUs = -Infinity;
  infoRefreshUs: number | null = null;
  roleReported: ReportedRole;
  roleReportedUs: number;
  /** slave_repl_offset from the last INFO. */
  offset = 0;
  /** master_host / master_port from the last INFO (replicas). */
  upstream: RedisNode | null = null;
  /** slave_conf_change_time: when the replica last changed the master it follows. */
  confChangeUs: number;
  /** master_link_down_since_seconds from the last INFO, in ms (0: link up). */
  linkDownMs = 0;
  masterLinkUp = false;
  runId: string | null = null;
  sdown = false;
  sdownSinceUs: number | null = null;
  /** SRI_PROMOTED: the replica chosen in this failover. */
  promoted = false;
  /** SRI_RECONF_SENT / INPROG / DONE while the replicas are pointed at the promoted one. */
  reconf: 'none' | 'sent' | 'inprog' | 'done' = 'none';

  /** createSentinelRedisInstance + createInstanceLink: not connected, "pinged" now. */
  constructor(
    readonly node: RedisNode,
    role: ReportedRole,
    nowUs: number,
  ) {
    this.actPingUs = nowUs;
    this.lastAvailUs = nowUs;
    this.lastPongUs = nowUs;
    this.roleReported = role;
    this.roleReportedUs = nowUs;
    this.confChangeUs = nowUs;
  }

  /** instanceLinkCloseConnection. */
  close(): void {
    this.connected = false;
    this.generation++;
  }
}

export class MasterView extends InstanceView {
  odown = false;
  odownSinceUs: number | null = null;
  configEpoch = 0;
  failoverState: FailoverState = 'none';
  failoverEpoch = 0;
  /** failover_start_time; -Infinity where sentinel.c has 0 ("long ago": may start at once). */
  failoverStartUs = -Infinity;
  failoverStateChangeUs = 0;
  promotedReplica: InstanceView | null = null;
  /** This Sentinel's vote: the leader it voted for and in which epoch. */
  leader: string | null = null;
  leaderEpoch = 0;
  replicas: InstanceView[] = [];

  constructor(node: RedisNode, nowUs: number) {
    super(node, 'primary', nowUs);
  }
}

/** What a Sentinel knows of another Sentinel (is-master-down-by-addr replies, hellos sent). */
export interface PeerView {
  /** SRI_MASTER_DOWN: the peer's last reply said the master is down. */
  masterDown: boolean;
  lastMasterDownReplyUs: number;
  /** The vote the peer reported, and its epoch. */
  leader: string | null;
  leaderEpoch: number;
  /** last_pub_time of the hello to this peer. */
  lastHelloUs: number;
}
