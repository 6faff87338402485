/**
 * Redisson's watchdog: the lease of a lock taken without one is renewed to
 * lockWatchdogTimeout (lock-watchdog-timeout, default 30 s) every third of it (10 s), by one
 * of two designs (versions.ts):
 * - per lock (3.x up to 3.43): a map per client (EXPIRATION_RENEWAL_MAP, keyed by lock name)
 *   holds an entry with the threads holding that name and one timer; each renewal re-arms
 *   the timer (RedissonLock / RedissonBaseLock renewExpiration, scheduleExpirationRenewal,
 *   cancelExpirationRenewal);
 * - shared (3.44+): one timer per client renews every lock in one script and re-arms after
 *   success and error alike (renewal/LockRenewalScheduler, RenewalTask, LockTask).
 * Both keep their state in the client process (a static map), so it outlives the request
 * that created it: an entry left behind (3.11's leak) silences the watchdog of every later
 * lock of that name in that client.
 */
import { cancel, clientStateEffect, note, sleep, spawn, type EffectProgram } from '../../../world/effects.js';
import { isErrorReply } from '../../../world/redis/reply.js';
import { redissonRenew, redissonRenewMany } from '../../../world/redis/scripts.js';
import { syncedEval, type Outcome, type RedissonConfig } from './executor.js';

/**
 * The renewal period: lockWatchdogTimeout / 3 in whole ms, a long division (RedissonLock
 * renewExpiration `internalLockLeaseTime / 3` @ redisson-3.11.5; renewal/RenewalTask.java
 * schedule @ redisson-3.44.0 and 4.7.0).
 */
const renewEveryUs = (config: RedissonConfig): number => Math.floor(config.lockWatchdogTimeoutMs / 3) * 1000;
/** Config.lockWatchdogBatchSize (3.44+): locks renewed per script. */
const LOCK_WATCHDOG_BATCH_SIZE = 100;

/**
 * The renewal command of the lock object that made an entry (its renewExpirationAsync): RLock's
 * by default; RedissonReadLock's renews its readers' timeout keys too (redisson-read-write.ts).
 */
export type RenewCommand = (key: string, owner: string, leaseMs: number) => string[];

/** A lock name's holders in this client: thread -> re-entries, in arrival order (a LinkedHashMap). */
export class RenewalEntry {
  readonly threads = new Map<string, { count: number; request: string }>();
  /** The renewal of the lock object that made the entry (null: RLock's). */
  renew: RenewCommand | null = null;
  /** The armed timer of the per-lock design; `firing` while its renewal is in flight. */
  timer: { handle: number; firing: boolean } | null = null;

  add(owner: string, request: string): void {
    const t = this.threads.get(owner);
    if (t) {
      t.count++;
      t.request = request;
    } else this.threads.set(owner, { count: 1, request });
  }

  remove(owner: string): void {
    const t = this.threads.get(owner);
    if (!t) return;
    if (--t.count === 0) this.threads.delete(owner);
  }

  /** getFirstThreadId: the thread the renewal is sent for. */
  first(): { owner: string; request: string } | null {
    for (const [owner, t] of this.threads) return { owner, request: t.request };
    return null;
  }
}

/** The shared design's state: LockTask's name2entry and its `running` flag. */
class SharedRenewal {
  running = false;
  readonly entries = new Map<string, RenewalEntry>();
}

const newPerLockMap = (): Map<string, RenewalEntry> => new Map();
const newSharedRenewal = (): SharedRenewal => new SharedRenewal();
const PER_LOCK_MAP = clientStateEffect('redisson/expiration-renewal-map', newPerLockMap);
const SHARED_RENEWAL = clientStateEffect('redisson/lock-renewal-scheduler', newSharedRenewal);

/** Why a renewal failed, or null when it got a reply. */
function failure(r: Outcome): string | null {
  if (r.kind === 'timeout') return `renewal timed out (${r.sends} sends)`;
  if (r.kind === 'no-sync') return r.message;
  return isErrorReply(r.reply) ? r.reply.message : null;
}

/**
 * scheduleExpirationRenewal: the lock was taken without a lease. `renew`: the per-lock design's
 * renewal when the lock object that makes the entry is not an RLock (3.x keys EXPIRATION_RENEWAL_MAP
 * by name alone, so the first lock object of a name decides how every renewal of it is sent).
 */
export function* scheduleRenewal(config: RedissonConfig, key: string, owner: string, request: string, renew: RenewCommand | null = null): EffectProgram<void> {
  if (config.b.renewal === 'shared') {
    const shared = (yield SHARED_RENEWAL) as SharedRenewal;
    const old = shared.entries.get(key);
    if (old) return old.add(owner, request);
    const entry = new RenewalEntry();
    entry.add(owner, request);
    shared.entries.set(key, entry);
    if (!shared.running) {
      shared.running = true;
      yield spawn('redisson-renewal', () => sharedTimer(config, shared), true);
    }
    return;
  }
  const map = (yield PER_LOCK_MAP) as Map<string, RenewalEntry>;
  const old = map.get(key);
  // An entry already there (held by another thread of this client, or left behind) gets the
  // thread added and no timer of its own.
  if (old) return old.add(owner, request);
  const entry = new RenewalEntry();
  entry.add(owner, request);
  entry.renew = renew;
  map.set(key, entry);
  yield* renewExpiration(config, map, key);
}

