/**
 * A fully resolved scenario: every default filled, every duration in integer microseconds.
 * Nothing downstream of scenario/ checks for undefined (fast-check's QualifiedParameters habit).
 */
import type { Distribution } from '../engine/distribution.js';
import type { Micros } from '../engine/time.js';
import type { Topology } from '../world/redis/deployment.js';

export const BUILTIN_STEPS = ['lock', 'read', 'deduct', 'order', 'unlock'] as const;
export type BuiltinStep = (typeof BUILTIN_STEPS)[number];
/** A built-in step, or the name of a dependency to call. */
export type Step = BuiltinStep | { call: string };

export type Arrival =
  | { kind: 'open'; ratePerS: number }
  | { kind: 'closed'; users: number; think: Distribution };

export interface WorkloadSpec {
  clients: number;
  workersPerClient: number;
  poolPerClient: number;
  arrival: Arrival;
  qty: number;
  steps: Step[];
  /** Requests waiting for a worker beyond this are turned away ('overloaded'). */
  queueLimit: number;
}

export type FaultSpec =
  | { kind: 'gc-pause'; client: number; atUs: Micros; durationUs: Micros }
  | { kind: 'slow-call'; dependency: string; atUs: Micros; durationUs: Micros; latency: Distribution }
  | {
      kind: 'primary-crash';
      atUs: Micros;
      /** The replication stream stops this long before the crash: what it held is lost. */
      replicationStalledUs: Micros;
      /** When the crashed node comes back (null: only when the run heals, at the end). */
      restartAfterUs: Micros | null;
    }
  | { kind: 'crash'; client: number; atUs: Micros; point: string | null; restartAfterUs: Micros | null };

export interface VariantSpec {
  name: string;
  lock: string;
  guard: string;
  leaseMs: number | null;
  waitMs: number;
  retryIntervalMs: number;
}

export type Comparator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export interface Expectation {
  variant: string;
  metric: string;
  comparator: Comparator;
  value: number;
  /** As written in the file, for messages. */
  text: string;
  location: string;
}

export interface Scenario {
  name: string;
  description: string;
  /** The file it came from ('' when built in code). */
  file: string;
  seed: number;
  durationUs: Micros;
  /** After the faults heal, how long in-flight requests may take to finish. */
  drainUs: Micros;
  stock: Array<{ sku: number; available: number }>;
  workload: WorkloadSpec;
  dependencies: Array<{ name: string; latency: Distribution }>;
  network: { redisLatency: Distribution; commandTimeoutUs: Micros };
  redis: {
    topology: Topology;
    replicas: number;
    replicationLag: Distribution;
    downAfterUs: Micros;
    promotionUs: Micros;
    rediscoverUs: Micros;
  };
  database: { statementTime: Distribution };
  faults: FaultSpec[];
  variants: VariantSpec[];
  expectations: Expectation[];
}
