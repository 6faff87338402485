/**
 * The servers' view of lock keys on real runs (src/backends/real/key-watch.ts): stuck and orphan time,
 * lock-lost and foreign unlocks judged from keyspace notifications, each next to its
 * must-not-fail neighbour, and the real figure against the model's within the key watch's
 * resolution (agree.ts REAL_RESOLUTION), never a wall-clock time on its own.
 */
import { describe, expect, it } from 'vitest';
import { CommandLedger, lockKeysOf } from '../../../src/backends/real/command-ledger.js';
import { afterInOrder, causeOfEvent, lockKeyGlobs } from '../../../src/backends/real/key-watch.js';
import { lockKeyAttribution } from '../../../src/own-code/key-attribution.js';
import { runVariantReal } from '../../../src/backends/real/real-run.js';
import { runSimulated } from '../../../src/backends/default-backend.js';
import { parseScenario } from '../../../src/scenario/load.js';
import { hasRedis, REDIS_SERVER } from './redis-available.js';
import { runReal, twoClientsYaml } from './real-runs.js';

describe('key watch reads in order', () => {
  it('a reply rejected while an earlier read still waits its turn (a killed server: "Connection is closed.") is no unhandled rejection, and its turn sees it', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let release = (): void => undefined;
      const earlier = new Promise<void>((resolve) => (release = resolve));
      const reply = Promise.reject(new Error('Connection is closed.'));
      const seen: string[] = [];
      const chain = afterInOrder(earlier, reply, () => reply.then(() => void seen.push('ok'), (e: Error) => void seen.push(e.message)));
      await new Promise((resolve) => setTimeout(resolve, 20)); // past the microtask turn where Node reports it
      expect(unhandled).toEqual([]);
      expect(seen).toEqual([]);
      release();
      await chain;
      expect(seen).toEqual(['Connection is closed.']);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('command ledger', () => {
  it('names the lock keys of SET, DEL and EVAL (numkeys), and none of a pub/sub channel', () => {
    expect(lockKeysOf(['SET', 'lock:a', 't', 'NX', 'PX', '10'])).toEqual(['lock:a']);
    expect(lockKeysOf(['EVAL', 'return 1', '2', 'lock:a', 'other', 'lock:b'])).toEqual(['lock:a']);
    expect(lockKeysOf(['PUBLISH', 'redisson_lock__channel:{lock:a}', '0'])).toEqual([]);
  });

  it('with a module\'s key pattern (redis-semaphore\'s mutex:{key}) the pattern\'s keys are lock keys, and the bare key is not', () => {
    const mutexKeys = lockKeyAttribution(['mutex:{key}']);
    expect(lockKeysOf(['SET', 'mutex:lock:a', 'uuid', 'PX', '10', 'NX'], mutexKeys)).toEqual(['mutex:lock:a']);
    expect(lockKeysOf(['EVALSHA', 'abc', '1', 'mutex:lock:a', 'uuid'], mutexKeys)).toEqual(['mutex:lock:a']);
    expect(lockKeysOf(['SET', 'lock:a', 'uuid', 'PX', '10', 'NX'], mutexKeys)).toEqual([]);
    const ledger = new CommandLedger(mutexKeys);
    expect(ledger.sent('r1', ['SET', 'mutex:lock:a', 'uuid-1', 'PX', '10', 'NX'])).not.toBeNull();
    expect(ledger.sent('r2', ['SET', 'lock:a', 'uuid-2', 'PX', '10', 'NX'])).toBeNull();
    expect(ledger.ownerOf('redis-0', 'mutex:lock:a', ['uuid-1'])).toBe('r1');
  });

  it('subscribes to and lists the pattern\'s keys as Redis globs, escaping what a glob would read', () => {
    expect(lockKeyGlobs(null)).toEqual(['lock:*']);
    expect(lockKeyGlobs(['mutex:{key}', '{key}:fence'])).toEqual(['mutex:lock:*', 'lock:*:fence']);
    expect(lockKeyGlobs(['a*?[\\{key}'])).toEqual(['a\\*\\?\\[\\\\lock:*']);
  });

  it('a token names its request; a constant value names the open SET that said OK', () => {
    const ledger = new CommandLedger();
    ledger.sent('r1', ['SET', 'lock:a', 'tok-1', 'NX', 'PX', '100']);
    const a = ledger.sent('r2', ['SET', 'lock:a', 'locked', 'NX', 'PX', '100']);
    const b = ledger.sent('r3', ['SET', 'lock:a', 'locked', 'NX', 'PX', '100']);
    expect(ledger.ownerOf('redis-0', 'lock:a', ['tok-1'])).toBe('r1');
    if (!a || !b) throw new Error('no entries');
    ledger.replied(a, null);
    ledger.replied(b, 'OK');
    expect(ledger.ownerOf('redis-0', 'lock:a', ['locked'])).toBe('r3');
  });

  it('... and with no reply yet, the earliest open SET', () => {
    const ledger = new CommandLedger();
    ledger.sent('r2', ['SET', 'lock:a', 'locked', 'NX', 'PX', '100']);
    ledger.sent('r3', ['SET', 'lock:a', 'locked', 'NX', 'PX', '100']);
    expect(ledger.ownerOf('redis-0', 'lock:a', ['locked'])).toBe('r2');
  });

  it('a token\'s record needs no reply to name its owner; a constant value SET by two requests does', () => {
    const ledger = new CommandLedger();
    ledger.sent('r1', ['SET', 'lock:a', 'tok-1', 'NX', 'PX', '100'], 'redis-0');
    ledger.sent('r2', ['SET', 'lock:a', 'tok-2', 'NX', 'PX', '100'], 'redis-0');
    expect(ledger.ambiguous('redis-0', 'lock:a', ['tok-1'], false)).toBe(false);
    ledger.sent('r3', ['SET', 'lock:b', 'locked', 'NX', 'PX', '100'], 'redis-0');
    ledger.sent('r4', ['SET', 'lock:b', 'locked', 'NX', 'PX', '100'], 'redis-0');
    expect(ledger.ambiguous('redis-0', 'lock:b', ['locked'], false)).toBe(true);
  });

  it('a command sent to one Redlock master is not open on another', () => {
    const ledger = new CommandLedger();
    ledger.sent('r1', ['SET', 'lock:a', 'locked', 'NX', 'PX', '100'], 'redis-0');
    ledger.sent('r2', ['SET', 'lock:a', 'locked', 'NX', 'PX', '100'], 'redis-1');
    expect(ledger.ownerOf('redis-1', 'lock:a', ['locked'])).toBe('r2');
    expect(ledger.ownerOf('redis-0', 'lock:a', ['locked'])).toBe('r1');
  });

  it('a delete is the open deleting command\'s whose reply counted a key, not an open SET\'s', () => {
    const ledger = new CommandLedger();
    ledger.sent('r1', ['SET', 'lock:a', 'locked', 'NX', 'PX', '100']);
    const d2 = ledger.sent('r2', ['DEL', 'lock:a']);
    const d3 = ledger.sent('r3', ['DEL', 'lock:a']);
    expect(ledger.deleterOf('redis-0', 'lock:a')).toBe('r2');
    if (!d2 || !d3) throw new Error('no entries');
    ledger.replied(d2, 0);
    ledger.replied(d3, 1);
    expect(ledger.deleterOf('redis-0', 'lock:a')).toBe('r3');
    ledger.delivered(d3);
    ledger.delivered(d2);
    expect(ledger.deleterOf('redis-0', 'lock:a')).toBe('');
  });

  it('a compare-and-delete that carries the deleted token is the deleter before any reply, not the earliest open one', () => {
    const ledger = new CommandLedger();
    const unlock = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
    ledger.sent('r2', ['EVAL', unlock, '1', 'lock:a', 'tok-2']);
    ledger.sent('r1', ['EVAL', unlock, '1', 'lock:a', 'tok-1']);
    expect(ledger.deleterOf('redis-0', 'lock:a', ['tok-1'])).toBe('r1');
    expect(ledger.deleterOf('redis-0', 'lock:a')).toBe('r2');
  });

  it('... while a constant value, which every deleter carries, still needs the counted reply', () => {
    const ledger = new CommandLedger();
    const unlock = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
    const a = ledger.sent('r2', ['EVAL', unlock, '1', 'lock:a', 'locked']);
    const b = ledger.sent('r1', ['EVAL', unlock, '1', 'lock:a', 'locked']);
    expect(ledger.deleterOf('redis-0', 'lock:a', ['locked'])).toBe('r2');
    if (!a || !b) throw new Error('no entries');
    ledger.replied(a, 0);
    ledger.replied(b, 1);
    expect(ledger.deleterOf('redis-0', 'lock:a', ['locked'])).toBe('r1');
  });

  it('a holder\'s compare-and-delete whose reply already went through is the deleter, not a turned-away request\'s open one', () => {
    // Under load the holder's reply passed the barrier before the record of its delete.
    const ledger = new CommandLedger();
    const unlock = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
    const holder = ledger.sent('r1', ['EVAL', unlock, '1', 'lock:a', 'tok-1']);
    ledger.sent('r2', ['EVAL', unlock, '1', 'lock:a', 'tok-2']);
    if (!holder) throw new Error('no entry');
    ledger.replied(holder, 1);
    ledger.delivered(holder);
    expect(ledger.deleterOf('redis-0', 'lock:a', ['tok-1'])).toBe('r1');
  });

  it('... while a delivered compare-and-delete that deleted nothing, or went to another node, names no one', () => {
    const ledger = new CommandLedger();
    const unlock = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
    const missed = ledger.sent('r1', ['EVAL', unlock, '1', 'lock:a', 'tok-1'], 'redis-0');
    const elsewhere = ledger.sent('r1', ['EVAL', unlock, '1', 'lock:a', 'tok-1'], 'redis-1');
    ledger.sent('r2', ['EVAL', unlock, '1', 'lock:a', 'tok-2'], 'redis-0');
    if (!missed || !elsewhere) throw new Error('no entries');
    ledger.replied(missed, 0);
    ledger.delivered(missed);
    ledger.replied(elsewhere, 1);
    ledger.delivered(elsewhere);
    expect(ledger.deleterOf('redis-0', 'lock:a', ['tok-1'])).toBe('r2');
  });

  it('keyspace events map to the model\'s causes', () => {
    expect(['set', 'hincrby', 'del', 'pexpire', 'expired', 'evicted'].map(causeOfEvent)).toEqual(['write', 'write', 'delete', 'ttl', 'expire', 'evict']);
  });
});

/** Two requests; client 1 holds a 3 s lease and is killed (kill -9) 1 s into its work, or not. */
function crashScenario(crash: boolean, variant = 'lua: { lock: lua-unlock, lease: 3s, wait: 6s }'): string {
  return twoClientsYaml('real-crash-holder', { workS: 2, drainS: 3, faults: crash ? '{ kind: crash, client: 1, at: 2s }' : '', variant });
}

describe.skipIf(!hasRedis)('key watch on real Redis', () => {
  it('a holder killed inside its critical section leaves its key stuck until the lease ends, as in the model', async () => {
    const s = parseScenario(crashScenario(true), 'crash.yaml');
    const v = s.variants[0];
    const real = await runVariantReal(s, v, s.seed, { redisServer: REDIS_SERVER });
    const sim = runSimulated(s, v, s.seed);
    // By construction: acquired between its arrival (1 s) and the kill (2 s), so the 3 s lease
    // ends between 4 s and 5 s, and the key is stuck from the kill until then: 2 s to 3 s.
    for (const stuckUs of [sim.metrics.stuckLockUs, real.metrics.stuckLockUs]) {
      expect(stuckUs).toBeGreaterThanOrEqual(2_000_000);
      expect(stuckUs).toBeLessThanOrEqual(3_000_000);
    }
    expect(real.history.some((op) => op.f === 'key-state' && op.holder === 'r1')).toBe(true);
    expect(real.metrics.doubleHolders).toBe(0);
  });

  it('... and a holder that lives releases it: no stuck time, no orphan time, no lock lost', async () => {
    const s = parseScenario(crashScenario(false), 'no-crash.yaml');
    const real = await runReal(s);
    expect(real.metrics.stuckLockUs).toBe(0);
    expect(real.metrics.orphanLockUs).toBe(0);
    expect(real.metrics.lockLost).toBe(0);
    expect(real.metrics.orders).toBe(2);
    const holders = real.history.flatMap((op) => (op.f === 'key-state' && op.holder !== null ? [op.holder] : []));
    expect(new Set(holders)).toEqual(new Set(['r1', 'r2']));
  });

  it('a Redisson watchdog\'s renewal (a PEXPIRE its timer sends with the holder\'s field) changes no holder: no lock lost, nothing orphaned', async () => {
    // One request holds the lock for 11 s; the watchdog renews it 10 s after the acquire
    // (lockWatchdogTimeout / 3). Before the key watch kept the value's owner across a TTL
    // change, the renewal's sender became the holder and the request "lost" its lock.
    const s = parseScenario(`name: real-renewal
duration: 13s
drain: 3s
stock: { sku: 1, available: 10 }
workload:
  clients: 1
  workers: 1
  requests:
    - { at: 500ms, sku: 1 }
  steps: [lock, read, work, deduct, order, unlock]
dependencies:
  work: 11s
network:
  redis-latency: 1ms
variants:
  watchdog: { lock: redisson }
`, 'renewal.yaml');
    const real = await runReal(s);
    const states = real.history.flatMap((op) => (op.f === 'key-state' ? [op] : []));
    expect(states.some((op) => op.cause === 'ttl')).toBe(true);
    expect(new Set(states.flatMap((op) => (op.holder !== null ? [op.holder] : [])))).toEqual(new Set(['r1']));
    expect(real.metrics.lockLost).toBe(0);
    expect(real.metrics.orphanLockUs).toBeLessThanOrEqual(50_000);
    expect(real.metrics.orders).toBe(1);
  });

  // redis-semaphore 5.8.0 keeps its lock under `mutex:<key>` (src/RedisMutex.ts); the variant
  // declares it with `keys: 'mutex:{key}'`, and the watch reads those keys as the model does.
  const mutex = "mutex: { lock: { module: ./scenarios/own-code/locks/semaphore-mutex.mjs, keys: 'mutex:{key}' }, lease: 3s, wait: 6s }";

  it('a user module\'s prefixed lock key (mutex:{key}): its holder killed, the key is stuck until its lease ends', async () => {
    const s = parseScenario(crashScenario(true, mutex), 'crash.yaml');
    const real = await runReal(s);
    expect(real.metrics.stuckLockUs).toBeGreaterThanOrEqual(2_000_000);
    expect(real.metrics.stuckLockUs).toBeLessThanOrEqual(3_000_000);
    expect(real.history.some((op) => op.f === 'key-state' && op.key === 'lock:stock:1' && op.holder === 'r1')).toBe(true);
    expect(real.metrics.doubleHolders).toBe(0);
  });

  it('... and with its holder alive, both holders are seen under the request\'s key, nothing stuck', async () => {
    const s = parseScenario(crashScenario(false, mutex), 'no-crash.yaml');
    const real = await runReal(s);
    expect(real.metrics.stuckLockUs).toBe(0);
    expect(real.metrics.lockLost).toBe(0);
    expect(real.metrics.orders).toBe(2);
    const states = real.history.flatMap((op) => (op.f === 'key-state' ? [op] : []));
    expect(new Set(states.map((op) => op.key))).toEqual(new Set(['lock:stock:1']));
    expect(new Set(states.flatMap((op) => (op.holder !== null ? [op.holder] : [])))).toEqual(new Set(['r1', 'r2']));
  });
});
