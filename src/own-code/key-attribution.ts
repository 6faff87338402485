/**
 * Which Redis keys a run's lock-key metrics read (lock lost, foreign unlocks, stuck and orphan
 * time): the server's key-state facts carry a request's key (`lock:<sku>`). A user module whose
 * library stores the lock under another name declares it: `lock: { module, keys: 'mutex:{key}' }`
 * (redis-semaphore 5.8.0 lib/RedisMutex.ts and RedlockMutex.ts: `mutex:${key}`). A Redis key
 * that fits one of the patterns is attributed to the request key in its `{key}` place; other
 * keys are not lock keys. Without `keys`, the pattern is `{key}`: the key itself. A pattern
 * matches whole keys: its `{key}` place holds a whole request key, nothing more.
 */
import { LOCK_KEY_NAMESPACE } from '../variants/lock-key.js';

/** The placeholder a pattern holds once. */
export const KEY_PLACEHOLDER = '{key}';
/** A problem with a pattern, or null when it is usable. */
export function keyPatternProblem(pattern: string): string | null {
  const first = pattern.indexOf(KEY_PLACEHOLDER);
  if (first === -1 || pattern.indexOf(KEY_PLACEHOLDER, first + 1) !== -1) {
    return `a key pattern holds ${KEY_PLACEHOLDER} exactly once, where the request's key goes (e.g. "mutex:${KEY_PLACEHOLDER}"); got ${JSON.stringify(pattern)}`;
  }
  return null;
}

/**
 * The request's lock key a Redis key stands for, or null when it is no lock key. With
 * `requestKeys` (the run's lock keys: variants/lock-key.ts lockKeyOf of each sku), a
 * pattern matches whole keys only: its `{key}` place must hold one of them exactly, so a
 * library's side keys that merely start with a lock key (a FIFO lock's
 * `lock:stock:1:next-id` counter, a queue, a fencing counter) are no lock keys. Without it,
 * any key that starts with `lock:` in that place counts (the real backend's key watch, which
 * reads the server's keys as they come).
 */
export function lockKeyAttribution(patterns: readonly string[] | null, requestKeys?: ReadonlySet<string>): (redisKey: string) => string | null {
  const isRequestKey = requestKeys ? (inner: string): boolean => requestKeys.has(inner) : (inner: string): boolean => inner.startsWith(LOCK_KEY_NAMESPACE);
  const parts = (patterns ?? [KEY_PLACEHOLDER]).map((p) => {
    const at = p.indexOf(KEY_PLACEHOLDER);
    return { prefix: p.slice(0, at), suffix: p.slice(at + KEY_PLACEHOLDER.length) };
  });
  if (parts.length === 1 && parts[0].prefix === '' && parts[0].suffix === '') {
    return (key) => (isRequestKey(key) ? key : null);
  }
  return (key) => {
    for (const { prefix, suffix } of parts) {
      if (key.length < prefix.length + suffix.length || !key.startsWith(prefix) || !key.endsWith(suffix)) continue;
      const inner = key.slice(prefix.length, key.length - suffix.length);
      if (isRequestKey(inner)) return inner;
    }
    return null;
  };
}

/**
 * Whether argument `i` of `command` is one of the keys commandKeys names, without making the
 * list (the attribution's hot path: most commands name nothing new). The same rules as
 * commandKeys, kept in step by a property test (test/own-code/key-attribution.test.ts).
 */
export function isKeyArgument(command: readonly string[], i: number): boolean {
  if (i < 1 || i >= command.length) return false;
  switch (command[0].toUpperCase()) {
    case 'EVAL': case 'EVALSHA': case 'EVAL_RO': case 'EVALSHA_RO': case 'FCALL': case 'FCALL_RO': {
      const n = Number(command[2]);
      return Number.isInteger(n) && n > 0 && i >= 3 && i < 3 + n;
    }
    case 'DEL': case 'UNLINK': case 'EXISTS': case 'MGET': case 'WATCH': case 'TOUCH':
      return true;
    case 'MSET': case 'MSETNX':
      return (i - 1) % 2 === 0;
    case 'BLPOP': case 'BRPOP': case 'BZPOPMIN': case 'BZPOPMAX':
      return i < command.length - 1;
    case 'PUBLISH': case 'SPUBLISH': case 'PING': case 'ECHO': case 'INFO': case 'SCRIPT': case 'CLIENT': case 'WAIT': case 'TIME':
    case 'DBSIZE': case 'MULTI': case 'EXEC': case 'DISCARD': case 'UNWATCH': case 'SCAN': case 'KEYS': case 'SUBSCRIBE': case 'PSUBSCRIBE':
    case 'UNSUBSCRIBE': case 'PUNSUBSCRIBE': case 'SELECT': case 'QUIT': case 'HELLO': case 'AUTH': case 'FLUSHALL': case 'FLUSHDB':
      return false;
    default:
      return i === 1;
  }
}

/**
 * The Redis keys a command names, as Redis reads its arguments (redis 7.0.15 command table
 * key specs, for the commands a lock library sends): EVAL/EVALSHA/FCALL (and their _RO forms)
 * numkeys then the keys; DEL, UNLINK, EXISTS, MGET, WATCH, TOUCH every argument; MSET, MSETNX
 * every other one; BLPOP/BRPOP/BZPOPMIN/BZPOPMAX all but the timeout; commands without a key
 * (PUBLISH, PING, INFO, SCRIPT, CLIENT, WAIT, ...) none; any other its first argument.
 */
export function commandKeys(command: readonly string[]): readonly string[] {
  const name = (command[0] ?? '').toUpperCase();
  switch (name) {
    case 'EVAL': case 'EVALSHA': case 'EVAL_RO': case 'EVALSHA_RO': case 'FCALL': case 'FCALL_RO': {
      const n = Number(command[2]);
      return Number.isInteger(n) && n > 0 ? command.slice(3, 3 + n) : [];
    }
    case 'DEL': case 'UNLINK': case 'EXISTS': case 'MGET': case 'WATCH': case 'TOUCH':
      return command.slice(1);
    case 'MSET': case 'MSETNX':
      return command.slice(1).filter((_, i) => i % 2 === 0);
    case 'BLPOP': case 'BRPOP': case 'BZPOPMIN': case 'BZPOPMAX':
      return command.slice(1, -1);
    case 'PUBLISH': case 'SPUBLISH': case 'PING': case 'ECHO': case 'INFO': case 'SCRIPT': case 'CLIENT': case 'WAIT': case 'TIME':
    case 'DBSIZE': case 'MULTI': case 'EXEC': case 'DISCARD': case 'UNWATCH': case 'SCAN': case 'KEYS': case 'SUBSCRIBE': case 'PSUBSCRIBE':
    case 'UNSUBSCRIBE': case 'PUNSUBSCRIBE': case 'SELECT': case 'QUIT': case 'HELLO': case 'AUTH': case 'FLUSHALL': case 'FLUSHDB':
      return [];
    default:
      return command.length > 1 ? command.slice(1, 2) : [];
  }
}
