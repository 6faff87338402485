/**
 * What Redisson sends for one lock command, version by version: the re-sends after a
 * response timeout, the WAIT batch and where its replica count comes from, and the re-runs
 * of a whole acquire after "None of slaves were synced". Driven without a world (drive.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/scenario/load.js';
import { redisson } from '../../../src/variants/locks/redisson.js';
import { knownSync, send, SYNC_SINGLE, SYNC_UNKNOWN, syncedEval, SyncState, type RedissonConfig } from '../../../src/variants/locks/redisson/executor.js';
import { behaviourOf } from '../../../src/variants/locks/redisson/versions.js';
import type { LockHandle } from '../../../src/variants/lock-protocol.js';
import { RedisErrorReply, type RedisReply } from '../../../src/world/redis/reply.js';
import { redissonAcquire } from '../../../src/world/redis/scripts.js';
import { Driver } from './drive.js';

const config = (version: string, replicated: boolean, over: Partial<RedissonConfig> = {}): RedissonConfig => {
  const b = behaviourOf(version);
  return {
    b,
    retryAttempts: b.retryAttempts,
    retryDelay: b.retryDelay,
    checkSyncedSlaves: true,
    watchdogOnError: b.watchdogOnError,
    lockWatchdogTimeoutMs: 30_000,
    slavesSyncTimeoutMs: 1_000,
    waitCommands: [],
    setup: { commandTimeoutUs: 3_000_000, replicated },
    // One client: the probe verdict and the cached replica count live as long as this config.
    sync: new SyncState(),
    ...over,
  };
};

const ACQUIRE = ['EVAL', redissonAcquire.lua, '1', 'lock:stock:1', '30000', 'uuid:57'];
const info = (replicas: number): string => `# Replication\r\nrole:master\r\nconnected_slaves:${replicas}\r\nmaster_repl_offset:7\r\n`;
const UNKNOWN_WAITAOF = new RedisErrorReply("ERR unknown command 'WAITAOF', with args beginning with: '0' '0' '0' ");

/** A primary with one replica that acknowledges `acks` (INFO says 1 replica; no WAITAOF: Redis 7.0). */
const primary = (acks: number) => (c: string[]): RedisReply | undefined => {
  if (c[0] === 'WAIT') return c[1] === '0' ? 0 : acks;
  if (c[0] === 'WAITAOF') return UNKNOWN_WAITAOF;
  if (c[0] === 'INFO') return info(1);
  return null;
};

