/**
 * Raw (validated) scenario -> fully resolved Scenario: defaults filled, cross-references
 * checked (steps name dependencies, faults name clients that exist, expectations name
 * variants and metrics). Defaults cite reference/lock-semantics.md where they come from it.
 */
import { constant, type Distribution } from '../engine/distribution.js';
import type { ScenarioIssue } from './errors.js';
import { metricByName, METRIC_NAMES } from './metrics.js';
import type { RawScenario } from './schema.js';
import { didYouMean } from './suggest.js';
import { BUILTIN_STEPS, type Expectation, type FaultSpec, type Scenario, type Step } from './types.js';
import { parseComparison } from './values.js';

export const DEFAULTS = {
  seed: 1,
  drainUs: 60_000_000,
  sku: 10037, // seed 000: lock:stock:10037
  clients: 1,
  workersPerClient: 16,
  poolPerClient: 10, // HikariCP maximumPoolSize default
  qty: 1,
  queueLimit: 1000,
  steps: ['lock', 'read', 'deduct', 'order', 'unlock'],
  redisLatency: { kind: 'uniform', minUs: 200, maxUs: 1_000 } as Distribution,
  commandTimeoutUs: 3_000_000, // Redisson BaseConfig timeout = 3000 ms (lock-semantics.md 1.1)
  replicas: 1,
  replicationLag: { kind: 'uniform', minUs: 1_000, maxUs: 20_000 } as Distribution,
  downAfterUs: 30_000_000, // sentinel.conf down-after-milliseconds default (lock-semantics.md 5.4)
  promotionUs: 200_000,
  rediscoverUs: 1_000_000,
  statementTime: { kind: 'uniform', minUs: 1_000, maxUs: 3_000 } as Distribution,
  waitMs: 0,
  retryIntervalMs: 50,
};

/** Above this many expected arrivals a run is almost surely a typo, and would take hours. */
export const MAX_EXPECTED_REQUESTS = 20_000_000;