/** cancelExpirationRenewal(threadId): `owner` null drops the whole entry. */
export function* cancelRenewal(config: RedissonConfig, key: string, owner: string | null): EffectProgram<void> {
  if (config.b.renewal === 'shared') return cancelShared((yield SHARED_RENEWAL) as SharedRenewal, key, owner);
  const map = (yield PER_LOCK_MAP) as Map<string, RenewalEntry>;
  const task = map.get(key);
  if (!task) return;
  if (owner !== null) task.remove(owner);
  if (owner !== null && task.threads.size > 0) return;
  // Timeout.cancel(): no effect on a timer that already fired (its renewal is in flight).
  if (task.timer && !task.timer.firing) yield cancel(task.timer.handle);
  map.delete(key);
}

/** renewExpiration: arms a timer on the entry now under `key`, if any. */
function* renewExpiration(config: RedissonConfig, map: Map<string, RenewalEntry>, key: string): EffectProgram<void> {
  const entry = map.get(key);
  if (!entry) return;
  const timer = { handle: 0, firing: false };
  entry.timer = timer;
  timer.handle = (yield spawn('watchdog', () => perLockTimer(config, map, key, timer))) as number;
}

/** One timer chain of the per-lock design: fire, renew for the first thread, re-arm. */
function* perLockTimer(config: RedissonConfig, map: Map<string, RenewalEntry>, key: string, timer: { handle: number; firing: boolean }): EffectProgram<void> {
  const lease = String(config.lockWatchdogTimeoutMs);
  for (;;) {
    yield sleep(renewEveryUs(config));
    timer.firing = true;
    const entry = map.get(key);
    const first = entry?.first();
    if (!entry || !first) return;
    const command = entry.renew === null ? ['EVAL', redissonRenew.lua, '1', key, lease, first.owner] : entry.renew(key, first.owner, config.lockWatchdogTimeoutMs);
    const r = yield* syncedEval(config, command, true);
    const error = failure(r);
    if (error !== null) {
      // "Can't update lock expiration": stop for good (3.x); `continue` is a what-if for this design.
      const stops = config.watchdogOnError === 'stop';
      yield note('renew', false, `${error}; watchdog ${stops ? 'stops' : 'keeps renewing'}`, first.request);
      if (stops) {
        if (config.b.renewalErrorRemovesEntry) map.delete(key);
        return;
      }
    } else if (r.kind === 'reply' && r.reply === 1) {
      yield note('renew', true, `renewed to ${lease}ms`, first.request);
    } else {
      yield note('renew', false, 'lock no longer ours; watchdog stops (the thread is not told)', first.request);
      if (config.b.renewalMissRemovesEntry) yield* cancelRenewal(config, key, null);
      return;
    }
    // Re-arm on whatever entry holds the name now (a new one if the lock changed hands here).
    const next = map.get(key);
    if (!next) return;
    timer.firing = false;
    next.timer = timer;
  }
}

function cancelShared(shared: SharedRenewal, key: string, owner: string | null): void {
  const task = shared.entries.get(key);
  if (!task) return;
  if (owner !== null) task.remove(owner);
  if (owner !== null && task.threads.size > 0) return;
  shared.entries.delete(key);
  if (shared.entries.size === 0) shared.running = false;
}

/**
 * RenewalTask: every 10 s renew everything, then re-arm while running. A timer already
 * scheduled when the last lock went keeps its turn: it renews nothing, or the locks taken
 * since, and ends only if it finds the task stopped.
 */
function* sharedTimer(config: RedissonConfig, shared: SharedRenewal): EffectProgram<void> {
  for (;;) {
    yield sleep(renewEveryUs(config));
    yield* renewAll(config, shared);
    if (!shared.running) return;
  }
}

/** LockTask.renew: one script per chunk of locks; a lock found gone leaves the task. */
function* renewAll(config: RedissonConfig, shared: SharedRenewal): EffectProgram<void> {
  const names = [...shared.entries.keys()];
  for (let i = 0; i < names.length; i += LOCK_WATCHDOG_BATCH_SIZE) {
    const chunk: Array<{ key: string; owner: string; request: string }> = [];
    for (const key of names.slice(i, i + LOCK_WATCHDOG_BATCH_SIZE)) {
      const first = shared.entries.get(key)?.first();
      if (first) chunk.push({ key, ...first });
    }
    if (chunk.length === 0) continue;
    const script = ['EVAL', redissonRenewMany.lua, String(chunk.length), ...chunk.map((c) => c.key), String(config.lockWatchdogTimeoutMs), ...chunk.map((c) => c.owner)];
    const r = yield* syncedEval(config, script, true);
    const error = failure(r);
    if (error !== null) {
      // "Can't update locks expiration": logged, and the timer goes on.
      for (const c of chunk) yield note('renew', false, `${error}; the shared timer keeps renewing`, c.request);
      return;
    }
    const results = r.kind === 'reply' && Array.isArray(r.reply) ? r.reply : [];
    for (const [j, c] of chunk.entries()) {
      if (results[j] === 1) {
        yield note('renew', true, `renewed to ${config.lockWatchdogTimeoutMs}ms`, c.request);
      } else {
        yield note('renew', false, 'lock no longer ours; its renewal ends (the thread is not told)', c.request);
        cancelShared(shared, c.key, c.owner);
      }
    }
  }
}
