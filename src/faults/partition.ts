/**
 * A network partition: every path between the hosts in `isolate` and those in `from`
 * (default: everyone else, the failover deciders included) is cut for a while. Messages in
 * flight across the cut are lost. `mode: silent` (the default) tells no one: connections hang
 * until their own timeouts; `mode: reject` resets them (network.ts PartitionMode): a client
 * that fails on a closed connection fails at once, a primary lets go of a cut-off replica at
 * once (so min-replicas-to-write refuses writes at once), an ioredis connection closes and its
 * reconnects are refused until the heal. A primary cut off from the deciders is failed over; it
 * keeps serving the clients on its side ("No master key for data safety" 3.3's split brain) unless
 * min-replicas-to-write or the cluster's node timeout makes it refuse writes. When the
 * partition heals, a deposed primary follows the new one and loses what it accepted.
 */
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';
import { allHostNames, findHost, hostName } from './hosts.js';

export function injectPartition(spec: Extract<FaultSpec, { kind: 'partition' }>, ctx: FaultContext): void {
  const { sim, fabric } = ctx.world;
  sim.scheduleAt(spec.atUs, () => {
    const name = (h: string): string => hostName(findHost(ctx.world, h));
    const isolate = spec.isolate.map(name);
    const others = spec.from ? spec.from.map(name) : allHostNames(ctx.world).filter((h) => !isolate.includes(h));
    const pairs: Array<[string, string]> = [];
    for (const a of isolate) for (const b of others) if (a !== b) pairs.push([a, b]);
    fabric.cut(pairs, spec.mode);
    ctx.record('partition', 'start', isolate.join(','), `cut off from ${others.join(',')} for ${formatMicros(spec.durationUs)}${spec.mode === 'reject' ? ' (connections reset, new ones refused)' : ''}`);
    ctx.healAfter(spec.durationUs, () => {
      fabric.heal(pairs, spec.mode);
      ctx.record('partition', 'end', isolate.join(','), 'network healed');
    });
  });
}
