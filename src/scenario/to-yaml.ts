/**
 * A resolved Scenario back to a scenario file, every value explicit (defaults included,
 * so that what the file says is what ran). `shrink` writes its result with it; loading the
 * text gives the same Scenario back (tested on every file in scenarios/).
 */
import { stringify } from 'yaml';
import { describeDistribution, type Distribution } from '../engine/distribution.js';
import { redisFieldApplies } from './redis-fields.js';
import { optionApplies } from './resolve-variants.js';
import { behaviourOf } from '../variants/locks/redisson/versions.js';
import type { Arrival } from '../spec/workload.js';
import type { Expectation, ExploreDefaults, ExploreExpectation } from '../spec/expectations.js';
import type { FaultSpec, RandomFaultSpec } from '../spec/faults.js';
import type { Scenario } from '../spec/scenario.js';
import type { VariantSpec } from '../spec/variant.js';

const UNITS: Array<[string, number]> = [['h', 3_600_000_000], ['m', 60_000_000], ['s', 1_000_000], ['ms', 1_000], ['us', 1]];

/** The largest unit that writes the value exactly: 1500000 -> "1500ms", 2000000 -> "2s". */
export function durationText(us: number): string {
  if (us === 0) return '0s';
  const sign = us < 0 ? '-' : '';
  const a = Math.abs(us);
  for (const [unit, size] of UNITS) if (a % size === 0) return `${sign}${a / size}${unit}`;
  return `${sign}${a}us`;
}

const distributionText = (d: Distribution): string => describeDistribution(d, durationText);

export function rateText(perS: number): string {
  for (const [unit, factor] of [['s', 1], ['m', 60], ['h', 3600]] as const) {
    const n = perS * factor;
    if (Math.abs(n - Math.round(n)) < 1e-9 && Math.round(n) > 0) return `${Math.round(n)}/${unit}`;
  }
  return `${perS}/s`;
}

function seedsText(seeds: readonly number[]): string {
  const contiguous = seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1);
  return contiguous && seeds.length > 1 ? `${seeds[0]}..${seeds[seeds.length - 1]}` : seeds.join(',');
}

function faultEntry(f: FaultSpec, timing: Record<string, unknown>, duration?: string): Record<string, unknown> {
  const d = duration ?? ('durationUs' in f ? durationText(f.durationUs) : undefined);
  switch (f.kind) {
    case 'gc-pause':
      return { kind: f.kind, client: f.client, ...timing, duration: d };
    case 'slow-call':
      return { kind: f.kind, dependency: f.dependency, ...timing, duration: d, latency: distributionText(f.latency) };
    case 'primary-crash':
      return {
        kind: f.kind, ...timing, 'replication-stalled-for': durationText(f.replicationStalledUs),
        ...(f.restartAfterUs === null ? {} : { 'restart-after': durationText(f.restartAfterUs) }),
      };
    case 'crash':
      return {
        kind: f.kind, client: f.client, ...timing, ...(f.point === null ? {} : { point: f.point }),
        ...(f.restartAfterUs === null ? {} : { 'restart-after': durationText(f.restartAfterUs) }),
      };
    case 'partition':
      return { kind: f.kind, ...timing, duration: d, isolate: f.isolate, ...(f.from === null ? {} : { from: f.from }), mode: f.mode };
    case 'clock-jump':
      return { kind: f.kind, target: f.target, ...timing, by: f.byUs >= 0 ? `+${durationText(f.byUs)}` : durationText(f.byUs) };
    case 'clock-drift':
      return { kind: f.kind, target: f.target, ...timing, duration: d, ppm: f.ppm };
    case 'redis-pause':
      return { kind: f.kind, node: f.node, ...timing, duration: d };
    case 'redis-restart':
      return { kind: f.kind, node: f.node, ...timing, 'down-for': durationText(f.downUs), persistence: f.persistence };
    case 'network-delay':
      return { kind: f.kind, target: f.target, ...timing, duration: d, delay: durationText(f.delayUs) };
    case 'db-slow':
      return { kind: f.kind, ...timing, duration: d, factor: f.factor };
  }
}

const fixedFault = (f: FaultSpec) => faultEntry(f, { at: durationText(f.atUs) });
const randomFault = (r: RandomFaultSpec) => faultEntry(r.template, { rate: rateText(r.ratePerS) }, distributionText(r.duration));

