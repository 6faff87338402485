/**
 * Raw variants -> VariantSpecs: defaults filled (each cites where it comes from) and
 * options checked against the lock and guard they belong to, so a Redlock option on a
 * Redisson variant is an error rather than silently ignored.
 */
import type { Topology } from '../world/redis/deployment.js';
import type { ScenarioIssue } from './errors.js';
import type { RawScenario } from './schema.js';
import type { VariantSpec } from './types.js';

export const VARIANT_DEFAULTS = {
  waitMs: 0, // fail fast: seed 000's tryLock returned false at once
  retryIntervalMs: 50,
  // Redisson: checkLockSyncedSlaves = true since 3.17.0 (lock-semantics.md 1.1, 1.9)
  syncReplicas: true,
  // Redisson 3.14-3.43: renewal stops after one failure (lock-semantics.md 1.5)
  watchdogOnError: 'stop' as const,
  // node-redlock v4 defaults: retryCount 10, retryDelay 200, retryJitter 100, driftFactor 0.01 (lock-semantics.md 4.1)
  retryCount: 10,
  retryDelayMs: 200,
  retryJitterMs: 100,
  driftFactor: 0.01,
  // the Redlock spec: per-instance timeout "in the ~ 5-50 milliseconds range" for a 10 s TTL (lock-semantics.md 2)
  instanceTimeoutMs: 50,
  // seed 004 4.4: sleep 100 ms and retry, sleep 200 ms and retry, then "system busy"; +-30 ms of jitter
  casRetries: 2,
  casBackoffMs: 100,
  casJitterMs: 30,
};

type RawVariant = RawScenario['variants'][string];

/** Which option belongs to which lock or guard (options not listed apply to every variant). */
const OPTION_OWNERS: Record<string, { locks?: string[]; guards?: string[] }> = {
  'sync-replicas': { locks: ['redisson'] },
  'watchdog-on-error': { locks: ['redisson'] },
  'retry-count': { locks: ['redlock'] },
  'retry-delay': { locks: ['redlock'] },
  'retry-jitter': { locks: ['redlock'] },
  'drift-factor': { locks: ['redlock'] },
  'instance-timeout': { locks: ['redlock'] },
  'cas-retries': { guards: ['version-cas'] },
  'cas-backoff': { guards: ['version-cas'] },
  'cas-jitter': { guards: ['version-cas'] },
};

const ms = (us: number | undefined, fallback: number): number => (us === undefined ? fallback : Math.round(us / 1000));

export function resolveVariants(
  raw: Record<string, RawVariant>,
  topology: Topology,
  issue: (path: ScenarioIssue['path'], message: string) => void,
): VariantSpec[] {
  const variants: VariantSpec[] = [];
  for (const [name, v] of Object.entries(raw)) {
    const guard = v.guard ?? 'none';
    for (const [option, owner] of Object.entries(OPTION_OWNERS)) {
      if (!(option in v) || v[option as keyof RawVariant] === undefined) continue;
      const ok = (owner.locks?.includes(v.lock) ?? false) || (owner.guards?.includes(guard) ?? false);
      if (!ok) {
        const to = owner.locks ? `lock ${owner.locks.join(' or ')}` : `guard ${owner.guards?.join(' or ')}`;
        issue(['variants', name, option], `${option} applies to ${to}, not to this variant (lock ${v.lock}, guard ${guard})`);
      }
    }
    if (v.lease !== undefined && v.lease < 1000) issue(['variants', name, 'lease'], 'a lease must be at least 1ms');
    if (v.lock === 'redlock' && topology !== 'independent') {
      issue(['variants', name, 'lock'], 'redlock needs independent masters: set redis: { topology: independent, masters: 5 }');
    }
    if (guard === 'fenced-write' && v.lock !== 'fenced') {
      issue(['variants', name, 'guard'], 'fenced-write needs a lock that hands out fencing tokens: lock: fenced');
    }
    if (v.lock === 'redlock' && v.wait !== undefined) {
      issue(['variants', name, 'wait'], 'redlock retries by retry-count / retry-delay / retry-jitter, not by wait');
    }
    variants.push({
      name,
      lock: v.lock,
      guard,
      leaseMs: v.lease === undefined ? null : Math.round(v.lease / 1000),
      waitMs: v.wait === undefined ? VARIANT_DEFAULTS.waitMs : v.wait === Number.POSITIVE_INFINITY ? v.wait : Math.round(v.wait / 1000),
      retryIntervalMs: Math.max(1, ms(v['retry-interval'], VARIANT_DEFAULTS.retryIntervalMs)),
      uniqueOrderKey: v['order-key'] === 'unique',
      unlockAlways: v['unlock-always'] ?? false,
      syncReplicas: v['sync-replicas'] ?? VARIANT_DEFAULTS.syncReplicas,
      watchdogOnError: v['watchdog-on-error'] ?? VARIANT_DEFAULTS.watchdogOnError,
      retryCount: v['retry-count'] ?? VARIANT_DEFAULTS.retryCount,
      retryDelayMs: ms(v['retry-delay'], VARIANT_DEFAULTS.retryDelayMs),
      retryJitterMs: ms(v['retry-jitter'], VARIANT_DEFAULTS.retryJitterMs),
      driftFactor: v['drift-factor'] ?? VARIANT_DEFAULTS.driftFactor,
      instanceTimeoutMs: Math.max(1, ms(v['instance-timeout'], VARIANT_DEFAULTS.instanceTimeoutMs)),
      casRetries: v['cas-retries'] ?? VARIANT_DEFAULTS.casRetries,
      casBackoffMs: ms(v['cas-backoff'], VARIANT_DEFAULTS.casBackoffMs),
      casJitterMs: ms(v['cas-jitter'], VARIANT_DEFAULTS.casJitterMs),
    });
  }
  if (variants.length === 0) issue(['variants'], 'name at least one variant');
  return variants;
}