describe('syncedEval: WAIT after a lock script, by version', () => {
  it('a single server gets the script alone, in every version', () => {
    for (const version of ['3.11.5', '3.20.0', '3.27.0', '4.7.0']) {
      const d = new Driver(primary(1), { replicated: false });
      expect(d.run(syncedEval(config(version, false), ACQUIRE, true))).toEqual({ kind: 'reply', reply: null });
      expect(d.sent).toEqual(['EVAL lock:stock:1']);
    }
  });

  it('4.7.0: probes WAIT support once, reads INFO ALL once, then pipelines EVAL + WAIT 1 1000 with 3 s + 1 s to answer', () => {
    const d = new Driver(primary(1), { replicated: true });
    const c = config('4.7.0', true);
    expect(d.run(syncedEval(c, ACQUIRE, false))).toEqual({ kind: 'reply', reply: null });
    expect(d.run(syncedEval(c, ACQUIRE, false))).toEqual({ kind: 'reply', reply: null });
    expect(d.sent).toEqual(['WAIT 0 0 | WAITAOF 0 0 0', 'INFO all', 'EVAL lock:stock:1 | WAIT 1 1000', 'EVAL lock:stock:1 | WAIT 1 1000']);
    expect(d.steps.map((s) => (s.kind === 'send' ? s.timeoutUs : 0))).toEqual([3e6, 3e6, 4e6, 4e6]);
  });

  it('4.7.0: a WAIT nobody acknowledged fails the call, and the cached count is asked again', () => {
    const d = new Driver(primary(0), { replicated: true });
    const c = config('4.7.0', true);
    const r = d.run(syncedEval(c, ACQUIRE, false));
    expect(r).toEqual({ kind: 'no-sync', reply: null, message: 'None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.' });
    d.run(syncedEval(c, ACQUIRE, false));
    expect(d.sent.filter((s) => s.startsWith('INFO'))).toHaveLength(2);
  });

  it('3.26.1 probes with WAIT 0 0 alone and 3.20.1 not at all; both read INFO REPLICATION before every command', () => {
    for (const [version, probe] of [['3.26.1', ['WAIT 0 0']], ['3.20.1', []]] as const) {
      const d = new Driver(primary(1), { replicated: true });
      const c = config(version, true);
      d.run(syncedEval(c, ACQUIRE, true));
      d.run(syncedEval(c, ACQUIRE, true));
      const round = ['INFO replication', 'EVAL lock:stock:1 | WAIT 1 1000'];
      expect(d.sent).toEqual([...probe, ...round, ...round]);
    }
  });

  it('3.46.0-3.51.0: the call whose probe met an unknown WAITAOF goes out without sync, the next one with it; 3.52.0 keeps sync', () => {
    const d = new Driver(primary(1), { replicated: true });
    const c = config('3.46.0', true);
    d.run(syncedEval(c, ACQUIRE, true));
    d.run(syncedEval(c, ACQUIRE, true));
    expect(d.sent).toEqual(['WAIT 0 0 | WAITAOF 0 0 0', 'EVAL lock:stock:1', 'INFO all', 'EVAL lock:stock:1 | WAIT 1 1000']);
    const later = new Driver(primary(1), { replicated: true });
    later.run(syncedEval(config('3.52.0', true), ACQUIRE, true));
    expect(later.sent).toEqual(['WAIT 0 0 | WAITAOF 0 0 0', 'INFO all', 'EVAL lock:stock:1 | WAIT 1 1000']);
  });

  it('before 3.12.5 no WAIT; 3.12.5-3.16.6 WAIT for the replicas the client sees and ignore what it says', () => {
    const none = new Driver(primary(0), { replicated: true });
    expect(none.run(syncedEval(config('3.12.4', true), ACQUIRE, true))).toEqual({ kind: 'reply', reply: null });
    expect(none.sent).toEqual(['EVAL lock:stock:1']);
    const ignored = new Driver(primary(0), { replicated: true, replicas: 1 });
    expect(ignored.run(syncedEval(config('3.16.6', true), ACQUIRE, true))).toEqual({ kind: 'reply', reply: null });
    expect(ignored.sent).toEqual(['EVAL lock:stock:1 | WAIT 1 1000']);
  });

  it('3.16.7 fails on any other count, 3.17.0 on fewer, 3.17.5 only on none; checkLockSyncedSlaves=false never', () => {
    const two = (acks: number) => (c: string[]) => (c[0] === 'WAIT' ? acks : null);
    const outcome = (version: string, acks: number, check = true) =>
      new Driver(two(acks), { replicated: true, replicas: 2 }).run(syncedEval(config(version, true, { checkSyncedSlaves: check }), ACQUIRE, true)).kind;
    expect([outcome('3.16.7', 1), outcome('3.16.7', 3), outcome('3.16.7', 2)]).toEqual(['no-sync', 'no-sync', 'reply']);
    expect([outcome('3.17.0', 1), outcome('3.17.0', 2), outcome('3.17.0', 1, false)]).toEqual(['no-sync', 'reply', 'reply']);
    expect([outcome('3.17.5', 1), outcome('3.17.5', 0), outcome('3.17.5', 0, false)]).toEqual(['reply', 'no-sync', 'reply']);
  });
});

describe('re-sends after a response timeout (RedisExecutor)', () => {
  const silent = (): undefined => undefined;
  const resends = (version: string, over: Partial<RedissonConfig> = {}, random = 0.5) => {
    const d = new Driver(silent, { replicated: false, random });
    const r = d.run(send(config(version, false, over), [['PING']], { retry: true, timeoutUs: 3_000_000 }));
    return { r, sends: d.sent.length, sleepsMs: d.sleepsMs };
  };

  it('before 3.15.2 a silent server gets 4 sends back to back (given up after 4 x 3 s = 12 s)', () => {
    expect(resends('3.15.1')).toEqual({ r: { timeout: 4 }, sends: 4, sleepsMs: [] });
  });

  it('3.15.2-3.47.0: 4 sends with retryInterval 1.5 s between them (4 x 3 s + 3 x 1.5 s = 16.5 s)', () => {
    expect(resends('3.15.2')).toEqual({ r: { timeout: 4 }, sends: 4, sleepsMs: [1500, 1500, 1500] });
    expect(resends('3.47.0')).toEqual({ r: { timeout: 4 }, sends: 4, sleepsMs: [1500, 1500, 1500] });
  });

  it('3.48.0+: 5 sends with EqualJitterDelay(1 s, 2 s) between them (5 x 3 s + 3.5 to 7 s)', () => {
    expect(resends('4.7.0', {}, 0)).toEqual({ r: { timeout: 5 }, sends: 5, sleepsMs: [500, 1000, 1000, 1000] });
    expect(resends('4.7.0', {}, 0.9999)).toEqual({ r: { timeout: 5 }, sends: 5, sleepsMs: [1000, 2000, 2000, 2000] });
  });

  it('command-retries and command-retry-interval override the version', () => {
    expect(resends('4.7.0', { retryAttempts: 0 })).toEqual({ r: { timeout: 1 }, sends: 1, sleepsMs: [] });
    expect(resends('4.7.0', { retryAttempts: 2, retryDelay: { kind: 'constant', ms: 200 } })).toEqual({ r: { timeout: 3 }, sends: 3, sleepsMs: [200, 200] });
  });

  it('a batch whose EVAL answered but whose WAIT did not re-sends WAIT alone (RedisCommonBatchExecutor skips done commands)', () => {
    let waits = 0;
    const d = new Driver((c) => (c[0] === 'WAIT' ? (++waits > 1 ? 1 : undefined) : null), { replicated: true });
    const r = d.run(send(config('4.7.0', true), [ACQUIRE, ['WAIT', '1', '1000']], { retry: true, timeoutUs: 4_000_000 }));
    expect(r).toEqual({ replies: [null, 1] });
    expect(d.sent).toEqual(['EVAL lock:stock:1 | WAIT 1 1000', 'WAIT 1 1000']);
  });
});

