/**
 * Redisson's RReadWriteLock scripts (variants/locks/redisson/read-write-scripts.ts), every era
 * of each, sent as the model sends them (read-write-commands.ts) on the model's Lua VM and on a
 * real redis-server 7: readers sharing, a writer refused (its reply a PTTL) and let in after
 * the last reader, the writer's own thread reading under its write lock, an unlock by a thread
 * that holds nothing, an unlock on a missing hash, the renewals (per lock before 3.44.0; the
 * shared ReadLockTask from 3.44.0 with two names in one chunk, where 3.44.0 .. 3.52.0 renew
 * only the first name's timeout keys and a re-entered reader makes the script fail), and the
 * read unlock that deletes the hash under a reader whose timeout key is gone. Leases are 90,
 * 150 and 210 s, so no key expires during a sequence; an expired timeout key is a DEL.
 */
import { expect, it } from 'vitest';
import {
  readAcquireCommand,
  readLockTaskCommand,
  readRenewCommand,
  readUnlockCommand,
  rwLatchOf,
  writeAcquireCommand,
  writeUnlockCommand,
  type UnlockLatch,
} from '../../src/variants/locks/redisson/read-write-commands.js';
import { rwChannelOf, rwTimeoutPrefixOf } from '../../src/variants/locks/redisson/read-write-scripts.js';
import { atLeastVersion } from '../../src/variants/locks/redisson/semaphore-scripts.js';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

/** A version in each era of every script (the first tag of each, and the last modelled). */
const VERSIONS = ['3.11.0', '3.11.1', '3.17.1', '3.22.0', '3.24.0', '3.44.0', '3.52.0', '4.0.0', '4.4.0', '4.7.0'];

const N = 'rw';
const M = 'rw2';
const A = 'uuid-a:1';
const B = 'uuid-b:7';
const L1 = 90_000;
const L2 = 150_000;
const L3 = 210_000;

const step = (args: string[], tol?: 'ms'): Step => (tol ? { args, tol } : { args });
const timeoutKey = (name: string, lockName: string, n: number): string => `${rwTimeoutPrefixOf(name, lockName)}:${n}`;

function latchFor(version: string, id: string): UnlockLatch | null {
  return atLeastVersion(version, '3.24.0') ? { key: rwLatchOf(N, id), ms: 90_000 } : null;
}

/** The keys a sequence names, so the harness compares each after every step. */
const KEYS = [N, M, timeoutKey(N, A, 1), timeoutKey(N, A, 2), timeoutKey(N, B, 1), timeoutKey(M, B, 1), timeoutKey(M, A, 1), rwLatchOf(N, 'u1'), rwLatchOf(N, 'u2'), rwLatchOf(N, 'u3'), 'str'];

function sharing(v: string): Step[] {
  return [
    step(readAcquireCommand(v, N, L1, A)),
    step(readAcquireCommand(v, N, L2, B)),
    // A writer of another thread is refused with the hash's PTTL.
    step(writeAcquireCommand(v, N, L1, 'uuid-c:3'), 'ms'),
    step(['HGETALL', N]),
    step(readUnlockCommand(v, N, A, latchFor(v, 'u1'))),
    step(readUnlockCommand(v, N, A, latchFor(v, 'u2'))),
    step(readUnlockCommand(v, N, B, latchFor(v, 'u3'))),
    step(writeAcquireCommand(v, N, L3, 'uuid-c:3')),
    // A reader is refused while the writer holds; the writer's own thread reads under it.
    step(readAcquireCommand(v, N, L1, A), 'ms'),
    step(readAcquireCommand(v, N, L2, 'uuid-c:3')),
    step(writeUnlockCommand(v, N, L3, 'uuid-c:3', latchFor(v, 'w1'))),
    step(['HGETALL', N]),
    // Unlocks of a hash that is gone.
    step(['DEL', N]),
    step(readUnlockCommand(v, N, A, latchFor(v, 'w2'))),
    step(writeUnlockCommand(v, N, L1, A, latchFor(v, 'w3'))),
    step(['SET', 'str', 'x']),
    step(readAcquireCommand(v, 'str', L1, A)),
  ];
}

/** A reader whose timeout key is gone: the other reader's unlock deletes the hash (mode read) or keeps it for the live one. */
function expiredTimeoutKey(v: string): Step[] {
  return [
    step(readAcquireCommand(v, N, L1, A)),
    step(readAcquireCommand(v, N, L2, B)),
    step(['DEL', timeoutKey(N, B, 1)]),
    step(readUnlockCommand(v, N, A, latchFor(v, 'u1'))),
    step(['EXISTS', N]),
    step(readAcquireCommand(v, N, L1, A)),
    step(readAcquireCommand(v, N, L2, B)),
    step(['DEL', timeoutKey(N, A, 1)]),
    step(readUnlockCommand(v, N, B, latchFor(v, 'u2'))),
  ];
}

/** The watchdog's renewal of read locks: two names held in one client (the second by thread B only), then a re-entered reader. */
function renewal(v: string): Step[] {
  const renew = (): Step => atLeastVersion(v, '3.44.0')
    ? step(readLockTaskCommand(v, L3, [{ name: N, lockNames: [A, B] }, { name: M, lockNames: [B] }]))
    : step(readRenewCommand(v, M, L3, B));
  return [
    step(readAcquireCommand(v, N, L1, A)),
    step(readAcquireCommand(v, N, L1, B)),
    step(readAcquireCommand(v, M, L1, B)),
    atLeastVersion(v, '3.44.0') ? renew() : step(readRenewCommand(v, N, L3, A)),
    renew(),
    step(['PTTL', timeoutKey(M, B, 1)], 'ms'),
    step(['PTTL', timeoutKey(N, B, 1)], 'ms'),
    // B re-enters N: entry 2 (the 3.44.0 .. 3.52.0 script looks for KEYS[3] .. ':' for it).
    step(readAcquireCommand(v, N, L1, B)),
    renew(),
    step(['PTTL', timeoutKey(N, B, 2)], 'ms'),
    // A foreign client's reader: renewed by every client's watchdog until 4.4.0.
    step(readAcquireCommand(v, M, L1, A)),
    renew(),
    step(['PTTL', timeoutKey(M, A, 1)], 'ms'),
    // A name whose hash is gone answers 0.
    step(['DEL', N]),
    renew(),
  ];
}

const CASES: Array<[string, Step[]]> = VERSIONS.flatMap((v): Array<[string, Step[]]> => [
  [`${v}: readers share, a writer waits for the last, the writer's thread reads under it, unlocks of nothing`, sharing(v)],
  [`${v}: an unlock beside a reader whose timeout key expired`, expiredTimeoutKey(v)],
  [`${v}: the watchdog's renewal of read locks`, renewal(v)],
]);

withRealRedis('the model against redis-server 7: Redisson RReadWriteLock scripts', (conformance) => {
  for (const [title, steps] of CASES) {
    it(title, async () => {
      expect(await conformance().run(steps, [...KEYS, rwChannelOf(N), rwLatchOf(N, 'w1'), rwLatchOf(N, 'w2'), rwLatchOf(N, 'w3')])).toEqual([]);
    });
  }
});
