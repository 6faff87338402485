/**
 * Raw variants -> VariantSpecs: defaults filled (each cites where it comes from) and
 * options checked against the lock and guard they belong to, so a Redlock option on a
 * Redisson variant is an error rather than silently ignored.
 */
import { FENCED_SINCE } from '../variants/locks/redisson/fenced-scripts.js';
import { atLeastVersion } from '../variants/locks/redisson/semaphore-scripts.js';
import { behaviourOf, DEFAULT_REDISSON_VERSION } from '../variants/locks/redisson/versions.js';
import { defaultThreadWaitTimeMs, THREAD_WAIT_TIME_SINCE } from '../variants/locks/redisson-fair.js';
import { CLIENT_MODEL_NAMES, type ClientModelName, type RedlockVersion, type VariantSpec } from '../spec/variant.js';
import type { Topology } from '../spec/redis.js';
import type { ScenarioIssue } from '../spec/errors.js';
import type { RawScenario } from './schema.js';
import { redissonNameHint } from './redisson-config-names.js';

/**
 * The variant options' defaults: the option they fill, the value, and where it comes from
 * (the resolver reads the value, `lock-sim explain` prints value and source).
 */
export const VARIANT_DEFAULT_ENTRIES = {
  guard: vdef('guard', 'none', 'lock-sim: the lock alone, no database guard'),
  waitMs: vdef('wait', 0, 'fail fast: the tryLock of "From setnx to Redisson" returned false at once'),
  retryIntervalMs: vdef('retry-interval', 50, 'lock-sim: a polling lock retries SET NX every 50 ms (a common Thread.sleep(50) in hand-written spin locks)'),
  unlockAlways: vdef('unlock-always', false, 'lock-sim: unlock only after a successful acquire'),
  orderKey: vdef('order-key', 'none', 'lock-sim: no unique index on the order number'),
  syncReplicas: vdef('sync-replicas', true, 'Redisson: checkLockSyncedSlaves = true since 3.17.0 (config/Config.java @ redisson-3.17.0)'),
  // Config.lockWatchdogTimeout = 30 * 1000: the same at every modelled tag (redisson-3.11.0 to redisson-4.7.0).
  lockWatchdogTimeoutMs: vdef('lock-watchdog-timeout', 30_000, 'Redisson Config.lockWatchdogTimeout = 30 * 1000 (config/Config.java, the same at every tag from redisson-3.11.0 to redisson-4.7.0)'),
  // Config.slavesSyncTimeout = 1000 from redisson-3.22.0; before, syncedEval's batch waited a fixed 1 s (syncSlaves(n, 1, SECONDS)).
  slavesSyncTimeoutMs: vdef('slaves-sync-timeout', 1_000, 'Redisson Config.slavesSyncTimeout = 1000 (config/Config.java @ redisson-3.22.0 to redisson-4.7.0)'),
  redissonVersion: vdef('redisson-version', DEFAULT_REDISSON_VERSION, 'Redisson: the newest release (tag redisson-4.7.0); watchdog-on-error and the retry settings follow from it'),
  // node-redlock 4.2.0: what `npm install redlock` installs (the npm dist-tag latest; 5.x is
  // still a beta), so what a Node service most likely runs
  redlockVersion: vdef('redlock-version', 'v4' as RedlockVersion, 'node-redlock 4.2.0: what `npm install redlock` installs (npm dist-tag latest; 5.x is a beta)'),
  // node-redlock's defaults, the same in 4.2.0 (redlock.js `defaults`) and 5.0.0-beta.2
  // (src/index.ts `defaultSettings`): retryCount 10, retryDelay 200, retryJitter 100,
  // driftFactor 0.01. The spec names no figures ("a random delay"); `spec` uses these too.
  retryCount: vdef('retry-count', 10, 'node-redlock 4.2.0 redlock.js `defaults` (5.0.0-beta.2 src/index.ts `defaultSettings` agrees)'),
  retryDelayMs: vdef('retry-delay', 200, 'node-redlock 4.2.0 redlock.js `defaults` retryDelay 200'),
  retryJitterMs: vdef('retry-jitter', 100, 'node-redlock 4.2.0 redlock.js `defaults` retryJitter 100'),
  driftFactor: vdef('drift-factor', 0.01, 'node-redlock 4.2.0 redlock.js `defaults` driftFactor 0.01'),
  // the Redlock spec: per-instance timeout "in the ~ 5-50 milliseconds range" for a 10 s TTL (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/)
  instanceTimeoutMs: vdef('instance-timeout', 50, 'the Redlock spec: "in the ~ 5-50 milliseconds range" for a 10 s TTL (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/)'),
  // "No master key for data safety" 4.4: sleep 100 ms and retry, sleep 200 ms and retry, then "system busy"; +-30 ms of jitter
  casRetries: vdef('cas-retries', 2, '"No master key for data safety" 4.4: sleep 100 ms and retry, sleep 200 ms and retry, then "system busy"'),
  casBackoffMs: vdef('cas-backoff', 100, '"No master key for data safety" 4.4: the first sleep is 100 ms, then 200 ms'),
  casJitterMs: vdef('cas-jitter', 30, '"No master key for data safety" 4.4: +-30 ms of jitter'),
  // Kleppmann, "How to do distributed locking" (2016): the storage checks the token of every
  // write and remembers the highest it has processed; reads carry none.
  // RedissonMultiLock takes its locks in the order its constructor was given them (RedissonMultiLock.java @ redisson-4.7.0).
  lockOrder: vdef('lock-order', 'as-given' as const, 'RedissonMultiLock: the order of the locks given to its constructor (RedissonMultiLock.java, tryLock iterates locks.listIterator(), @ redisson-3.11.0 to redisson-4.7.0)'),
  fenceCheck: vdef('fence-check', 'writes' as const, 'Kleppmann, "How to do distributed locking" (2016): the storage checks the token of every write'),
};