function redissonEntry(v: VariantSpec): Record<string, unknown> {
  return {
    'redisson-version': v.redissonVersion,
    ...(behaviourOf(v.redissonVersion).hasCheckLockSyncedSlaves ? { 'sync-replicas': v.syncReplicas } : {}),
    'watchdog-on-error': v.watchdogOnError,
    ...(v.commandRetries === null ? {} : { 'command-retries': v.commandRetries }),
    ...(v.commandRetryIntervalMs === null ? {} : { 'command-retry-interval': durationText(v.commandRetryIntervalMs * 1000) }),
    // The watchdog's lease applies only without a lease; slavesSyncTimeout exists from 3.22.0.
    ...(v.leaseMs === null ? { 'lock-watchdog-timeout': durationText(v.lockWatchdogTimeoutMs * 1000) } : {}),
    ...(behaviourOf(v.redissonVersion).hasSlavesSyncTimeout ? { 'slaves-sync-timeout': durationText(v.slavesSyncTimeoutMs * 1000) } : {}),
  };
}

/** A Redisson semaphore's version and executor options (it has no watchdog). */
function semaphoreEntry(v: VariantSpec): Record<string, unknown> {
  const { 'watchdog-on-error': _watchdog, ...entry } = redissonEntry(v);
  return entry;
}

/** Every option the variant may give (resolve-variants.ts's table): the others are refused. */
function variantEntry(v: VariantSpec): Record<string, unknown> {
  const entry = allVariantFields(v);
  return Object.fromEntries(Object.entries(entry).filter(([key]) => key === 'lock' || key === 'guard' || optionApplies(key, v.lock, v.guard)));
}

/** A user lock module as the scenario gave it (its path relative to the scenario file). */
function lockEntry(v: VariantSpec): unknown {
  const m = v.lockModule;
  if (!m) return v.lock;
  return {
    module: m.module,
    ...(m.export === null ? {} : { export: m.export }),
    ...(Object.keys(m.options).length === 0 ? {} : { options: m.options }),
    ...(m.keys === null ? {} : { keys: m.keys.length === 1 ? m.keys[0] : [...m.keys] }),
    ...(m.client === 'ioredis' ? {} : { client: m.client }),
    ...(m.timeZone === 'UTC' ? {} : { 'time-zone': m.timeZone }),
    ...(m.locale === 'en-US' ? {} : { locale: m.locale }),
  };
}

function allVariantFields(v: VariantSpec): Record<string, unknown> {
  return {
    lock: lockEntry(v),
    guard: v.guard,
    ...(v.leaseMs === null ? {} : { lease: durationText(v.leaseMs * 1000) }),
    ...(v.lock === 'redlock' ? {} : { wait: v.waitMs === Number.POSITIVE_INFINITY ? 'forever' : durationText(v.waitMs * 1000) }),
    'retry-interval': durationText(v.retryIntervalMs * 1000),
    'unlock-always': v.unlockAlways,
    'order-key': v.uniqueOrderKey ? 'unique' : 'none',
    ...(v.lock === 'redisson' || v.lock === 'redisson-fenced' || v.lock === 'redisson-multi' || v.lock === 'redisson-read-write' ? redissonEntry(v) : {}),
    ...(v.threadWaitTimeMs === undefined ? {} : { 'thread-wait-time': durationText(v.threadWaitTimeMs * 1000), ...redissonEntry(v) }),
    ...(v.lockOrder === undefined ? {} : { 'lock-order': v.lockOrder }),
    ...(v.permits === undefined ? {} : { permits: v.permits, ...semaphoreEntry(v) }),
    ...(v.lock === 'redlock'
      ? {
        'redlock-version': v.redlockVersion,
        'retry-count': v.retryCount,
        'retry-delay': durationText(v.retryDelayMs * 1000),
        'retry-jitter': durationText(v.retryJitterMs * 1000),
        ...(v.redlockVersion === 'v5' ? {} : { 'drift-factor': v.driftFactor }),
        ...(v.redlockVersion === 'spec' ? { 'instance-timeout': durationText(v.instanceTimeoutMs * 1000) } : {}),
      }
      : {}),
    ...(v.guard === 'version-cas'
      ? { 'cas-retries': v.casRetries, 'cas-backoff': durationText(v.casBackoffMs * 1000), 'cas-jitter': durationText(v.casJitterMs * 1000) }
      : {}),
    ...(v.guard === 'fenced-write' ? { 'fence-check': v.fenceCheck } : {}),
    ...(v.client === null ? {} : { client: v.client }),
    ...(v.clientPool === null ? {} : { 'client-pool': v.clientPool }),
  };
}

