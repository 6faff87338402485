/**
 * The lock key of a SKU, `lock:stock:<sku>` ("From setnx to Redisson": the article's key
 * lock:stock:10037), in one place: the request flow locks it, the run's key-state facts and
 * the lock-key metrics attribute Redis keys to it, the timeline and the shrinker read a SKU
 * back out of it.
 */

/** What every request's lock key starts with (the real backend's key watch reads `lock:*`). */
export const LOCK_KEY_NAMESPACE = 'lock:';

/** What a SKU's lock key starts with, its SKU after it. */
export const STOCK_LOCK_KEY_PREFIX = `${LOCK_KEY_NAMESPACE}stock:`;

/** The lock key of `sku`. */
export const lockKeyOf = (sku: number): string => `${STOCK_LOCK_KEY_PREFIX}${sku}`;