/** A semaphore of one permit unless given: a mutex, the lock every other variant is. */
const DEFAULT_PERMITS = 1;

type VariantValues<T> = { [K in keyof T]: T[K] extends VariantDefault<infer V> ? V : never };

/** The default values the resolver reads (sources: VARIANT_DEFAULT_ENTRIES). */
const VARIANT_DEFAULTS = Object.fromEntries(
  Object.entries(VARIANT_DEFAULT_ENTRIES).map(([k, e]) => [k, e.value]),
) as VariantValues<typeof VARIANT_DEFAULT_ENTRIES>;

/**
 * Defaults that depend on the lock or its version (the lock modules and the Redisson version
 * table hold the figures): what explain says when the file leaves them out.
 */
export const VARIANT_DERIVED_SOURCES: Readonly<Record<string, string>> = {
  client: 'by lock (resolve-variants.ts defaultClient): Redisson\'s own for redisson, ioredis under node-redlock v4/v5, Jedis for the hand-written locks ("From setnx to Redisson" calls jedis.set) and the spec\'s Redlock',
  lease: 'the lock\'s own: 5 s for the hand-written locks (setnx-expire.ts DEFAULT_LEASE_MS), Redisson\'s watchdog (lockWatchdogTimeout 30000 ms, Config.java), 10 s for Redlock (the spec\'s example TTL)',
  'watchdog-on-error': 'Redisson by version (variants/locks/redisson/versions.ts): stop before 3.44.0, continue from 3.44.0 (one timer renews every lock)',
  'command-retries': 'Redisson by version: retryAttempts 3, 4 from 3.48.0 (BaseConfig.java)',
  'command-retry-interval': 'Redisson by version: retryInterval 1500 ms, EqualJitterDelay(1s, 2s) from 3.48.0 (BaseConfig.java)',
  permits: 'lock-sim: one permit unless given, a mutex; the count is what the application passes to trySetPermits(N) (RedissonSemaphore.java, RedissonPermitExpirableSemaphore.java @ redisson-4.7.0)',
  'thread-wait-time': 'RedissonFairLock by version: threadWaitTime 5000 ms (RedissonFairLock.java @ redisson-3.11.0 to 3.13.2), 60000*5 from 3.13.3 (the constructor\'s default), Config.fairLockWaitTimeout = 5 * 60000 from 3.46.0 (config/Config.java)',
  'lease (redisson-read-write)': 'Redisson\'s watchdog, as RLock\'s: the read or write lock taken for lockWatchdogTimeout (30000 ms, Config.java) and renewed every third of it; a reader\'s timeout key {name}:<uuid>:<thread>:rwlock_timeout:N gets the same lease (RedissonReadLock.java tryLockInnerAsync @ redisson-4.7.0)',
  'lease (redisson-permit-expirable-semaphore)': 'RedissonPermitExpirableSemaphore: none, tryAcquire without a lease (-1): the permit is scored nonExpirableTimeout = 922337203685477 and never expires (RedissonPermitExpirableSemaphore.java @ redisson-4.7.0)',
};