export function resolveScenario(raw: RawScenario, file: string): { scenario: Scenario | null; issues: ScenarioIssue[] } {
  const issues: ScenarioIssue[] = [];
  const issue = (path: Array<string | number>, message: string): void => {
    issues.push({ path, message });
  };

  const dependencies = Object.entries(raw.dependencies ?? {}).map(([name, latency]) => ({ name, latency }));
  const dependencyNames = dependencies.map((d) => d.name);
  const w = raw.workload;
  const clients = w.clients ?? DEFAULTS.clients;

  const steps: Step[] = [];
  (w.steps ?? DEFAULTS.steps).forEach((name, i) => {
    if ((BUILTIN_STEPS as readonly string[]).includes(name)) steps.push(name as Step);
    else if (dependencyNames.includes(name)) steps.push({ call: name });
    else {
      const known = [...BUILTIN_STEPS, ...dependencyNames];
      issue(['workload', 'steps', i], `unknown step "${name}"${didYouMean(name, known)}; steps are ${known.join(', ')} (a dependency becomes a step once declared under dependencies:)`);
    }
  });

  if (w.arrival !== undefined && w.users !== undefined) issue(['workload'], 'give either arrival (open loop) or users (closed loop), not both');
  if (w.arrival === undefined && w.users === undefined) issue(['workload'], 'missing arrival (e.g. "200/s") or users (closed loop)');
  if (w.arrival !== undefined && w.arrival * (raw.duration / 1e6) > MAX_EXPECTED_REQUESTS) {
    issue(['workload', 'arrival'], `${w.arrival}/s for ${raw.duration / 1e6}s is over ${MAX_EXPECTED_REQUESTS} requests; shorten the run or lower the rate`);
  }

  const faults: FaultSpec[] = [];
  (raw.faults ?? []).forEach((f, i) => {
    if ('client' in f && f.client > clients) issue(['faults', i, 'client'], `client ${f.client} does not exist: the workload has ${clients} client(s), numbered from 1`);
    if (f.kind === 'slow-call' && !dependencyNames.includes(f.dependency)) {
      issue(['faults', i, 'dependency'], `unknown dependency "${f.dependency}"${didYouMean(f.dependency, dependencyNames)}; declare it under dependencies:`);
    }
    if (f.at > raw.duration) issue(['faults', i, 'at'], `the fault starts after the end of the run (${raw.duration / 1e6}s)`);
    switch (f.kind) {
      case 'gc-pause':
        faults.push({ kind: 'gc-pause', client: f.client, atUs: f.at, durationUs: f.duration });
        break;
      case 'slow-call':
        faults.push({ kind: 'slow-call', dependency: f.dependency, atUs: f.at, durationUs: f.duration, latency: f.latency });
        break;
      case 'primary-crash':
        faults.push({
          kind: 'primary-crash', atUs: f.at, replicationStalledUs: f['replication-stalled-for'] ?? 0, restartAfterUs: f['restart-after'] ?? null,
        });
        break;
      case 'crash':
        faults.push({ kind: 'crash', client: f.client, atUs: f.at, point: f.point ?? null, restartAfterUs: f['restart-after'] ?? null });
        break;
    }
  });

  const variants = Object.entries(raw.variants).map(([name, v]) => ({
    name,
    lock: v.lock,
    guard: v.guard ?? 'none',
    leaseMs: v.lease === undefined ? null : Math.round(v.lease / 1000),
    waitMs: v.wait === undefined ? DEFAULTS.waitMs : Math.round(v.wait / 1000),
    retryIntervalMs: v['retry-interval'] === undefined ? DEFAULTS.retryIntervalMs : Math.max(1, Math.round(v['retry-interval'] / 1000)),
  }));
  if (variants.length === 0) issue(['variants'], 'name at least one variant');
  variants.forEach((v) => {
    if (v.leaseMs !== null && v.leaseMs <= 0) issue(['variants', v.name, 'lease'], 'a lease must be at least 1ms');
    if (v.lock !== 'none' && !steps.includes('lock')) issue(['workload', 'steps'], `variant ${v.name} uses a lock but the steps have no "lock"`);
  });

  const variantNames = variants.map((v) => v.name);
  const expectations: Expectation[] = [];
  for (const [variant, checks] of Object.entries(raw.expect ?? {})) {
    if (!variantNames.includes(variant)) {
      issue(['expect', variant], `no variant named "${variant}"${didYouMean(variant, variantNames)}; variants are ${variantNames.join(', ')}`);
      continue;
    }
    for (const [metric, written] of Object.entries(checks)) {
      const def = metricByName.get(metric);
      if (!def) {
        issue(['expect', variant, metric], `unknown metric "${metric}"${didYouMean(metric, METRIC_NAMES)}; metrics are ${METRIC_NAMES.join(', ')}`);
        continue;
      }
      const c = parseComparison(written, def.isTime);
      if (!c.ok) {
        issue(['expect', variant, metric], c.message);
        continue;
      }
      expectations.push({ variant, metric, ...c.value, text: `${metric} ${typeof written === 'number' ? `== ${written}` : written}`, location: '' });
    }
  }

  const stockRows = Array.isArray(raw.stock) ? raw.stock : [raw.stock];
  const stock = stockRows.map((row, i) => ({ sku: row.sku ?? DEFAULTS.sku + i, available: row.available }));
  const skus = new Set<number>();
  stock.forEach((row, i) => {
    if (skus.has(row.sku)) issue(Array.isArray(raw.stock) ? ['stock', i, 'sku'] : ['stock', 'sku'], `sku ${row.sku} appears twice`);
    skus.add(row.sku);
  });

  const redis = raw.redis ?? {};
  if (issues.length > 0) return { scenario: null, issues };
  const scenario: Scenario = {
    name: raw.name,
    description: raw.description ?? '',
    file,
    seed: raw.seed ?? DEFAULTS.seed,
    durationUs: raw.duration,
    drainUs: raw.drain ?? DEFAULTS.drainUs,
    stock,
    workload: {
      clients,
      workersPerClient: w.workers ?? DEFAULTS.workersPerClient,
      poolPerClient: w.pool ?? DEFAULTS.poolPerClient,
      arrival:
        w.arrival !== undefined
          ? { kind: 'open', ratePerS: w.arrival }
          : { kind: 'closed', users: w.users as number, think: w.think ?? constant(0) },
      qty: w.qty ?? DEFAULTS.qty,
      steps,
      queueLimit: w['queue-limit'] ?? DEFAULTS.queueLimit,
    },
    dependencies,
    network: {
      redisLatency: raw.network?.['redis-latency'] ?? DEFAULTS.redisLatency,
      commandTimeoutUs: raw.network?.['command-timeout'] ?? DEFAULTS.commandTimeoutUs,
    },
    redis: {
      topology: redis.topology ?? 'standalone',
      replicas: redis.replicas ?? DEFAULTS.replicas,
      replicationLag: redis['replication-lag'] ?? DEFAULTS.replicationLag,
      downAfterUs: redis['down-after'] ?? DEFAULTS.downAfterUs,
      promotionUs: redis.promotion ?? DEFAULTS.promotionUs,
      rediscoverUs: redis.rediscover ?? DEFAULTS.rediscoverUs,
    },
    database: { statementTime: raw.database?.['statement-time'] ?? DEFAULTS.statementTime },
    faults,
    variants,
    expectations,
  };
  return { scenario, issues };
}
