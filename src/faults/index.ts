/** Fault kinds by name; each is plain data in the scenario and a module here. */
import type { FaultSpec } from '../scenario/types.js';
import { injectClientCrash } from './client-crash.js';
import { injectClockDrift, injectClockJump } from './clock.js';
import type { FaultContext } from './fault-context.js';
import { injectGcPause } from './gc-pause.js';
import { injectPartition } from './partition.js';
import { injectPrimaryCrash } from './primary-crash.js';
import { injectRedisPause, injectRedisRestart } from './redis-node.js';
import { injectSlowCall } from './slow-call.js';
import { injectDbSlow, injectNetworkDelay } from './slowness.js';

export type { FaultContext } from './fault-context.js';
export { expandRandomFaults } from './schedule.js';

export const FAULT_KINDS = [
  'gc-pause',
  'slow-call',
  'primary-crash',
  'crash',
  'partition',
  'clock-jump',
  'clock-drift',
  'redis-pause',
  'redis-restart',
  'network-delay',
  'db-slow',
] as const;

export function injectFault(spec: FaultSpec, ctx: FaultContext): void {
  switch (spec.kind) {
    case 'gc-pause':
      return injectGcPause(spec, ctx);
    case 'slow-call':
      return injectSlowCall(spec, ctx);
    case 'primary-crash':
      return injectPrimaryCrash(spec, ctx);
    case 'crash':
      return injectClientCrash(spec, ctx);
    case 'partition':
      return injectPartition(spec, ctx);
    case 'clock-jump':
      return injectClockJump(spec, ctx);
    case 'clock-drift':
      return injectClockDrift(spec, ctx);
    case 'redis-pause':
      return injectRedisPause(spec, ctx);
    case 'redis-restart':
      return injectRedisRestart(spec, ctx);
    case 'network-delay':
      return injectNetworkDelay(spec, ctx);
    case 'db-slow':
      return injectDbSlow(spec, ctx);
  }
}
