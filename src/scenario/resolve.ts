/**
 * Raw (validated) scenario -> fully resolved Scenario: defaults filled, cross-references
 * checked (steps name dependencies, faults name clients that exist, expectations name
 * variants and metrics). Each default cites its source (docs/sources.md lists them).
 */
import { alwaysZero, constant, type Distribution } from '../engine/distribution.js';
import { quote, type ScenarioIssue } from '../spec/errors.js';
import type { RawScenario } from './schema.js';
import { didYouMean } from './suggest.js';
import { resolveFaults } from './resolve-faults.js';
import { factoryOptions } from '../own-code/module-options.js';
import { probeModule, resolveModulePath } from '../backends/worker/probe.js';
import { READ_WRITE_LOCKS, resolveVariants } from './resolve-variants.js';
import { redisFieldRefusal } from './redis-fields.js';
import { resolveExpectations, resolveExploreDefaults, resolveExploreExpectations } from './resolve-expectations.js';
import { BUILTIN_STEPS, type Arrival, type Step } from '../spec/workload.js';
import type { Scenario } from '../spec/scenario.js';
import type { ServerVersion, Topology } from '../spec/redis.js';

/**
 * A default: the field it fills (as written in a scenario file), its value, and where the
 * value comes from. The resolver reads `value`; `lock-sim explain` prints all three, so the
 * figure and its source cannot drift apart.
 */
export interface Default<T> {
  field: string;
  value: T;
  source: string;
  /** Only for this topology (redis.masters differs between Redlock and Cluster). */
  topology?: Topology;
}

const def = <T>(field: string, value: T, source: string, topology?: Topology): Default<T> => ({ field, value, source, ...(topology ? { topology } : {}) });

