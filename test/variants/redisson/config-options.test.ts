/**
 * Redisson's Config options as variant options: lock-watchdog-timeout (Config.lockWatchdogTimeout)
 * and slaves-sync-timeout (Config.slavesSyncTimeout), each against its default; and Redisson's
 * own names for the settings lock-sim models under other names, which get a pointer to them.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../src/history/operation.js';
import { parseScenario } from '../../../src/scenario/load.js';
import { syncedEval, SyncState, type RedissonConfig } from '../../../src/variants/locks/redisson/executor.js';
import { behaviourOf } from '../../../src/variants/locks/redisson/versions.js';
import { redissonAcquire } from '../../../src/world/redis/scripts.js';
import { runYaml } from '../../helpers.js';
import { Driver } from './drive.js';

const world = (options: string, faults = '[]') => `
name: t
duration: 40s
drain: 5s
stock: { sku: 1, available: 1000 }
workload: { clients: 1, workers: 1, users: 1, think: 1s, steps: [lock, read, risk-check, deduct, order, unlock] }
dependencies: { risk-check: 35s }
faults: ${faults}
variants:
  v: { lock: redisson${options} }
`;

type KeyState = Extract<Operation, { f: 'key-state' }>;
/**
 * The TTLs the lock key got on redis-0 during the first request's hold (1 s to 36 s), in ms,
 * and when (s): from the acquire, then from each renewal.
 */
const leases = (history: readonly Operation[]): Array<[number, number]> =>
  history.flatMap((op) =>
    op.f === 'key-state' && op.node === 'redis-0' && op.cause === 'ttl' && op.timeUs < 36e6 ? [[Math.round(op.timeUs / 1e3) / 1e3, Math.round(((op as KeyState).expiresAtUs! - op.timeUs) / 1e3)] as [number, number]] : [],
  );
const renewGaps = (history: readonly Operation[]): number[] => {
  const at = leases(history).map(([t]) => t);
  return at.slice(1).map((t, i) => Math.round((t - at[i]) * 10) / 10);
};

describe('lock-watchdog-timeout (Config.lockWatchdogTimeout)', () => {
  it('default 30 s: the lock is taken for 30 s and renewed to 30 s every 10 s, in both watchdog designs', () => {
    for (const version of ['4.7.0', '3.43.0']) {
      const r = runYaml(world(`, redisson-version: "${version}"`));
      const got = leases(r.history);
      expect(got.every(([, ms]) => Math.abs(ms - 30_000) <= 2), version).toBe(true);
      expect(renewGaps(r.history), version).toEqual([10, 10, 10]);
    }
  });

  it('10 s: taken for 10 s, renewed every 10000 / 3 = 3333 ms (a long division), per lock (3.43.0) and shared (4.7.0)', () => {
    for (const version of ['4.7.0', '3.43.0']) {
      const r = runYaml(world(`, redisson-version: "${version}", lock-watchdog-timeout: 10s`));
      const got = leases(r.history);
      expect(got.length).toBeGreaterThan(5);
      expect(got.every(([, ms]) => Math.abs(ms - 10_000) <= 2), version).toBe(true);
      const gaps = renewGaps(r.history);
      expect(new Set(gaps), version).toEqual(new Set([3.3]));
      expect(r.history.some((op) => op.f === 'renew' && op.type === 'ok' && op.detail === 'renewed to 10000ms')).toBe(true);
    }
  });

  it('a 12 s GC pause outlasts a 10 s watchdog lease (the lock expires) and not the default 30 s one', () => {
    const pause = '[{ kind: gc-pause, client: 1, at: 10s, duration: 12s }]';
    const expired = (options: string) => runYaml(world(options, pause)).history.filter((op) => op.f === 'key-state' && op.cause === 'expire' && op.key.startsWith('lock:'));
    expect(expired(', lock-watchdog-timeout: 10s')).toHaveLength(1);
    expect(expired('')).toEqual([]);
  });
});