/** A Redisson variant of `version` on a Sentinel deployment, with `extra` variant options. */
const sentinelVariant = (version: string, extra = '') =>
  parseScenario(`name: t
duration: 1s
stock: { sku: 1, available: 1 }
workload: { arrival: 1/s }
redis: { topology: sentinel }
variants:
  v: { lock: redisson, redisson-version: "${version}"${extra} }
`, 't.yaml').variants[0];
const lock = (): LockHandle => ({ key: 'lock:stock:1', token: 'uuid:r1', threadOwner: 'uuid:57', leaseMs: null, fence: null });

describe('acquire: give-back and re-runs after "None of slaves were synced"', () => {
  const params = (version: string) => sentinelVariant(version);

  /**
   * The acquire against a primary (Redis 7.2+: WAITAOF known) whose replica never
   * acknowledges: what it sends, how long it pauses, what it returns.
   */
  const acquire = (version: string) => {
    const d = new Driver((c) => (c[0] === 'WAIT' ? 0 : c[0] === 'WAITAOF' ? [0, 0] : c[0] === 'INFO' ? info(1) : c[0] === 'DEL' ? 1 : c[3] === 'lock:stock:1' && c[1] === redissonAcquire.lua ? null : 1), { replicated: true, random: 0 });
    const result = d.run(redisson.acquire(lock(), params(version)));
    return { result, sent: d.sent, sleepsMs: d.sleepsMs };
  };

  it('3.20.0 gives the lock back once and fails', () => {
    const a = acquire('3.20.0');
    expect(a.result).toEqual({ acquired: false, reason: 'error', detail: 'None of slaves were synced; lock given back' });
    expect(a.sent).toEqual(['INFO replication', 'EVAL lock:stock:1 | WAIT 1 1000', 'INFO replication', 'EVAL lock:stock:1 | WAIT 1 1000']);
  });

  it('3.21.0-3.24.x give back and run the whole acquire 3 more times, 1.5 s apart', () => {
    const a = acquire('3.24.3');
    expect(a.result).toEqual({ acquired: false, reason: 'error', detail: 'None of slaves were synced; lock given back' });
    expect(a.sleepsMs).toEqual([1500, 1500, 1500]);
    // Each run: INFO, the acquire batch, INFO, the give-back batch.
    expect(a.sent.filter((s) => s.startsWith('EVAL'))).toHaveLength(8);
  });

  it('3.25.0-3.46.x neither give back nor run again: the lock taken stays held (an unknown outcome)', () => {
    const a = acquire('3.25.0');
    expect(a.result).toEqual({
      acquired: false,
      reason: 'unknown',
      detail: 'None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.; the lock taken stays held',
    });
    expect(a.sent).toEqual(['INFO replication', 'EVAL lock:stock:1 | WAIT 1 1000']);
  });

  it('3.47.0 gives back and runs again (3 times, 1.5 s apart), 4.7.0 4 times with retryDelay', () => {
    const old = acquire('3.47.0');
    expect(old.result).toMatchObject({ acquired: false, reason: 'error', detail: expect.stringMatching(/; lock given back$/) });
    expect(old.sleepsMs).toEqual([1500, 1500, 1500]);
    const now = acquire('4.7.0');
    expect(now.result).toMatchObject({ acquired: false, reason: 'error' });
    expect(now.sleepsMs).toEqual([1000, 1000, 1000, 1000]);
    expect(now.sent.filter((s) => s.startsWith('EVAL lock:stock:1 | WAIT'))).toHaveLength(10);
  });
});

