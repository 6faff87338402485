/** Lock protocols and guards by name: what scenario files may name. */
import type { Guard } from './guard.js';
import { conditionalGuard, decrementGuard, fencedWriteGuard, forUpdateGuard, noGuard, versionCasGuard } from './guard.js';
import type { LockProtocol } from './lock-protocol.js';
import { fenced } from './locks/fenced.js';
import { noLock } from './locks/none.js';
import { redisson } from './locks/redisson.js';
import { redissonFair } from './locks/redisson-fair.js';
import { redissonFenced } from './locks/redisson-fenced.js';
import { redissonMulti } from './locks/redisson-multi.js';
import { redissonReadWrite } from './locks/redisson-read-write.js';
import { redissonPermitExpirableSemaphore, redissonSemaphore } from './locks/redisson-semaphore.js';
import { redlock } from './locks/redlock.js';
import { setNxPx } from './locks/set-nx-px.js';
import { setnxExpire } from './locks/setnx-expire.js';
import { delexUnlock, delifeqUnlock, luaUnlock, tokenGetDel } from './locks/token-lock.js';
import { ifeqExtend, luaExtend } from './locks/token-watchdog.js';

export const LOCKS: ReadonlyMap<string, LockProtocol> = new Map(
  [noLock, setnxExpire, setNxPx, tokenGetDel, luaUnlock, delexUnlock, delifeqUnlock, luaExtend, ifeqExtend, redisson, redlock, fenced, redissonSemaphore, redissonPermitExpirableSemaphore, redissonFair, redissonFenced, redissonMulti, redissonReadWrite].map((l) => [l.name, l]),
);

export const GUARDS: ReadonlyMap<string, Guard> = new Map(
  [noGuard, decrementGuard, conditionalGuard, versionCasGuard, forUpdateGuard, fencedWriteGuard].map((g) => [g.name, g]),
);

export const LOCK_NAMES = [...LOCKS.keys()];
export const GUARD_NAMES = [...GUARDS.keys()];
