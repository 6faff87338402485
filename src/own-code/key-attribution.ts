/**
 * Which Redis keys a run's lock-key metrics read (lock lost, foreign unlocks, stuck and orphan
 * time): the server's key-state facts carry a request's key (`lock:<sku>`). A user module whose
 * library stores the lock under another name declares it: `lock: { module, keys: 'mutex:{key}' }`
 * (redis-semaphore 5.8.0 lib/RedisMutex.ts and RedlockMutex.ts: `mutex:${key}`). A Redis key
 * that fits one of the patterns is attributed to the request key in its `{key}` place; other
 * keys are not lock keys. Without `keys`, the pattern is `{key}`: the key itself.
 */

/** The placeholder a pattern holds once. */
export const KEY_PLACEHOLDER = '{key}';
/** What a request's lock key starts with (workload/request-flow.ts lockKeyOf); the real backend's key watch reads the same keys. */
export const LOCK_KEY_PREFIX = 'lock:';

/** A problem with a pattern, or null when it is usable. */
export function keyPatternProblem(pattern: string): string | null {
  const first = pattern.indexOf(KEY_PLACEHOLDER);
  if (first === -1 || pattern.indexOf(KEY_PLACEHOLDER, first + 1) !== -1) {
    return `a key pattern holds ${KEY_PLACEHOLDER} exactly once, where the request's key goes (e.g. "mutex:${KEY_PLACEHOLDER}"); got ${JSON.stringify(pattern)}`;
  }
  return null;
}

/** The request's lock key a Redis key stands for, or null when it is no lock key. */
export function lockKeyAttribution(patterns: readonly string[] | null): (redisKey: string) => string | null {
  const parts = (patterns ?? [KEY_PLACEHOLDER]).map((p) => {
    const at = p.indexOf(KEY_PLACEHOLDER);
    return { prefix: p.slice(0, at), suffix: p.slice(at + KEY_PLACEHOLDER.length) };
  });
  if (parts.length === 1 && parts[0].prefix === '' && parts[0].suffix === '') {
    return (key) => (key.startsWith(LOCK_KEY_PREFIX) ? key : null);
  }
  return (key) => {
    for (const { prefix, suffix } of parts) {
      if (key.length < prefix.length + suffix.length || !key.startsWith(prefix) || !key.endsWith(suffix)) continue;
      const inner = key.slice(prefix.length, key.length - suffix.length);
      if (inner.startsWith(LOCK_KEY_PREFIX)) return inner;
    }
    return null;
  };
}