type RawVariant = RawScenario['variants'][string];

interface VariantDefault<T> {
  /** The variant option it fills, as written in a scenario file. */
  option: string;
  value: T;
  source: string;
}

function vdef<T>(option: string, value: T, source: string): VariantDefault<T> {
  return { option, value, source };
}

/**
 * The locks that poll with SET NX (and SETNX) every retry-interval until wait runs out
 * (variants/locks/polling.ts): Redisson waits on pub/sub instead, Redlock retries by
 * retry-count / retry-delay, and `none` takes no lock at all.
 */
const POLLING_LOCKS = ['setnx-expire', 'set-nx-px', 'token-get-del', 'lua-unlock', 'delex-unlock', 'delifeq-unlock', 'lua-extend', 'ifeq-extend', 'fenced'];
/**
 * Redisson's semaphores (variants/locks/redisson-semaphore.ts): Redisson's client and version
 * table, N permits; only the permit-expirable one takes a lease.
 */
const SEMAPHORE_LOCKS = ['redisson-semaphore', 'redisson-permit-expirable-semaphore'];
/** Redisson's fair lock (variants/locks/redisson-fair.ts): an RLock with a queue of waiters. */
const FAIR_LOCK = 'redisson-fair';
/**
 * Redisson's RReadWriteLock (variants/locks/redisson-read-write.ts): each request takes its
 * read or its write lock (workload.read-share, workload.requests[].mode); RLock's options.
 */
export const READ_WRITE_LOCKS: ReadonlySet<string> = new Set(['redisson-read-write']);
/**
 * RLock and the locks built on it (RFencedLock, variants/locks/redisson-fenced.ts; the
 * multi-lock's RLocks; the fair lock; the read-write lock's two locks): a hash per lock, the
 * watchdog when no lease is given, lockWatchdogTimeout and slavesSyncTimeout are RLock's.
 */
const RLOCKS = ['redisson', 'redisson-fenced', 'redisson-multi', FAIR_LOCK, ...READ_WRITE_LOCKS];
/** The locks that run on Redisson's client (its executor, its version table). */
const REDISSON_LOCKS = [...RLOCKS, ...SEMAPHORE_LOCKS];
/** The locks that hand out fencing tokens, which guard fenced-write needs. */
const FENCING_LOCKS = ['fenced', 'redisson-fenced'];
/** A user lock module (`lock: { module: ... }`) gets the polling locks' options, to use as it likes. */
const MODULE_LOCK = 'module';
/** Every lock that takes something: lease and unlock-always mean nothing to `none`. */
const LOCKING = [...POLLING_LOCKS, ...RLOCKS, 'redlock', MODULE_LOCK, ...SEMAPHORE_LOCKS];
/** RSemaphore.tryAcquire takes no lease: its permits never expire (RedissonSemaphore.java @ redisson-4.7.0). */
const LEASED = LOCKING.filter((l) => l !== 'redisson-semaphore');

/** A variant option: which locks or guards it belongs to (none listed: every variant), its default, its meaning. */
export interface VariantOption {
  option: string;
  /** The option of these locks alone (`lock-sim list` shows it under each). */
  locks?: string[];
  /** An option shared by several locks (listed once), which the other locks refuse. */
  takenBy?: string[];
  guards?: string[];
  default: string;
  meaning: string;
}

