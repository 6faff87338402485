/**
 * A fully resolved scenario: every default filled, every duration in integer microseconds.
 * Nothing downstream of scenario/ checks for undefined (fast-check's QualifiedParameters habit).
 */
import type { Distribution } from '../engine/distribution.js';
import type { Micros } from '../engine/time.js';
import type { ExploreDefaults, ExploreExpectation, Expectation } from './expectations.js';
import type { FaultSpec, RandomFaultSpec } from './faults.js';
import type { RedisSpec } from './redis.js';
import type { VariantSpec } from './variant.js';
import type { WorkloadSpec } from './workload.js';

export interface Scenario {
  name: string;
  description: string;
  /** The file it came from ('' when built in code). */
  file: string;
  seed: number;
  /** The seeds `check` runs (default: just `seed`). */
  seeds: number[];
  durationUs: Micros;
  /** After the faults heal, how long in-flight requests may take to finish. */
  drainUs: Micros;
  stock: Array<{ sku: number; available: number }>;
  workload: WorkloadSpec;
  dependencies: Array<{ name: string; latency: Distribution }>;
  network: { redisLatency: Distribution; commandTimeoutUs: Micros };
  redis: RedisSpec;
  database: { statementTime: Distribution };
  faults: FaultSpec[];
  randomFaults: RandomFaultSpec[];
  variants: VariantSpec[];
  expectations: Expectation[];
  /** The `explore:` block (absent: none). */
  explore?: ExploreDefaults;
  /** The `explore:` entries of `expect:` (absent: none). */
  exploreExpectations?: ExploreExpectation[];
  /** Where the workload: block is written (`file:line:col`), for errors found while running. */
  workloadLocation?: string;
}
