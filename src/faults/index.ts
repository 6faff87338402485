/** Fault kinds by name; each is plain data in the scenario and a module here. */
import type { FaultSpec } from '../spec/faults.js';
import { injectClientCrash } from './client-crash.js';
import { injectClockDrift, injectClockJump } from './clock.js';
import type { FaultContext } from './fault-context.js';
import type { ClientWorld } from '../world/world.js';
import { injectGcPause } from './gc-pause.js';
import { injectPartition } from './partition.js';
import { injectPrimaryCrash } from './primary-crash.js';
import { injectRedisPause, injectRedisRestart } from './redis-node.js';
import { injectSlowCall } from './slow-call.js';
import { injectDbSlow, injectNetworkDelay } from './slowness.js';

export type { FaultContext } from './fault-context.js';
export { faultsOfRun } from './schedule.js';

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

/** One line per fault kind, for `lock-sim list`. */
export const FAULT_SUMMARIES: Record<(typeof FAULT_KINDS)[number], string> = {
  'gc-pause': 'stop-the-world pause of a client (client: N, all, or [1, 3]): workers, watchdogs and reply handling',
  'slow-call': 'a dependency answers with another latency for a while',
  'primary-crash': 'kill -9 of the Redis primary; failover with sentinel/cluster; optional replication stall before it',
  crash: 'kill -9 of a client (client: N, all, or [1, 3]), at a time or at a point of its code (between-setnx-and-expire)',
  partition: 'cuts every path between two sets of hosts; a cut-off primary keeps serving its side',
  'clock-jump': 'steps the clock of a client or a Redis node (forward expires locks early)',
  'clock-drift': 'a clock runs fast or slow (ppm) for a while and keeps the error',
  'redis-pause': 'DEBUG SLEEP: a node serves nothing; commands queue; a primary asleep past detection is failed over',
  'redis-restart': 'kill -9 and restart of a node, empty (no persistence) or with its data (fsync always)',
  'network-delay': 'extra one-way delay on every message to or from a host',
  'db-slow': 'every database statement takes `factor` times longer',
};

/** The faults that act on client processes, the database and the dependencies: the only ones a real run takes from here. */
export function injectClientFault(spec: Extract<FaultSpec, { kind: 'gc-pause' | 'slow-call' | 'crash' | 'clock-jump' | 'clock-drift' | 'db-slow' }>, ctx: FaultContext<ClientWorld>): void {
  switch (spec.kind) {
    case 'gc-pause':
      return injectGcPause(spec, ctx);
    case 'slow-call':
      return injectSlowCall(spec, ctx);
    case 'crash':
      return injectClientCrash(spec, ctx);
    case 'clock-jump':
      return injectClockJump(spec, ctx);
    case 'clock-drift':
      return injectClockDrift(spec, ctx);
    case 'db-slow':
      return injectDbSlow(spec, ctx);
  }
}

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