describe('unlock run again after "None of slaves were synced" (its script had run)', () => {
  const params = (version: string) => sentinelVariant(version);

  /** A primary holding the lock, with latches; the first unlock's WAIT answers 0, later ones 1. */
  const release = (version: string) => {
    let held = true;
    let waits = 0;
    const latches = new Map<string, number>();
    const d = new Driver((c) => {
      if (c[0] === 'WAIT') return c[1] === '0' ? 0 : ++waits === 1 ? 0 : 1;
      if (c[0] === 'WAITAOF') return [0, 0];
      if (c[0] === 'INFO') return info(1);
      if (c[0] === 'DEL') return 1;
      const latch = c[5];
      if (latches.has(latch)) return latches.get(latch) ?? null;
      if (!held) return null;
      held = false;
      latches.set(latch, 1);
      return 1;
    }, { replicated: true, random: 0 });
    return d.run(redisson.release({ key: 'lock:stock:1', token: 'uuid:r1', threadOwner: 'uuid:57', leaseMs: 30_000, fence: null }, params(version)));
  };

  it('3.47.0-3.51.0: the re-run carries a new request id, finds no lock and no latch: IllegalMonitorStateException', () => {
    expect(release('3.47.0')).toEqual({ released: false, reason: 'not-held', detail: 'IllegalMonitorStateException: not locked by current thread' });
  });

  it('3.52.0+: the re-run keeps its request id and reads the first run\'s result from its latch', () => {
    expect(release('3.52.0')).toEqual({ released: true });
  });
});

describe('acquire: a try whose sends are known goes out in place, as syncedEval sends it', () => {
  const params = (version: string, wait: string) => sentinelVariant(version, `, wait: ${wait}`);
  /** A primary with one acknowledging replica where the lock is held (PTTL 900) for the first `busyTries` acquire scripts. */
  const holder = (busyTries: number) => {
    let tries = 0;
    return (c: string[]): RedisReply | undefined => {
      if (c[1] === redissonAcquire.lua) return ++tries <= busyTries ? 900 : null;
      return primary(1)(c);
    };
  };

  it('knownSync: nothing known before the probe and INFO (4.7.0), the cached count after; a single server or no WAIT: the script alone', () => {
    const c = config('4.7.0', true);
    expect(knownSync(c)).toBe(SYNC_UNKNOWN);
    new Driver(primary(1), { replicated: true }).run(syncedEval(c, ACQUIRE, false));
    expect(knownSync(c)).toBe(1);
    expect(knownSync(config('4.7.0', false))).toBe(SYNC_SINGLE);
    expect(knownSync(config('3.12.4', true))).toBe(SYNC_SINGLE);
    // 3.12.5-3.18.0 ask the client's view of the replicas at every call: never known ahead.
    expect(knownSync(config('3.16.1', true))).toBe(SYNC_UNKNOWN);
  });

  it('4.7.0 with a wait budget: busy twice, subscribed after the first try, taken at the third after an unlock message; unsubscribed once', () => {
    const d = new Driver(holder(2), { replicated: true });
    expect(d.run(redisson.acquire(lock(), params('4.7.0', '5s')))).toEqual({ acquired: true });
    expect(d.sent).toEqual(['WAIT 0 0 | WAITAOF 0 0 0', 'INFO all', 'EVAL lock:stock:1 | WAIT 1 1000', 'EVAL lock:stock:1 | WAIT 1 1000', 'EVAL lock:stock:1 | WAIT 1 1000']);
    expect(d.pubsub).toEqual(['subscribe redisson_lock__channel:{lock:stock:1}', 'await 900', 'unsubscribe redisson_lock__channel:{lock:stock:1}']);
  });

  it('4.7.0 without a wait budget: one busy try and no subscription', () => {
    const d = new Driver(holder(2), { replicated: true });
    expect(d.run(redisson.acquire(lock(), params('4.7.0', '0s')))).toEqual({ acquired: false, reason: 'busy', detail: 'held by another' });
    expect(d.sent).toEqual(['WAIT 0 0 | WAITAOF 0 0 0', 'INFO all', 'EVAL lock:stock:1 | WAIT 1 1000']);
    expect(d.pubsub).toEqual([]);
  });

  it('3.12.4 (no WAIT): a try whose script went unanswered is re-sent at once, up to 3 more times, and fails as a timeout', () => {
    const d = new Driver((c) => (c[1] === redissonAcquire.lua ? undefined : 1), { replicated: true });
    expect(d.run(redisson.acquire(lock(), params('3.12.4', '5s')))).toEqual({ acquired: false, reason: 'timeout', detail: 'no reply after 4 sends (RedisResponseTimeoutException)' });
    expect(d.sent).toEqual(['EVAL lock:stock:1', 'EVAL lock:stock:1', 'EVAL lock:stock:1', 'EVAL lock:stock:1']);
    expect(d.sleepsMs).toEqual([]);
  });

  it('3.12.4 (no WAIT): an answered try is sent once', () => {
    const d = new Driver((c) => (c[1] === redissonAcquire.lua ? null : 1), { replicated: true });
    expect(d.run(redisson.acquire(lock(), params('3.12.4', '5s')))).toEqual({ acquired: true });
    expect(d.sent).toEqual(['EVAL lock:stock:1']);
  });
});
