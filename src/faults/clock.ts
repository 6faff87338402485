/**
 * Clock faults on a client or a Redis node. A jump steps the clock (an NTP step, an
 * operator); drift makes it run fast or slow for a while (it keeps the error it gathered).
 * A Redis node judges TTLs by its clock, so a forward jump expires locks early: Kleppmann's
 * Redlock counterexample ("How to do distributed locking", 2016: C's clock jumps forward). A client measures lease validity
 * and wait budgets by its own clock.
 */
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';
import type { ClientWorld } from '../world/world.js';
import { findHost, hostName, type Host } from './hosts.js';

function clockChanged(host: Host): void {
  if (host.kind === 'redis') host.node.clockChanged();
}

const clockOf = (host: Host) => (host.kind === 'client' ? host.client.clock : host.node.clock);

export function injectClockJump(spec: Extract<FaultSpec, { kind: 'clock-jump' }>, ctx: FaultContext<ClientWorld>): void {
  ctx.world.sim.scheduleAt(spec.atUs, () => {
    const host = findHost(ctx.world, spec.target);
    clockOf(host).jump(spec.byUs);
    const direction = spec.byUs >= 0 ? 'forward' : 'backward';
    ctx.record('clock-jump', 'event', hostName(host), `clock jumps ${direction} by ${formatMicros(Math.abs(spec.byUs))}`);
    clockChanged(host);
  });
}

export function injectClockDrift(spec: Extract<FaultSpec, { kind: 'clock-drift' }>, ctx: FaultContext<ClientWorld>): void {
  ctx.world.sim.scheduleAt(spec.atUs, () => {
    const host = findHost(ctx.world, spec.target);
    const clock = clockOf(host);
    const before = clock.driftPpm;
    clock.setDrift(before + spec.ppm);
    clockChanged(host);
    ctx.record('clock-drift', 'start', hostName(host), `clock runs ${spec.ppm > 0 ? 'fast' : 'slow'} by ${Math.abs(spec.ppm)} ppm`);
    ctx.healAfter(spec.durationUs, () => {
      clock.setDrift(clock.driftPpm - spec.ppm);
      clockChanged(host);
      ctx.record('clock-drift', 'end', hostName(host), 'clock rate back to normal (the error it gathered stays)');
    });
  });
}
