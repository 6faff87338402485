/**
 * Slowness without failure: extra network delay on every path to and from a host (a
 * congested link, GitHub's ~90 s delayed packets in Kleppmann's post), or a database that
 * serves every statement `factor` times slower (a long-running query, a checkpoint).
 */
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';
import type { ClientWorld } from '../world/world.js';
import { findHost, hostName } from './hosts.js';

export function injectNetworkDelay(spec: Extract<FaultSpec, { kind: 'network-delay' }>, ctx: FaultContext): void {
  const { sim, fabric } = ctx.world;
  sim.scheduleAt(spec.atUs, () => {
    const name = hostName(findHost(ctx.world, spec.target));
    fabric.addDelay(name, spec.delayUs);
    ctx.record('network-delay', 'start', name, `every message to or from ${name} takes ${formatMicros(spec.delayUs)} longer`);
    ctx.healAfter(spec.durationUs, () => {
      fabric.addDelay(name, -spec.delayUs);
      ctx.record('network-delay', 'end', name, 'delay gone');
    });
  });
}

export function injectDbSlow(spec: Extract<FaultSpec, { kind: 'db-slow' }>, ctx: FaultContext<ClientWorld>): void {
  const { sim, database } = ctx.world;
  sim.scheduleAt(spec.atUs, () => {
    database.slowFactor *= spec.factor;
    ctx.record('db-slow', 'start', 'database', `statements ${spec.factor}x slower`);
    ctx.healAfter(spec.durationUs, () => {
      database.slowFactor /= spec.factor;
      ctx.record('db-slow', 'end', 'database', 'statement time back to normal');
    });
  });
}