export const DEFAULT_ENTRIES = {
  seed: def('seed', 1, 'lock-sim: the first seed; seeds: lists more for check'),
  drainUs: def('drain', 60_000_000, 'lock-sim: a minute for in-flight requests to end after the faults heal (longer than the default Redisson watchdog lease of 30 s)'),
  sku: def('stock.sku', 10037, '"From setnx to Redisson" (the article\'s key lock:stock:10037)'),
  clients: def('workload.clients', 1, 'lock-sim: one application instance'),
  workersPerClient: def('workload.workers', 16, 'lock-sim: a request thread pool of 16 per instance'),
  poolPerClient: def('workload.pool', 10, 'HikariCP maximumPoolSize default 10 (https://github.com/brettwooldridge/HikariCP, "Frequently used" settings)'),
  qty: def('workload.qty', 1, 'lock-sim: one unit per order'),
  requestClient: def('workload.requests.client', 1, 'lock-sim: a scripted request goes to client 1 unless it names another'),
  queueLimit: def('workload.queue-limit', 1000, 'lock-sim: a bounded queue of 1000 requests per instance before requests are turned away'),
  resubmit: def('workload.resubmit', 0, 'lock-sim: no order is submitted twice unless asked'),
  readShare: def('workload.read-share', 0, 'lock-sim: every generated request a buyer (a writer) unless asked; readers only for a read-write lock'),
  steps: def('workload.steps', ['lock', 'read', 'deduct', 'order', 'unlock'] as string[], '"From setnx to Redisson": lock, read the stock, deduct, insert the order, unlock'),
  redisLatency: def('network.redis-latency', { kind: 'uniform', minUs: 200, maxUs: 1_000 } as Distribution, 'lock-sim: a round trip within one data centre (0.2-1 ms)'),
  commandTimeoutUs: def('network.command-timeout', 3_000_000, 'Redisson BaseConfig timeout = 3000 ms (BaseConfig.java, redisson-4.7.0)'),
  topology: def('redis.topology', 'standalone' as Topology, 'lock-sim: one Redis server, the setup of "From setnx to Redisson"'),
  server: def('redis.server', 'redis-7.0' as ServerVersion, 'redis-server 7.0.15: the version the model follows and test/conformance measures'),
  replicas: def('redis.replicas', 1, 'lock-sim: one replica, the smallest setup that can fail over'),
  // How long a change waits in the primary's process before it is written to the replica's
  // socket (`replication-backlog`). Measured on redis-server 7.0.15 on loopback (2-core
  // machine under other load; tcpdump on lo, 2,997 SETs 3 ms apart, one replica): from the
  // SET packet reaching the primary to the replication packet leaving it, p10 36 us,
  // median 55 us, p90 91 us. The part the network adds (`replication-lag`) defaults to the
  // clients' network.redis-latency; on loopback it measured p10 30 us, median 58 us,
  // p90 111 us (replication packet out to the replica's keyspace notification out).
  replicationBacklog: def('redis.replication-backlog', { kind: 'uniform', minUs: 35, maxUs: 90 } as Distribution, 'measured: redis-server 7.0.15 on loopback, SET in to replication packet out, p10 36 us, median 55 us, p90 91 us (tcpdump, 2,997 SETs)'),
  replicationLag: def('redis.replication-lag', 'network.redis-latency', 'lock-sim: the replicas sit on the clients\' network (loopback measured p10 30 us, median 58 us, p90 111 us)'),
  replTimeoutUs: def('redis.repl-timeout', 60_000_000, 'repl-timeout default 60 s (redis.conf; redis 7.0.15 config.c)'),
  downAfterUs: def('redis.down-after', 30_000_000, 'sentinel.conf down-after-milliseconds default 30000 (redis 7.0.15 sentinel.conf)'),
  nodeTimeoutUs: def('redis.node-timeout', 15_000_000, 'cluster-node-timeout default 15000 (redis 7.0.15 redis.conf)'),
  minReplicasToWrite: def('redis.min-replicas-to-write', 0, 'min-replicas-to-write default 0, off (redis 7.0.15 redis.conf)'),
  minReplicasMaxLagUs: def('redis.min-replicas-max-lag', 10_000_000, 'min-replicas-max-lag default 10 (redis 7.0.15 redis.conf)'),
  masters: def('redis.masters', 5, '"In our examples we set N=5" (redis.io "Distributed Locks with Redis")', 'independent'),
  clusterMasters: def('redis.masters', 3, '"a minimal cluster that works as expected must contain at least three master nodes" (https://redis.io/docs/latest/operate/oss_and_stack/management/scaling/)', 'cluster'),
  resubmitAfter: def('workload.resubmit-after', { kind: 'uniform', minUs: 100_000, maxUs: 2_000_000 } as Distribution, 'lock-sim: a double click or a gateway retry, 0.1-2 s after the first submit'),
  // Clients follow the switch when Sentinel announces it: ioredis 5 with failoverDetector
  // subscribes to +switch-master on the Sentinels (built/connectors/SentinelConnector/
  // FailoverDetector.js); without it, it asks get-master-addr-by-name on each reconnect,
  // retrying min(attempt x 50 ms, 2 s) apart (built/redis/RedisOptions.js retryStrategy).
  // Redisson asks get-master-addr-by-name every scanInterval, 1000 ms by default, after the
  // previous check (SentinelConnectionManager.scheduleChangeCheck, SentinelServersConfig
  // scanInterval): `rediscover: uniform(0ms, 1s)`.
  rediscover: def('redis.rediscover', constant(0), 'ioredis 5 failoverDetector follows +switch-master at once (built/connectors/SentinelConnector/FailoverDetector.js); Redisson polls every scanInterval 1000 ms: write uniform(0ms, 1s)'),
  sentinels: def('redis.sentinels', 3, 'the smallest robust deployment (https://redis.io/docs/latest/operate/oss_and_stack/management/sentinel/, "Example 2: basic setup with three boxes")'),
  quorum: def('redis.quorum', 'majority of sentinels', 'the quorum Sentinel\'s documentation uses with three Sentinels, 2 (https://redis.io/docs/latest/operate/oss_and_stack/management/sentinel/)'),
  failoverTimeoutUs: def('redis.failover-timeout', 180_000_000, 'sentinel.conf failover-timeout default 180000 (redis 7.0.15 src/sentinel.c sentinel_default_failover_timeout)'),
  faults: def('faults', [] as never[], 'lock-sim: no faults unless the file lists them'),
  statementTime: def('database.statement-time', { kind: 'uniform', minUs: 1_000, maxUs: 3_000 } as Distribution, 'lock-sim: a primary-key UPDATE or INSERT on a warm database, 1-3 ms'),
};

type Values<T> = { [K in keyof T]: T[K] extends Default<infer V> ? V : never };

function valuesOf<T extends Record<string, Default<unknown>>>(entries: T): Values<T> {
  return Object.fromEntries(Object.entries(entries).map(([k, e]) => [k, e.value])) as Values<T>;
}

/** The default values, read by the resolver (their sources: DEFAULT_ENTRIES). */
export const DEFAULTS = valuesOf(DEFAULT_ENTRIES);

/**
 * Worker threads in all (clients x workers): each is a simulated process that exists for the
 * whole run. The casebook uses at most 256; 100,000 keeps a run's start within memory.
 */