function arrivalEntry(a: Arrival): Record<string, unknown> {
  switch (a.kind) {
    case 'open':
      return { arrival: rateText(a.ratePerS) };
    case 'closed':
      return { users: a.users, think: distributionText(a.think) };
    case 'script':
      return { requests: a.requests.map((r) => ({ at: durationText(r.atUs), ...(r.cart === undefined ? { sku: r.sku } : { skus: r.cart }), client: r.client, ...(r.mode !== undefined ? { mode: r.mode } : {}) })) };
  }
}

type Written = string | number;

function expectBlock(expectations: readonly Expectation[], explore: readonly ExploreExpectation[]): Record<string, Record<string, Written | Written[] | ExploreExpectation['written']>> {
  const block: Record<string, Record<string, Written | Written[] | ExploreExpectation['written']>> = {};
  for (const e of expectations) {
    const perVariant = (block[e.variant] ??= {});
    const value = e.written;
    const before = perVariant[e.key] as Written | Written[] | undefined;
    perVariant[e.key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  for (const e of explore) (block[e.variant] ??= {}).explore = e.written;
  return block;
}

function exploreBlock(e: ExploreDefaults): Record<string, unknown> {
  return {
    ...(e.faults === null ? {} : { faults: e.faults }),
    ...(e.budget === null ? {} : { budget: e.budget }),
    ...(e.violation.length === 0 ? {} : { violation: e.violation.map((c) => c.text) }),
  };
}

export function scenarioToObject(s: Scenario): Record<string, unknown> {
  const w = s.workload;
  const r = s.redis;
  return {
    name: s.name,
    ...(s.description ? { description: s.description } : {}),
    seed: s.seed,
    ...(s.seeds.length === 1 && s.seeds[0] === s.seed ? {} : { seeds: seedsText(s.seeds) }),
    duration: durationText(s.durationUs),
    drain: durationText(s.drainUs),
    stock: s.stock.map((row) => ({ sku: row.sku, available: row.available })),
    workload: {
      clients: w.clients,
      workers: w.workersPerClient,
      pool: w.poolPerClient,
      ...arrivalEntry(w.arrival),
      qty: w.qty,
      'queue-limit': w.queueLimit,
      resubmit: w.resubmitProbability,
      'resubmit-after': distributionText(w.resubmitAfter),
      'read-share': w.readShare,
      steps: w.steps.map((step) => (typeof step === 'string' ? step : step.call)),
    },
    ...(s.dependencies.length > 0 ? { dependencies: Object.fromEntries(s.dependencies.map((d) => [d.name, distributionText(d.latency)])) } : {}),
    network: { 'redis-latency': distributionText(s.network.redisLatency), 'command-timeout': durationText(s.network.commandTimeoutUs) },
    redis: Object.fromEntries(
      Object.entries({
        topology: r.topology,
        server: r.server,
        replicas: r.replicas,
        masters: r.masters,
        'replication-backlog': distributionText(r.replicationBacklog),
        'replication-lag': distributionText(r.replicationLag),
        'repl-timeout': durationText(r.replTimeoutUs),
        'down-after': durationText(r.downAfterUs),
        'node-timeout': durationText(r.nodeTimeoutUs),
        rediscover: distributionText(r.rediscover),
        sentinels: r.sentinels,
        quorum: r.quorum,
        'failover-timeout': durationText(r.failoverTimeoutUs),
        'min-replicas-to-write': r.minReplicasToWrite,
        'min-replicas-max-lag': durationText(r.minReplicasMaxLagUs),
      }).filter(([field]) => redisFieldApplies(field, r.topology)),
    ),
    database: { 'statement-time': distributionText(s.database.statementTime) },
    faults: [...s.faults.map(fixedFault), ...s.randomFaults.map(randomFault)],
    variants: Object.fromEntries(s.variants.map((v) => [v.name, variantEntry(v)])),
    ...(s.explore === undefined ? {} : { explore: exploreBlock(s.explore) }),
    ...(s.expectations.length > 0 || (s.exploreExpectations ?? []).length > 0 ? { expect: expectBlock(s.expectations, s.exploreExpectations ?? []) } : {}),
  };
}

export function scenarioToYaml(s: Scenario, header: string[] = []): string {
  const body = stringify(scenarioToObject(s), { lineWidth: 0, flowCollectionPadding: true });
  return `${header.map((line) => `# ${line}`.trimEnd()).join('\n')}${header.length > 0 ? '\n' : ''}${body}`;
}