export const VARIANT_OPTIONS: readonly VariantOption[] = [
  { option: 'lease', takenBy: LEASED, default: '5s (hand-written locks), watchdog (redisson), 10s (redlock)', meaning: 'the lock TTL; for redisson a lease turns the watchdog off' },
  { option: 'wait', takenBy: [...POLLING_LOCKS, ...RLOCKS, MODULE_LOCK, ...SEMAPHORE_LOCKS], default: '0 (try once)', meaning: 'how long acquire may keep trying; "forever" never gives up' },
  { option: 'retry-interval', takenBy: [...POLLING_LOCKS, MODULE_LOCK], default: `${VARIANT_DEFAULTS.retryIntervalMs}ms`, meaning: 'pause between attempts of polling locks' },
  { option: 'unlock-always', takenBy: LOCKING, default: String(VARIANT_DEFAULTS.unlockAlways), meaning: 'unlock in a finally block even when the lock was never acquired' },
  { option: 'order-key', default: VARIANT_DEFAULTS.orderKey, meaning: '"unique": a unique index on the order number' },
  { option: 'redisson-version', locks: REDISSON_LOCKS, default: DEFAULT_REDISSON_VERSION, meaning: 'the Redisson release modelled (3.11.0 and later, or a minor line such as "3.25"); see the version table below' },
  { option: 'sync-replicas', locks: REDISSON_LOCKS, default: String(VARIANT_DEFAULTS.syncReplicas), meaning: 'checkLockSyncedSlaves (3.17.0+): whether a WAIT after a lock command that no replica acknowledged fails it (WAIT is sent either way)' },
  { option: 'slaves-sync-timeout', locks: RLOCKS, default: `${VARIANT_DEFAULTS.slavesSyncTimeoutMs / 1000}s`, meaning: 'slavesSyncTimeout (3.22.0+; 1s fixed before): how long the WAIT after a lock, renew or unlock script waits for the replicas; a batch with WAIT gets the command timeout plus this' },
  { option: 'lock-watchdog-timeout', locks: RLOCKS, default: `${VARIANT_DEFAULTS.lockWatchdogTimeoutMs / 1000}s`, meaning: 'lockWatchdogTimeout: the lease of a lock taken without one, which the watchdog renews every third of it; refused with a lease' },
  { option: 'watchdog-on-error', locks: RLOCKS, default: 'by version: stop before 3.44, continue from 3.44', meaning: 'after a failed renewal: stop, or keep renewing; stop is refused from 3.44 (one timer renews every lock)' },
  { option: 'command-retries', locks: REDISSON_LOCKS, default: 'by version: 3, 4 from 3.48.0', meaning: 'retryAttempts: re-sends of a command that got no reply within network.command-timeout (Redisson\'s timeout)' },
  { option: 'command-retry-interval', locks: REDISSON_LOCKS, default: 'by version: 1500ms, EqualJitterDelay(1s, 2s) from 3.48.0', meaning: 'retryInterval: a constant pause before each re-send (before 3.15.2 a re-send went out at once)' },
  { option: 'redlock-version', locks: ['redlock'], default: VARIANT_DEFAULTS.redlockVersion, meaning: 'spec (redis.io\'s algorithm: per-instance timeout), v4 (node-redlock 4.2.0: waits for every reply), v5 (node-redlock 5.0.0-beta.2: decides at a quorum, no validity check)' },
  { option: 'retry-count', locks: ['redlock'], default: String(VARIANT_DEFAULTS.retryCount), meaning: 'retries after a failed attempt (node-redlock\'s default)' },
  { option: 'retry-delay', locks: ['redlock'], default: `${VARIANT_DEFAULTS.retryDelayMs}ms`, meaning: 'pause between attempts' },
  { option: 'retry-jitter', locks: ['redlock'], default: `${VARIANT_DEFAULTS.retryJitterMs}ms`, meaning: '+- random part of the pause' },
  { option: 'drift-factor', locks: ['redlock'], default: String(VARIANT_DEFAULTS.driftFactor), meaning: 'clock drift allowance: drift = round(factor x ttl) + 2 ms (spec, v4)' },
  { option: 'instance-timeout', locks: ['redlock'], default: `${VARIANT_DEFAULTS.instanceTimeoutMs}ms`, meaning: 'how long each master\'s reply is awaited (spec only)' },
  { option: 'cas-retries', guards: ['version-cas'], default: String(VARIANT_DEFAULTS.casRetries), meaning: 'retries after a version conflict, then "system busy"' },
  { option: 'cas-backoff', guards: ['version-cas'], default: `${VARIANT_DEFAULTS.casBackoffMs}ms`, meaning: 'first backoff, doubling with each retry' },
  { option: 'cas-jitter', guards: ['version-cas'], default: `${VARIANT_DEFAULTS.casJitterMs}ms`, meaning: '+- random part of the backoff' },
  { option: 'client', takenBy: [...LOCKING.filter((l) => l !== MODULE_LOCK)], default: 'by lock: redisson for redisson, ioredis for redlock v4/v5, jedis otherwise', meaning: `the Redis client library the variant runs on (${CLIENT_MODEL_NAMES.join(', ')}): its pool, what a closed connection and a failover do to commands (lock-sim explain prints it)` },
  { option: 'client-pool', takenBy: [...LOCKING.filter((l) => l !== MODULE_LOCK)], default: 'by client: jedis 8, redisson 64, ioredis one multiplexed connection', meaning: 'connections per Redis node of the client\'s pool (jedis: maxTotal; redisson: connectionPoolSize / masterConnectionPoolSize); a command waits for a free one' },
  { option: 'permits', takenBy: [...SEMAPHORE_LOCKS, MODULE_LOCK], default: `${DEFAULT_PERMITS} (a lock module: none, a mutex)`, meaning: 'how many requests may hold the semaphore at once (Redisson: trySetPermits(N) at each client process\'s start; a lock module gets it as options.permits, e.g. redis-semaphore\'s maxCount); the checker judges at most N holders at once and permits that leak' },
  { option: 'thread-wait-time', locks: [FAIR_LOCK], default: 'by version: 5s, 300s from 3.13.3', meaning: 'threadWaitTime: how long a waiter\'s queue entry lasts past the one before it; lock() (wait: forever) uses it, tryLock uses its own wait from 3.13.3. Set through the RedissonFairLock constructor (3.11.1-3.45.x) or Config.fairLockWaitTimeout (3.46.0+)' },
  { option: 'lock-order', locks: ['redisson-multi'], default: VARIANT_DEFAULTS.lockOrder, meaning: 'the order the multi-lock takes its cart\'s locks in: as-given (new RedissonMultiLock(locks...) in the cart\'s order), or sorted (one key order for every request, which no two carts can take in opposite orders)' },
  { option: 'fence-check', guards: ['fenced-write'], default: VARIANT_DEFAULTS.fenceCheck, meaning: 'which statements carry the token: writes (Kleppmann), or reads-and-writes (reads are checked and raise the highest token too)' },
];