const MAX_THREADS = 100_000;
/** SKUs in all: each has a stock row, a lock key and its own history. */
const MAX_SKUS = 10_000;

export function resolveScenario(raw: RawScenario, file: string): { scenario: Scenario | null; issues: ScenarioIssue[] } {
  const issues: ScenarioIssue[] = [];
  const issue = (path: Array<string | number>, message: string): void => {
    issues.push({ path, message });
  };

  const dependencies = Object.entries(raw.dependencies ?? {}).map(([name, latency]) => ({ name, latency }));
  const dependencyNames = dependencies.map((d) => d.name);
  for (const name of dependencyNames) {
    // A step of that name is the built-in one: the dependency would never be called.
    if ((BUILTIN_STEPS as readonly string[]).includes(name)) {
      issue(['dependencies', name], `a dependency cannot be named "${name}": that is a built-in step (${BUILTIN_STEPS.join(', ')}), so a step "${name}" would run the built-in and never call it; rename it, e.g. "${name}-service"`);
    }
  }
  const w = raw.workload;
  const clients = w.clients ?? DEFAULTS.clients;

  const steps: Step[] = [];
  (w.steps ?? DEFAULTS.steps).forEach((name, i) => {
    if ((BUILTIN_STEPS as readonly string[]).includes(name)) steps.push(name as Step);
    else if (dependencyNames.includes(name)) steps.push({ call: name });
    else {
      const known = [...BUILTIN_STEPS, ...dependencyNames];
      issue(['workload', 'steps', i], `unknown step ${quote(name)}${didYouMean(name, known)}; steps are ${known.join(', ')} (a dependency becomes a step once declared under dependencies:)`);
    }
  });

  const loads = [w.arrival, w.users, w.requests].filter((x) => x !== undefined).length;
  if (loads > 1) issue(['workload'], 'give one of arrival (open loop), users (closed loop) or requests (a script), not several');
  if (loads === 0) issue(['workload'], 'missing arrival (e.g. "200/s"), users (closed loop) or requests (a script)');
  if (w.users !== undefined && (w.think === undefined || alwaysZero(w.think))) {
    // A user turned away (overloaded, unavailable) asks again after its think time; with
    // none it asks again at the same simulated instant, forever, and time stops.
    issue(['workload', w.think === undefined ? 'users' : 'think'], `closed-loop users need a think time above 0 (e.g. think: uniform(50ms, 150ms)): a user turned away asks again after it, and with none would ask again at the same instant forever`);
  }
  const threads = clients * (w.workers ?? DEFAULTS.workersPerClient);
  if (threads > MAX_THREADS) {
    issue(['workload', w.workers !== undefined ? 'workers' : 'clients'], `${clients} clients x ${w.workers ?? DEFAULTS.workersPerClient} workers is ${threads} worker threads, over the limit of ${MAX_THREADS}`);
  }

  const topology = raw.redis?.topology ?? DEFAULTS.topology;
  const masters = raw.redis?.masters ?? (topology === 'cluster' ? DEFAULTS.clusterMasters : DEFAULTS.masters);
  const replicas = raw.redis?.replicas ?? DEFAULTS.replicas;
  const redisNodes = topology === 'standalone' ? 1 : topology === 'independent' ? masters : 1 + replicas;
  const { faults, randomFaults } = resolveFaults(
    raw.faults ?? DEFAULTS.faults,
    { durationUs: raw.duration, clients, redisNodes, dependencyNames },
    issue,
  );

  const variants = resolveVariants(raw.variants, topology, issue);
  // User lock modules (src/own-code): resolved from the scenario file, loaded and checked now.
  for (const v of variants) {
    if (!v.lockModule) continue;
    v.lockModule.file = resolveModulePath(v.lockModule.module, file);
    const connections = topology === 'independent' ? masters : 1;
    const problem = probeModule(v.lockModule, file, connections, factoryOptions(v, raw.network?.['command-timeout'] ?? DEFAULTS.commandTimeoutUs));
    if (problem !== null) issue(['variants', v.name, 'lock', 'module'], problem);
  }
  variants.forEach((v) => {
    if (v.lock !== 'none' && !steps.includes('lock')) issue(['workload', 'steps'], `variant ${v.name} uses a lock but the steps have no "lock"`);
  });
  // Readers take a read lock: only a read-write lock has one.
  const notReadWrite = variants.filter((v) => !READ_WRITE_LOCKS.has(v.lock)).map((v) => v.name);
  if (notReadWrite.length > 0) {
    const which = `variant${notReadWrite.length > 1 ? 's' : ''} ${notReadWrite.join(', ')} ${notReadWrite.length > 1 ? 'have' : 'has'} no read lock (only ${[...READ_WRITE_LOCKS].join(', ')} does)`;
    if ((w['read-share'] ?? 0) > 0) issue(['workload', 'read-share'], `readers need a read-write lock: ${which}`);
    w.requests?.forEach((r, i) => {
      if (r.mode !== undefined) issue(['workload', 'requests', i, 'mode'], `mode ${r.mode} needs a read-write lock: ${which}`);
    });
  }

  const variantNames = variants.map((v) => v.name);
  const expectations = resolveExpectations(raw.expect, variantNames, issue);
  const explore = resolveExploreDefaults(raw.explore, issue);
  const exploreExpectations = resolveExploreExpectations(raw.expect, variantNames, issue);

  const stockRows = Array.isArray(raw.stock) ? raw.stock : [raw.stock];
  const stock: Array<{ sku: number; available: number }> = [];
  // Counted before any row is built: 10,000 rows of count 10,000 would be 100M rows.
  const skuCount = stockRows.reduce((n, row) => n + (row.count ?? 1), 0);
  if (skuCount > MAX_SKUS) issue(['stock'], `${skuCount} SKUs is over the limit of ${MAX_SKUS}`);
  else {
    stockRows.forEach((row, i) => {
      const first = row.sku ?? DEFAULTS.sku + i;
      for (let k = 0; k < (row.count ?? 1); k++) stock.push({ sku: first + k, available: row.available });
    });
  }
  const skus = new Set<number>();
  stock.forEach((row, i) => {
    if (skus.has(row.sku)) issue(Array.isArray(raw.stock) ? ['stock', i, 'sku'] : ['stock', 'sku'], `sku ${row.sku} appears twice`);
    skus.add(row.sku);
  });

  w.requests?.forEach((r, i) => {
    if (r.at >= raw.duration) issue(['workload', 'requests', i, 'at'], `${r.at / 1e6}s is not within the run (duration ${raw.duration / 1e6}s)`);
    if (r.sku === undefined && r.skus === undefined) issue(['workload', 'requests', i], 'give the sku it orders (sku: 1), or a cart of several (skus: [1, 2])');
    if (r.sku !== undefined && r.skus !== undefined) issue(['workload', 'requests', i, 'skus'], 'give sku or skus, not both (a cart\'s first SKU is the one it orders)');
    if (stock.length > 0 && r.sku !== undefined && !skus.has(r.sku)) issue(['workload', 'requests', i, 'sku'], `no sku ${r.sku} in stock`);
    r.skus?.forEach((sku, k) => {
      if (stock.length > 0 && !skus.has(sku)) issue(['workload', 'requests', i, 'skus', k], `no sku ${sku} in stock`);
      if (r.skus?.indexOf(sku) !== k) issue(['workload', 'requests', i, 'skus', k], `sku ${sku} appears twice in the cart (a multi-lock of one RLock twice re-enters it)`);
    });
    const single = r.skus !== undefined && r.skus.length > 1 ? variants.find((v) => v.lock !== 'redisson-multi') : undefined;
    if (single !== undefined) issue(['workload', 'requests', i, 'skus'], `a cart of several SKUs is locked by lock: redisson-multi; variant ${single.name} (lock ${single.lock}) takes one lock per request`);
    if ((r.client ?? DEFAULTS.requestClient) > clients) issue(['workload', 'requests', i, 'client'], `no client ${r.client} (the workload has ${clients})`);
  });

  const redis = raw.redis ?? {};
  const replTimeoutUs = redis['repl-timeout'] ?? DEFAULTS.replTimeoutUs;
  // redis.conf takes whole seconds, at least 1 (redis 7.0.15 config.c createIntConfig "repl-timeout").
  if (replTimeoutUs < 1_000_000 || replTimeoutUs % 1_000_000 !== 0) issue(['redis', 'repl-timeout'], `repl-timeout is whole seconds, at least 1s; found ${replTimeoutUs / 1e6}s`);
  for (const [field, value] of Object.entries(redis)) {
    const refusal = value === undefined ? null : redisFieldRefusal(field, topology);
    if (refusal !== null) issue(['redis', field], refusal);
  }
  if (topology === 'cluster' && masters < 3) issue(['redis', 'masters'], `a Redis Cluster has at least 3 masters (redis-cli --cluster create refuses fewer), found ${masters}`);
  if ((topology === 'sentinel' || topology === 'cluster') && replicas === 0) issue(['redis', 'replicas'], `${topology} needs at least one replica to fail over to`);
  const sentinels = redis.sentinels ?? DEFAULTS.sentinels;
  // The majority by default: the quorum Sentinel's documentation uses with three Sentinels.
  const quorum = redis.quorum ?? Math.floor(sentinels / 2) + 1;
  for (const field of ['down-after', 'failover-timeout'] as const) {
    if (redis[field] === 0) issue(['redis', field], `${field} must be longer than 0 (Sentinel refuses 0)`);
  }
  if (topology === 'sentinel' && quorum > sentinels) issue(['redis', 'quorum'], `quorum ${quorum} is more than the ${sentinels} Sentinels: no failover could ever start`);
  if (issues.length > 0) return { scenario: null, issues };
  const scenario: Scenario = {
    name: raw.name,
    description: raw.description ?? '',
    file,
    seed: raw.seed ?? DEFAULTS.seed,
    seeds: raw.seeds ?? [raw.seed ?? DEFAULTS.seed],
    durationUs: raw.duration,
    drainUs: raw.drain ?? DEFAULTS.drainUs,
    stock,
    workload: {
      clients,
      workersPerClient: w.workers ?? DEFAULTS.workersPerClient,
      poolPerClient: w.pool ?? DEFAULTS.poolPerClient,
      arrival: arrivalOf(w),
      qty: w.qty ?? DEFAULTS.qty,
      steps,
      queueLimit: w['queue-limit'] ?? DEFAULTS.queueLimit,
      resubmitProbability: w.resubmit ?? DEFAULTS.resubmit,
      resubmitAfter: w['resubmit-after'] ?? DEFAULTS.resubmitAfter,
      readShare: w['read-share'] ?? DEFAULTS.readShare,
    },
    dependencies,
    network: {
      redisLatency: raw.network?.['redis-latency'] ?? DEFAULTS.redisLatency,
      commandTimeoutUs: raw.network?.['command-timeout'] ?? DEFAULTS.commandTimeoutUs,
    },
    redis: {
      topology,
      server: redis.server ?? DEFAULTS.server,
      replicas: topology === 'sentinel' || topology === 'cluster' ? replicas : 0,
      masters: topology === 'independent' || topology === 'cluster' ? masters : 1,
      replicationBacklog: redis['replication-backlog'] ?? DEFAULTS.replicationBacklog,
      // The replicas sit on the clients' network unless told otherwise.
      replicationLag: redis['replication-lag'] ?? raw.network?.['redis-latency'] ?? DEFAULTS.redisLatency,
      replTimeoutUs,
      downAfterUs: redis['down-after'] ?? DEFAULTS.downAfterUs,
      nodeTimeoutUs: redis['node-timeout'] ?? DEFAULTS.nodeTimeoutUs,
      rediscover: redis.rediscover ?? DEFAULTS.rediscover,
      sentinels,
      quorum,
      failoverTimeoutUs: redis['failover-timeout'] ?? DEFAULTS.failoverTimeoutUs,
      minReplicasToWrite: redis['min-replicas-to-write'] ?? DEFAULTS.minReplicasToWrite,
      minReplicasMaxLagUs: redis['min-replicas-max-lag'] ?? DEFAULTS.minReplicasMaxLagUs,
    },
    database: { statementTime: raw.database?.['statement-time'] ?? DEFAULTS.statementTime },
    faults,
    randomFaults,
    variants,
    expectations,
    ...(explore === undefined ? {} : { explore }),
    ...(exploreExpectations.length === 0 ? {} : { exploreExpectations }),
  };
  return { scenario, issues };
}

function arrivalOf(w: RawScenario['workload']): Arrival {
  if (w.arrival !== undefined) return { kind: 'open', ratePerS: w.arrival };
  if (w.requests !== undefined) {
    // A cart's first SKU is the one the request orders (request-flow.ts reads one SKU).
    const requests = w.requests.map((r) => ({ atUs: r.at, sku: r.skus?.[0] ?? r.sku ?? 0, ...(r.skus === undefined ? {} : { cart: r.skus }), client: r.client ?? DEFAULTS.requestClient, ...(r.mode !== undefined ? { mode: r.mode } : {}) }));
    // In time order; requests at the same instant keep the order they were written in.
    return { kind: 'script', requests: requests.sort((a, b) => a.atUs - b.atUs) };
  }
  return { kind: 'closed', users: w.users as number, think: w.think ?? constant(0) };
}
