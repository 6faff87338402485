/**
 * A fully resolved scenario: every default filled, every duration in integer microseconds.
 * Nothing downstream of scenario/ checks for undefined (fast-check's QualifiedParameters habit).
 */
import type { PartitionMode } from '../world/network.js';
import type { ClientModelName } from '../world/client-model.js';
import type { Distribution } from '../engine/distribution.js';
import type { Micros } from '../engine/time.js';
import type { FenceCheck } from '../variants/guard.js';
import type { Topology } from '../world/redis/deployment.js';

export const BUILTIN_STEPS = ['lock', 'check-order', 'read', 'deduct', 'order', 'unlock'] as const;
export type BuiltinStep = (typeof BUILTIN_STEPS)[number];
/** A built-in step, or the name of a dependency to call. */
export type Step = BuiltinStep | { call: string };

export type Arrival =
  | { kind: 'open'; ratePerS: number }
  | { kind: 'closed'; users: number; think: Distribution }
  /** Requests at fixed instants, in time order (a scenario about one lock at one instant). */
  | { kind: 'script'; requests: ScriptedRequest[] };

export interface ScriptedRequest {
  atUs: Micros;
  sku: number;
  /** 1-based client number. */
  client: number;
}

export interface WorkloadSpec {
  clients: number;
  workersPerClient: number;
  poolPerClient: number;
  arrival: Arrival;
  qty: number;
  steps: Step[];
  /** Requests waiting for a worker beyond this are turned away ('overloaded'). */
  queueLimit: number;
  /**
   * The chance that a shopper's order is submitted a second time (a double click, a
   * gateway retry): the copy carries the same order key and arrives `resubmitAfter` later.
   */
  resubmitProbability: number;
  resubmitAfter: Distribution;
}

/** A host on the network: `client-N`, `redis-N`, or `primary` (whichever node is primary then). */
export type HostName = string;

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
  | { kind: 'crash'; client: number; atUs: Micros; point: string | null; restartAfterUs: Micros | null }
  /** Cuts every path between the hosts in `isolate` and those in `from` (null: everyone else). */
  | { kind: 'partition'; atUs: Micros; durationUs: Micros; isolate: HostName[]; from: HostName[] | null; mode: PartitionMode }
  /** Steps a host's clock by `byUs` (negative: backwards). */
  | { kind: 'clock-jump'; target: HostName; atUs: Micros; byUs: Micros }
  /** A host's clock runs fast (positive ppm) or slow for a while. */
  | { kind: 'clock-drift'; target: HostName; atUs: Micros; durationUs: Micros; ppm: number }
  /** DEBUG SLEEP: the node serves nothing for a while. */
  | { kind: 'redis-pause'; node: HostName; atUs: Micros; durationUs: Micros }
  /** A node dies and comes back `downUs` later, with its data (AOF fsync always) or empty. */
  | { kind: 'redis-restart'; node: HostName; atUs: Micros; downUs: Micros; persistence: 'none' | 'always' }
  /** Extra one-way delay on every path to and from a host. */
  | { kind: 'network-delay'; target: HostName; atUs: Micros; durationUs: Micros; delayUs: Micros }
  /** The database serves every statement `factor` times slower. */
  | { kind: 'db-slow'; atUs: Micros; durationUs: Micros; factor: number };

/**
 * A fault drawn from the seed: occurrences start as a Poisson process of `ratePerS`
 * (suppressed while one is active, so they never overlap), each lasting a draw of
 * `duration`. `template` is the fault with its time and duration left at 0.
 */
export interface RandomFaultSpec {
  template: FaultSpec;
  ratePerS: number;
  duration: Distribution;
}

/** Which Redlock runs (variants option `redlock-version`; see variants/locks/redlock.ts). */
export const REDLOCK_VERSIONS = ['spec', 'v4', 'v5'] as const;
export type RedlockVersion = (typeof REDLOCK_VERSIONS)[number];

/** A variant's user lock module (`lock: { module: ... }`; src/own-code). */
export interface LockModuleSpec {
  /** The path as the scenario file gives it. */
  module: string;
  /** The absolute path it resolves to (from the scenario file's directory). */
  file: string;
  /** The factory export, as given (null: the default export). */
  export: string | null;
  /** `lock.keys`: the Redis keys the lock lives under, `{key}` for the request's key (null: the key itself). */
  keys: readonly string[] | null;
  /** `lock.options` as given (empty: none). */
  options: Record<string, unknown>;
  /** `lock.client`: the client family the factory receives (default ioredis). */
  client: 'ioredis' | 'node-redis' | 'node-redis@4' | 'node-redis@5';
  /** `lock.time-zone` and `lock.locale`: what Date's local time and Intl read in the module (default UTC, en-US). */
  timeZone: string;
  locale: string;
}

