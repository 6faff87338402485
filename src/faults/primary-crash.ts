/**
 * The Redis primary dies (kill -9). With Sentinel or a Cluster a replica is promoted once the
 * deciders have found it dead (world/redis/sentinel/, cluster/); whatever the
 * replicas had not received is gone (the failover race of redis.io's "Distributed Locks with
 * Redis"). `replication-stalled-for` makes the replicas miss the last stretch of writes: the
 * stream stops that long before the crash, as when the primary was already struggling.
 * Healing restarts the old primary, empty; if it was failed over it comes back believing it
 * is primary until Sentinel (about 10 s later) or the cluster bus (at once) makes it a
 * replica of the new one.
 */
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';

export function injectPrimaryCrash(spec: Extract<FaultSpec, { kind: 'primary-crash' }>, ctx: FaultContext): void {
  const { sim, redis } = ctx.world;
  if (spec.replicationStalledUs > 0) {
    sim.scheduleAt(Math.max(0, spec.atUs - spec.replicationStalledUs), () => {
      redis.stallReplication(true);
      ctx.record('primary-crash', 'event', redis.primary.name, 'replication stream to the replicas stalls');
    });
  }
  sim.scheduleAt(spec.atUs, () => {
    const node = redis.primary;
    if (!node.up) return;
    redis.crash(node);
    const lost = spec.replicationStalledUs > 0 ? `, the last ${formatMicros(spec.replicationStalledUs)} of writes never replicated` : '';
    ctx.record('primary-crash', 'start', node.name, `primary killed${lost}`);
    ctx.healAfter(spec.restartAfterUs, () => {
      if (node.up) return;
      redis.restart(node, false);
      redis.stallReplication(false);
      ctx.record('primary-crash', 'end', node.name, `restarted as ${node.role}`);
    });
  });
}
