/**
 * The watchdog of read locks from 3.44.0: LockRenewalScheduler.renewReadLock hands every read
 * lock of a client to one ReadLockTask (renewal/LockRenewalScheduler.java, ReadLockTask.java,
 * ReadLockEntry.java, RenewalTask.java @ redisson-3.44.0 .. 4.7.0), a timer of its own beside
 * the LockTask that renews RLocks and write locks (renewal.ts). Every lockWatchdogTimeout / 3
 * it renews its names in chunks of lockWatchdogBatchSize (100) in one script each
 * (READ_LOCK_TASK, whose text by version says what is renewed: in 3.44.0 .. 3.52.0 only the
 * first name's timeout keys); a name the script finds gone leaves the task (its first thread
 * up to 4.3.x, every thread sent from 4.4.0); an error is logged and the timer goes on.
 *
 * Names are renewed in the order they were first taken, where RenewalTask iterates a
 * ConcurrentHashMap's keys (hash order): which name of a chunk comes first differs, not that
 * only one does.
 */
import { clientStateEffect, note, sleep, spawn, type EffectProgram } from '../../../world/effects.js';
import { isErrorReply } from '../../../world/redis/reply.js';
import { syncedEval, type RedissonConfig } from './executor.js';
import { readLockTaskCommand } from './read-write-commands.js';
import { RenewalEntry } from './renewal.js';
import { atLeastVersion } from './semaphore-scripts.js';

/** Config.lockWatchdogBatchSize (3.44+): names renewed per script. */
const LOCK_WATCHDOG_BATCH_SIZE = 100;

/** ReadLockTask's state: name2entry and its `running` flag. */
class ReadLockTask {
  running = false;
  readonly entries = new Map<string, RenewalEntry>();
}

const newTask = (): ReadLockTask => new ReadLockTask();
const READ_LOCK_TASK = clientStateEffect('redisson/read-lock-task', newTask);

/** renewReadLock: the read lock was taken without a lease. */
export function* scheduleReadRenewal(config: RedissonConfig, version: string, key: string, owner: string, request: string): EffectProgram<void> {
  const task = (yield READ_LOCK_TASK) as ReadLockTask;
  const old = task.entries.get(key);
  if (old) return old.add(owner, request);
  const entry = new RenewalEntry();
  entry.add(owner, request);
  task.entries.set(key, entry);
  if (!task.running) {
    task.running = true;
    yield spawn('redisson-read-lock-renewal', () => timer(config, version, task), true);
  }
}

/** cancelReadLockRenewal(name, threadId), after every unlock of a read lock. */
export function* cancelReadRenewal(key: string, owner: string): EffectProgram<void> {
  cancel((yield READ_LOCK_TASK) as ReadLockTask, key, owner);
}

function cancel(task: ReadLockTask, key: string, owner: string): void {
  const entry = task.entries.get(key);
  if (!entry) return;
  entry.remove(owner);
  if (entry.threads.size > 0) return;
  task.entries.delete(key);
  if (task.entries.size === 0) task.running = false;
}

/** RenewalTask.run: renew everything, then schedule again while running (after an error too). */
function* timer(config: RedissonConfig, version: string, task: ReadLockTask): EffectProgram<void> {
  for (;;) {
    yield sleep(Math.floor(config.lockWatchdogTimeoutMs / 3) * 1000);
    yield* renewAll(config, version, task);
    if (!task.running) return;
  }
}

function* renewAll(config: RedissonConfig, version: string, task: ReadLockTask): EffectProgram<void> {
  // From 4.4.0 every holding thread's lock name is sent, and every one is cancelled when its name is gone.
  const perThread = atLeastVersion(version, '4.4.0');
  const names = [...task.entries.keys()];
  for (let i = 0; i < names.length; i += LOCK_WATCHDOG_BATCH_SIZE) {
    const chunk: Array<{ name: string; lockNames: string[]; requests: string[] }> = [];
    for (const name of names.slice(i, i + LOCK_WATCHDOG_BATCH_SIZE)) {
      const entry = task.entries.get(name);
      if (!entry || entry.threads.size === 0) continue;
      const threads = [...entry.threads.entries()];
      chunk.push({ name, lockNames: threads.map(([owner]) => owner), requests: threads.map(([, t]) => t.request) });
    }
    if (chunk.length === 0) continue;
    const r = yield* syncedEval(config, readLockTaskCommand(version, config.lockWatchdogTimeoutMs, chunk), true);
    const error = r.kind === 'timeout' ? `renewal timed out (${r.sends} sends)` : r.kind === 'no-sync' ? r.message : isErrorReply(r.reply) ? r.reply.message : null;
    if (error !== null) {
      // "Can't update locks ... expiration": logged, and the timer goes on.
      for (const c of chunk) yield note('renew', false, `${error}; the read-lock timer keeps renewing`, c.requests[0]);
      continue;
    }
    const results = r.kind === 'reply' && Array.isArray(r.reply) ? r.reply : [];
    for (const [j, c] of chunk.entries()) {
      if (results[j] === 1) {
        // 3.44.0 .. 3.52.0: past the chunk's first name, the inner loop's `i` names the first name's prefix.
        const shadowed = j > 0 && !atLeastVersion(version, '4.0.0');
        const what = shadowed
          ? `ReadLockTask renewed the hash of ${c.name} to ${config.lockWatchdogTimeoutMs}ms, not its readers' timeout keys (the script's inner loop reuses i and renews ${chunk[0].name}'s prefix instead)`
          : `ReadLockTask renewed the read lock to ${config.lockWatchdogTimeoutMs}ms`;
        for (const request of c.requests) yield note('renew', true, what, request);
        continue;
      }
      yield note('renew', false, 'read lock no longer held; its renewal ends (the thread is not told)', c.requests[0]);
      for (const owner of perThread ? c.lockNames : c.lockNames.slice(0, 1)) cancel(task, c.name, owner);
    }
  }
}