/** Which option belongs to which lock or guard (options not listed apply to every variant). */
const OPTION_OWNERS: Record<string, { locks?: string[]; guards?: string[] }> = Object.fromEntries(
  VARIANT_OPTIONS.filter((o) => o.locks || o.takenBy || o.guards).map((o) => [o.option, { locks: o.locks ?? o.takenBy, guards: o.guards }]),
);

/** Whether a variant of this lock and guard may give `option` (to-yaml writes only those). */
export function optionApplies(option: string, lock: string, guard: string): boolean {
  const owner = OPTION_OWNERS[option];
  if (owner === undefined) return true;
  return (owner.locks?.includes(lock) ?? false) || (owner.guards?.includes(guard) ?? false);
}

const REDLOCK_VERSION_NAMES: Record<RedlockVersion, string> = {
  spec: 'the redis.io algorithm',
  v4: 'node-redlock 4.2.0',
  v5: 'node-redlock 5.0.0-beta.2',
};

/** Options one Redlock implementation has no use for, and why: an error, not silently ignored. */
function checkRedlockVersion(v: RawVariant, version: RedlockVersion, issue: (option: string, message: string) => void): void {
  const implicit = v['redlock-version'] === undefined ? ', the default' : '';
  const running = `redlock-version ${version} (${REDLOCK_VERSION_NAMES[version]}${implicit})`;
  if (version !== 'spec' && v['instance-timeout'] !== undefined) {
    issue(
      'instance-timeout',
      `instance-timeout applies to redlock-version spec only: ${running} waits for the masters' replies with no per-instance timeout (ioredis has no command timeout by default); set redlock-version: spec to model one`,
    );
  }
  if (version === 'v5' && v['drift-factor'] !== undefined) {
    issue(
      'drift-factor',
      `drift-factor does not apply to ${running}: it only sets Lock.expiration, which v5's acquire never checks (and nothing here extends the lock)`,
    );
  }
}