export interface VariantSpec {
  name: string;
  /** A built-in lock's name, or "module" for a user lock module (see lockModule). */
  lock: string;
  /** The user lock module of `lock: { module: ... }` (absent: a built-in lock). */
  lockModule?: LockModuleSpec;
  guard: string;
  leaseMs: number | null;
  /** How long acquire may keep trying (Infinity: forever, the anti-pattern). */
  waitMs: number;
  retryIntervalMs: number;
  /**
   * Unlock in a finally block that also runs when the lock was never acquired ("Redis atomicity failed?"'s
   * code): a request turned away deletes whoever holds the lock.
   */
  unlockAlways: boolean;
  /** Orders carry a UNIQUE order key: a second insert of one order fails. */
  uniqueOrderKey: boolean;
  /**
   * Redisson: checkLockSyncedSlaves, whether a WAIT that no replica acknowledged (or fewer than
   * asked, by version) fails the lock command. WAIT is sent either way.
   */
  syncReplicas: boolean;
  /** Redisson: after a failed renewal, stop (before 3.44) or keep renewing (3.44+). */
  watchdogOnError: 'stop' | 'continue';
  /** Redisson: the released version whose behaviour is modelled (variants/locks/redisson/versions.ts). */
  redissonVersion: string;
  /** Redisson: retryAttempts (null: the version's default). */
  commandRetries: number | null;
  /** Redisson: retryInterval in ms, a constant delay between re-sends (null: the version's delay). */
  commandRetryIntervalMs: number | null;
  /** Redlock: which implementation, and its options (node-redlock's names). */
  redlockVersion: RedlockVersion;
  /** Redlock options (node-redlock's names). */
  retryCount: number;
  retryDelayMs: number;
  retryJitterMs: number;
  driftFactor: number;
  instanceTimeoutMs: number;
  /** version-cas: retries after a conflict, base backoff, and +- jitter. */
  casRetries: number;
  casBackoffMs: number;
  casJitterMs: number;
  /** fenced-write: which statements carry the fencing token. */
  fenceCheck: FenceCheck;
  /** The Redis client library the variant runs on (world/client-model.ts); null: a lock module's own client. */
  client: ClientModelName | null;
  /** Connections per node of the client's pool (null: the client model's default). */
  clientPool: number | null;
}

export type Comparator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** `run`: judged on each run; the others summarise the runs of a sweep (p = a probability). */
export type Statistic = 'run' | 'p' | 'mean' | 'max' | 'min';

export interface Expectation {
  variant: string;
  metric: string;
  statistic: Statistic;
  /** For `p(metric <op> value)`: the condition whose probability is judged. */
  condition: { comparator: Comparator; value: number } | null;
  comparator: Comparator;
  value: number;
  /** As written in the file, for messages. */
  text: string;
  /** The value as written (`0`, `">= 1"`, `"<= 5s"`), to write the file back. */
  written: string | number;
  /** The key in the expect block (`oversold`, `p(oversold > 0)`), to locate it. */
  key: string;
  location: string;
}

/** A condition on a run's metrics: "stuck-time > 10s" (explore's violations). */
export interface MetricCondition {
  metric: string;
  comparator: Comparator;
  value: number;
  /** As written, normalised: "stuck-time > 10s". */
  text: string;
}

/** The scenario's `explore:` block: how `lock-sim explore` searches it unless flags say otherwise. */
export interface ExploreDefaults {
  faults: number | null;
  budget: number | null;
  /** What counts as a violation (empty: any broken safety invariant). */
  violation: MetricCondition[];
}

/**
 * `expect: { v: { explore: { violations: 0 } } }`: `check` runs explore on the variant (with
 * the expectation's faults, budget and violation, else the scenario's `explore:` block's) and
 * judges how many violations it found (it stops at the first, so 0 or 1).
 */
export interface ExploreExpectation {
  variant: string;
  faults: number | null;
  budget: number | null;
  /** null: the scenario's `explore: violation`. */
  violation: MetricCondition[] | null;
  comparator: Comparator;
  value: number;
  /** "explore violations == 0". */
  text: string;
  /** The entry as written, to write the file back. */
  written: { faults?: number; budget?: number; violation?: string | string[]; violations: string | number };
  location: string;
}

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
  redis: {
    topology: Topology;
    replicas: number;
    masters: number;
    /** Time a change waits in the primary's output buffer: lost if the primary dies. */
    replicationBacklog: Distribution;
    /** Network propagation of a change once on the wire: delivered even if the primary dies. */
    replicationLag: Distribution;
    /** repl-timeout: how long a primary keeps listing a replica it does not hear from. */
    replTimeoutUs: Micros;
    downAfterUs: Micros;
    nodeTimeoutUs: Micros;
    /** Extra time a client takes to act on a switch the deciders announce (drawn per client). */
    rediscover: Distribution;
    /** Sentinel: how many Sentinels, how many must agree the primary is down, failover-timeout. */
    sentinels: number;
    quorum: number;
    failoverTimeoutUs: Micros;
    minReplicasToWrite: number;
    minReplicasMaxLagUs: Micros;
  };
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
