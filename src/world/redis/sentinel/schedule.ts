/**
 * When a Sentinel's timer next has something to do (redis 7.0.15 src/sentinel.c sentinelTimer
 * and the checks of the functions it calls): a tick where nothing is due changes nothing, so
 * failover.ts's SkippableTimer skips it. A part of a Sentinel (process.ts), reading its state
 * (state.ts) only.
 */
import { SENTINEL_ASK_PERIOD_US, SENTINEL_FAST_INFO_PERIOD_US, SENTINEL_INFO_PERIOD_US, SENTINEL_PING_PERIOD_US, SENTINEL_PUBLISH_PERIOD_US } from './periods.js';
import type { SentinelState } from './state.js';

/**
 * The earliest time a tick would change something, as sentinelTimer's checks read: busy
 * (every tick) while the master is SDOWN or ODOWN or a failover runs.
 */
export function nextTickDueUs(state: SentinelState): number {
  const m = state.master;
  const now = state.now;
  if (m.sdown || m.odown || m.failoverState !== 'none') return now;
  const { downAfterUs } = state.world.params;
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
  for (const peer of state.peers) {
    const v = peer.view;
    if (v.masterDown || v.leader !== null) due = Math.min(due, v.lastMasterDownReplyUs + 5 * SENTINEL_ASK_PERIOD_US + 1);
    // The hello period runs whether or not there is news to tell (a repeat is not sent).
    due = Math.min(due, v.lastHelloUs + SENTINEL_PUBLISH_PERIOD_US + 1);
  }
  return due;
}
