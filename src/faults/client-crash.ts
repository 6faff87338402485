/**
 * kill -9 of a client process, at a time or at a named point of its code from a time on
 * (`between-setnx-and-expire`: the classic lock with no TTL). Nothing is released; the
 * process may restart later with fresh threads.
 */
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';
import type { ClientWorld } from '../world/world.js';

export function injectClientCrash(spec: Extract<FaultSpec, { kind: 'crash' }>, ctx: FaultContext<ClientWorld>): void {
  const { sim, clients } = ctx.world;
  const client = clients[spec.client - 1];
  const afterCrash = (): void => ctx.healAfter(spec.restartAfterUs, () => ctx.restartClient(client));
  if (spec.point !== null) {
    ctx.armCrashPoint(client, spec.point, spec.atUs, afterCrash);
    return;
  }
  sim.scheduleAt(spec.atUs, () => {
    if (!client.up) return;
    const restart = spec.restartAfterUs === null ? '' : `, restarts after ${formatMicros(spec.restartAfterUs)}`;
    ctx.crashClient(client, `kill -9${restart}`);
    afterCrash();
  });
}
