/**
 * A stop-the-world GC pause of one client: workers, watchdog timers and reply handling all
 * stop; the clock does not. Replies wait in the socket buffer until it ends ("No master key for data
 * safety" 3.1: a 15 s full GC against a 10 s lease; see docs/sources.md).
 */
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';
import type { ClientWorld } from '../world/world.js';

export function injectGcPause(spec: Extract<FaultSpec, { kind: 'gc-pause' }>, ctx: FaultContext<ClientWorld>): void {
  const { sim, clients } = ctx.world;
  const client = clients[spec.client - 1];
  sim.scheduleAt(spec.atUs, () => {
    if (!client.up) return;
    const group = client.group;
    group.pause();
    ctx.record('gc-pause', 'start', client.name, `stop-the-world pause of ${formatMicros(spec.durationUs)}`);
    ctx.healAfter(spec.durationUs, () => {
      group.resume();
      ctx.record('gc-pause', 'end', client.name, 'threads run again');
    });
  });
}