describe('slaves-sync-timeout (Config.slavesSyncTimeout, 3.22.0+)', () => {
  const ACQUIRE = ['EVAL', redissonAcquire.lua, '1', 'lock:stock:1', '30000', 'uuid:57'];
  const info = '# Replication\r\nrole:master\r\nconnected_slaves:1\r\n';
  const primary = (c: string[]) => (c[0] === 'WAIT' ? 1 : c[0] === 'INFO' ? info : null);
  const config = (version: string, slavesSyncTimeoutMs: number): RedissonConfig => {
    const b = behaviourOf(version);
    return { b, retryAttempts: b.retryAttempts, retryDelay: b.retryDelay, checkSyncedSlaves: true, watchdogOnError: b.watchdogOnError, lockWatchdogTimeoutMs: 30_000, slavesSyncTimeoutMs, waitCommands: [], setup: { commandTimeoutUs: 3_000_000, replicated: true }, sync: new SyncState() };
  };
  const batch = (version: string, ms: number) => {
    const d = new Driver(primary, { replicated: true, replicas: 1 });
    d.run(syncedEval(config(version, ms), ACQUIRE, true));
    const last = d.steps[d.steps.length - 1];
    return { sent: d.sent[d.sent.length - 1], timeoutUs: last.kind === 'send' ? last.timeoutUs : 0 };
  };

  it('default 1 s: WAIT <n> 1000, the batch given 3 s + 1 s', () => {
    expect(batch('4.7.0', 1_000)).toEqual({ sent: 'EVAL lock:stock:1 | WAIT 1 1000', timeoutUs: 4_000_000 });
  });

  it('250 ms: WAIT <n> 250, the batch given 3 s + 250 ms (RedisCommonBatchExecutor adds the sync timeout from 3.14.1)', () => {
    expect(batch('4.7.0', 250)).toEqual({ sent: 'EVAL lock:stock:1 | WAIT 1 250', timeoutUs: 3_250_000 });
    expect(batch('3.22.0', 250)).toEqual({ sent: 'EVAL lock:stock:1 | WAIT 1 250', timeoutUs: 3_250_000 });
  });

  it('in a run: an acquire whose replica cannot hear the primary waits the sync timeout, 250 ms instead of 1 s', () => {
    const cut = '[{ kind: partition, at: 5s, duration: 40s, isolate: [redis-1], from: [redis-0] }]';
    const sentinel = (options: string) => world(`, sync-replicas: false${options}`, cut).replace('faults:', 'redis: { topology: sentinel, replicas: 1, down-after: 60s }\nfaults:');
    const waited = (options: string) => {
      const r = runYaml(sentinel(options));
      const acquires = r.history.filter((op) => op.f === 'acquire');
      // The first acquire after the cut: from its invoke to its answer.
      const i = acquires.findIndex((op) => op.type === 'invoke' && op.timeUs > 5e6);
      return Math.round((acquires[i + 1].timeUs - acquires[i].timeUs) / 1e3);
    };
    const short = waited(', slaves-sync-timeout: 250ms');
    const long = waited('');
    expect(short).toBeGreaterThanOrEqual(250);
    expect(short).toBeLessThan(400);
    expect(long).toBeGreaterThanOrEqual(1_000);
    expect(long).toBeLessThan(1_150);
  });
});

