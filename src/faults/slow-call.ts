/** A dependency's latency changes for a window ("From setnx to Redisson": the risk check at 3-8 s for ~90 s). */
import { describeDistribution } from '../engine/distribution.js';
import type { FaultSpec } from '../spec/faults.js';
import type { FaultContext } from './fault-context.js';
import type { ClientWorld } from '../world/world.js';

export function injectSlowCall(spec: Extract<FaultSpec, { kind: 'slow-call' }>, ctx: FaultContext<ClientWorld>): void {
  const { sim, dependencies } = ctx.world;
  const dependency = dependencies.get(spec.dependency);
  if (!dependency) throw new Error(`slow-call names unknown dependency ${spec.dependency}`);
  sim.scheduleAt(spec.atUs, () => {
    dependency.setOverride(spec.latency);
    ctx.record('slow-call', 'start', spec.dependency, `latency now ${describeDistribution(spec.latency)}`);
    ctx.healAfter(spec.durationUs, () => {
      dependency.setOverride(null);
      ctx.record('slow-call', 'end', spec.dependency, 'latency back to normal');
    });
  });
}