const ms = (us: number | undefined, fallback: number): number => (us === undefined ? fallback : Math.round(us / 1000));

export function resolveVariants(
  raw: Record<string, RawVariant>,
  topology: Topology,
  issue: (path: ScenarioIssue['path'], message: string) => void,
): VariantSpec[] {
  const variants: VariantSpec[] = [];
  for (const [name, given] of Object.entries(raw)) {
    const guard = given.guard ?? VARIANT_DEFAULTS.guard;
    const module = typeof given.lock === 'string' ? null : given.lock;
    const v = { ...given, lock: module === null ? (given.lock as string) : MODULE_LOCK };
    for (const [option, owner] of Object.entries(OPTION_OWNERS)) {
      if (!(option in v) || v[option as keyof RawVariant] === undefined) continue;
      if (option === 'wait' && v.lock === 'redlock') continue; // its own message below
      if (option === 'lease' && v.lock === 'redisson-semaphore') {
        issue(['variants', name, option], 'an RSemaphore permit has no lease: RedissonSemaphore.tryAcquire takes none, so a holder that dies keeps its permit for good; lock: redisson-permit-expirable-semaphore takes a lease per permit');
        continue;
      }
      if (!optionApplies(option, v.lock, guard)) {
        const to = owner.locks ? `lock ${owner.locks.join(' or ')}` : `guard ${owner.guards?.join(' or ')}`;
        const redisson = v.lock === 'redisson' ? redissonNameHint(option) : null;
        issue(['variants', name, option], `${option} applies to ${to}, not to this variant (lock ${v.lock}, guard ${guard})${redisson === null ? '' : `; ${redisson}`}`);
      }
    }
    if (v.lease !== undefined && v.lease < 1000) issue(['variants', name, 'lease'], 'a lease must be at least 1ms');
    if (module !== null && v.permits !== undefined && module.keys !== undefined) {
      // The key-state records would make one holder of a key that several hold by design (lock lost, foreign unlocks).
      issue(['variants', name, 'lock', 'keys'], 'a semaphore module\'s key counts its holders and names none: leave out lock.keys with permits (the checker judges the holders from the clients\' side)');
    }
    if (v.lock === 'redlock' && topology !== 'independent') {
      issue(['variants', name, 'lock'], 'redlock needs independent masters: set redis: { topology: independent, masters: 5 }');
    }
    if (guard === 'fenced-write' && !FENCING_LOCKS.includes(v.lock)) {
      issue(['variants', name, 'guard'], 'fenced-write needs a lock that hands out fencing tokens: lock: fenced or redisson-fenced');
    }
    const redissonVersion = v['redisson-version'] ?? VARIANT_DEFAULTS.redissonVersion;
    const redisson = behaviourOf(redissonVersion);
    if (v.lock === 'redisson-multi' && v.lease !== undefined && (v.wait === undefined || v.wait === 0) && !atLeastVersion(redissonVersion, '3.11.1')) {
      issue(['variants', name, 'lease'], `Redisson ${redissonVersion}'s RedissonMultiLock.tryLock(-1, lease) leases each lock for 2 x waitTime = -2 ms (redisson#2172, fixed in 3.11.1): not modelled; give a wait, or redisson-version 3.11.1 or later`);
    }
    if (v.lock === 'redisson-fenced' && !atLeastVersion(redissonVersion, FENCED_SINCE)) {
      issue(['variants', name, 'redisson-version'], `RFencedLock first ships in Redisson ${FENCED_SINCE} (RedissonFencedLock.java, tag redisson-${FENCED_SINCE}); ${redissonVersion} has none: set redisson-version to ${FENCED_SINCE} or later, or use lock: redisson`);
    }
    if (REDISSON_LOCKS.includes(v.lock) && v['sync-replicas'] !== undefined && !redisson.hasCheckLockSyncedSlaves) {
      issue(['variants', name, 'sync-replicas'], `sync-replicas is checkLockSyncedSlaves, which Redisson has from 3.17.0; ${redissonVersion} ${redisson.replicaCount === 'none' ? 'sends no WAIT at all' : 'sends WAIT and cannot be told to ignore it'}`);
    }
    if (RLOCKS.includes(v.lock) && v['slaves-sync-timeout'] !== undefined && !redisson.hasSlavesSyncTimeout) {
      issue(['variants', name, 'slaves-sync-timeout'], `slaves-sync-timeout is slavesSyncTimeout, which Redisson has from 3.22.0; ${redissonVersion} ${redisson.replicaCount === 'none' ? 'sends no WAIT at all' : 'waits a fixed 1s for the replicas'}`);
    }
    if (RLOCKS.includes(v.lock) && v['lock-watchdog-timeout'] !== undefined) {
      if (v['lock-watchdog-timeout'] < 3000) issue(['variants', name, 'lock-watchdog-timeout'], 'a lock-watchdog-timeout must be at least 3ms: the watchdog renews every third of it, in whole ms');
      if (v.lease !== undefined) issue(['variants', name, 'lock-watchdog-timeout'], 'lock-watchdog-timeout is the lease of a lock taken without one: with a lease the watchdog is off (leave out lease, or lock-watchdog-timeout)');
    }
    if (RLOCKS.includes(v.lock) && v['watchdog-on-error'] === 'stop' && redisson.renewal === 'shared') {
      issue(['variants', name, 'watchdog-on-error'], `Redisson ${redissonVersion} renews every lock of a client from one timer that always goes on after an error; "stop" exists before 3.44.0 (set redisson-version)`);
    }
    if (v.lock === FAIR_LOCK && v['thread-wait-time'] !== undefined && !atLeastVersion(redissonVersion, THREAD_WAIT_TIME_SINCE)) {
      issue(['variants', name, 'thread-wait-time'], `Redisson ${redissonVersion}'s fair lock has threadWaitTime fixed at 5s (a final field of RedissonFairLock); it can be set from ${THREAD_WAIT_TIME_SINCE} (set redisson-version)`);
    }
    if (v.lock === 'redlock' && v.wait !== undefined) {
      issue(['variants', name, 'wait'], 'redlock retries by retry-count / retry-delay / retry-jitter, not by wait');
    }
    const redlockVersion = (v['redlock-version'] as RedlockVersion | undefined) ?? VARIANT_DEFAULTS.redlockVersion;
    if (v.lock === 'redlock') checkRedlockVersion(v, redlockVersion, (option, message) => issue(['variants', name, option], message));
    if (v.client !== undefined && module === null) {
      const own = defaultClient(v.lock, redlockVersion);
      if ((REDISSON_LOCKS.includes(v.lock) || (v.lock === 'redlock' && redlockVersion !== 'spec')) && v.client !== own) {
        issue(['variants', name, 'client'], `${REDISSON_LOCKS.includes(v.lock) ? 'Redisson' : `node-redlock ${redlockVersion}`} runs on its own client, ${own}; client chooses the library of the hand-written locks and the spec's Redlock`);
      }
    }
    if (v['client-pool'] !== undefined && (v.client ?? defaultClient(v.lock, redlockVersion)) === 'ioredis') {
      issue(['variants', name, 'client-pool'], 'ioredis multiplexes one connection per server: it has no pool (client-pool is for jedis and redisson)');
    }
    variants.push({
      name,
      lock: v.lock,
      ...(module === null ? {} : { lockModule: { module: module.module, file: module.module, export: module.export ?? null, keys: module.keys === undefined ? null : typeof module.keys === 'string' ? [module.keys] : module.keys, options: module.options ?? {}, client: module.client ?? 'ioredis', timeZone: module['time-zone'] ?? 'UTC', locale: module.locale ?? 'en-US' } }),
      guard,
      leaseMs: v.lease === undefined ? null : Math.round(v.lease / 1000),
      waitMs: v.wait === undefined ? VARIANT_DEFAULTS.waitMs : v.wait === Number.POSITIVE_INFINITY ? v.wait : Math.round(v.wait / 1000),
      retryIntervalMs: Math.max(1, ms(v['retry-interval'], VARIANT_DEFAULTS.retryIntervalMs)),
      uniqueOrderKey: (v['order-key'] ?? VARIANT_DEFAULTS.orderKey) === 'unique',
      unlockAlways: v['unlock-always'] ?? VARIANT_DEFAULTS.unlockAlways,
      syncReplicas: v['sync-replicas'] ?? VARIANT_DEFAULTS.syncReplicas,
      watchdogOnError: v['watchdog-on-error'] ?? redisson.watchdogOnError,
      redissonVersion,
      commandRetries: v['command-retries'] ?? null,
      commandRetryIntervalMs: v['command-retry-interval'] === undefined ? null : ms(v['command-retry-interval'], 0),
      lockWatchdogTimeoutMs: ms(v['lock-watchdog-timeout'], VARIANT_DEFAULTS.lockWatchdogTimeoutMs),
      slavesSyncTimeoutMs: ms(v['slaves-sync-timeout'], VARIANT_DEFAULTS.slavesSyncTimeoutMs),
      redlockVersion,
      retryCount: v['retry-count'] ?? VARIANT_DEFAULTS.retryCount,
      retryDelayMs: ms(v['retry-delay'], VARIANT_DEFAULTS.retryDelayMs),
      retryJitterMs: ms(v['retry-jitter'], VARIANT_DEFAULTS.retryJitterMs),
      driftFactor: v['drift-factor'] ?? VARIANT_DEFAULTS.driftFactor,
      instanceTimeoutMs: Math.max(1, ms(v['instance-timeout'], VARIANT_DEFAULTS.instanceTimeoutMs)),
      casRetries: v['cas-retries'] ?? VARIANT_DEFAULTS.casRetries,
      casBackoffMs: ms(v['cas-backoff'], VARIANT_DEFAULTS.casBackoffMs),
      casJitterMs: ms(v['cas-jitter'], VARIANT_DEFAULTS.casJitterMs),
      fenceCheck: v['fence-check'] ?? VARIANT_DEFAULTS.fenceCheck,
      client: module !== null ? null : (v.client ?? defaultClient(v.lock, redlockVersion)),
      clientPool: v['client-pool'] ?? null,
      ...(SEMAPHORE_LOCKS.includes(v.lock) ? { permits: v.permits ?? DEFAULT_PERMITS } : v.permits === undefined ? {} : { permits: v.permits }),
      ...(v.lock === FAIR_LOCK ? { threadWaitTimeMs: ms(v['thread-wait-time'], defaultThreadWaitTimeMs(redissonVersion)) } : {}),
      ...(v.lock === 'redisson-multi' ? { lockOrder: v['lock-order'] ?? VARIANT_DEFAULTS.lockOrder } : {}),
    });
  }
  if (variants.length === 0) issue(['variants'], 'name at least one variant');
  return variants;
}

/**
 * The client library a lock runs on unless the variant names one: Redisson's own for redisson;
 * ioredis under node-redlock (4.2.0 and 5.0.0-beta.2 take ioredis clients); Jedis for the
 * hand-written locks, whose code in "From setnx to Redisson" calls `jedis.setnx`, `jedis.set`
 * and `jedis.eval`, and for the spec's Redlock.
 */
function defaultClient(lock: string, redlockVersion: RedlockVersion): ClientModelName {
  if (REDISSON_LOCKS.includes(lock)) return 'redisson';
  if (lock === 'redlock' && redlockVersion !== 'spec') return 'ioredis';
  return 'jedis';
}