describe('bad values and Redisson spellings: exit-2 errors with the field path', () => {
  const variant = (options: string) => `name: t
duration: 60s
stock: { sku: 1, available: 10 }
workload: { clients: 2, arrival: 10/s }
variants:
  v: { lock: redisson${options} }
`;
  function errorOf(text: string): string {
    try {
      parseScenario(text, 'f.yaml');
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('expected the scenario to be rejected');
  }

  it('accepts both and fills the defaults (30 s, 1 s)', () => {
    const at = (options: string) => parseScenario(variant(options), 'f.yaml').variants[0];
    expect(at('')).toMatchObject({ lockWatchdogTimeoutMs: 30_000, slavesSyncTimeoutMs: 1_000 });
    expect(at(', lock-watchdog-timeout: 10s, slaves-sync-timeout: 250ms')).toMatchObject({ lockWatchdogTimeoutMs: 10_000, slavesSyncTimeoutMs: 250 });
    expect(at(', slaves-sync-timeout: 0s')).toMatchObject({ slavesSyncTimeoutMs: 0 });
  });

  it('refuses a watchdog timeout under 3 ms, one given with a lease, a sync timeout before 3.22.0, and non-durations', () => {
    expect(errorOf(variant(', lock-watchdog-timeout: 2ms'))).toContain('f.yaml:6:47: variants.v.lock-watchdog-timeout: a lock-watchdog-timeout must be at least 3ms: the watchdog renews every third of it, in whole ms');
    expect(errorOf(variant(', lease: 5s, lock-watchdog-timeout: 10s'))).toContain('variants.v.lock-watchdog-timeout: lock-watchdog-timeout is the lease of a lock taken without one: with a lease the watchdog is off');
    expect(errorOf(variant(', redisson-version: "3.21.3", slaves-sync-timeout: 2s'))).toContain('variants.v.slaves-sync-timeout: slaves-sync-timeout is slavesSyncTimeout, which Redisson has from 3.22.0; 3.21.3 waits a fixed 1s for the replicas');
    expect(errorOf(variant(', redisson-version: "3.12.4", slaves-sync-timeout: 2s'))).toContain('3.12.4 sends no WAIT at all');
    expect(errorOf(variant(', lock-watchdog-timeout: soon'))).toMatch(/f\.yaml:6:\d+: variants\.v\.lock-watchdog-timeout: /);
    expect(errorOf(`name: t
duration: 60s
stock: { sku: 1, available: 10 }
workload: { clients: 2, arrival: 10/s }
variants:
  v: { lock: lua-unlock, lock-watchdog-timeout: 10s }
`)).toContain('variants.v.lock-watchdog-timeout: lock-watchdog-timeout applies to lock redisson');
  });

  it('answers Redisson\'s own names with the option that models each, or why none does', () => {
    expect(errorOf(variant(', retry-attempts: 5'))).toContain('variants.v.retry-attempts: unknown field "retry-attempts": Redisson\'s retryAttempts is command-retries here (BaseConfig.retryAttempts)');
    expect(errorOf(variant(', lockWatchdogTimeout: 10s'))).toContain('unknown field "lockWatchdogTimeout": Redisson\'s lockWatchdogTimeout is lock-watchdog-timeout here');
    expect(errorOf(variant(', check-lock-synced-slaves: false'))).toContain('Redisson\'s checkLockSyncedSlaves is sync-replicas here');
    expect(errorOf(variant(', connection-pool-size: 8'))).toContain('Redisson\'s connectionPoolSize is client-pool here');
    expect(errorOf(variant(', timeout: 5s'))).toContain('Redisson\'s timeout is network.command-timeout here');
    expect(errorOf(variant(', connection-minimum-idle-size: 8'))).toContain('Redisson\'s connectionMinimumIdleSize (24; 32 in 3.11.0) is not modelled');
    expect(errorOf(variant(', subscription-connection-pool-size: 8'))).toContain('subscriptionConnectionPoolSize (50, with subscriptionsPerConnection 5) is not modelled');
    expect(errorOf(variant(', retry-interval: 2s'))).toContain('variants.v.retry-interval: retry-interval applies to lock setnx-expire');
    expect(errorOf(variant(', retry-interval: 2s'))).toContain('; Redisson\'s retryInterval is command-retry-interval here (BaseConfig.retryInterval)');
    // Elsewhere than a variant a typo is only a typo.
    expect(errorOf(variant('').replace('workload: {', 'workload: { timeout: 3s,'))).toContain('unknown field "timeout"');
    expect(errorOf(variant('').replace('workload: {', 'workload: { timeout: 3s,'))).not.toContain('Redisson');
  });
});
