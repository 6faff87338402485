/**
 * The value a Redis command returns, in the shape RESP2 gives a client. An integer reply is a
 * number while it is a safe JS integer and a bigint beyond (Redis integers are signed 64-bit:
 * INCR up to 9223372036854775807). Status and bulk strings are both strings.
 */
export type RedisReply = null | number | bigint | string | RedisReply[] | RedisErrorReply;

export class RedisErrorReply {
  constructor(readonly message: string) {}
  toString(): string {
    return this.message;
  }
}

export const isErrorReply = (r: unknown): r is RedisErrorReply => r instanceof RedisErrorReply;

export const ERR_SYNTAX = new RedisErrorReply('ERR syntax error');
export const ERR_NOT_INTEGER = new RedisErrorReply('ERR value is not an integer or out of range');
export const ERR_WRONGTYPE = new RedisErrorReply(
  'WRONGTYPE Operation against a key holding the wrong kind of value',
);

export const ERR_OVERFLOW = new RedisErrorReply('ERR increment or decrement would overflow');

/** Signed 64-bit bounds (C long long), which Redis's integer arguments and counters obey. */
export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;
const DIGITS: readonly bigint[] = [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n];

export function wrongArgs(command: string): RedisErrorReply {
  return new RedisErrorReply(`ERR wrong number of arguments for '${command.toLowerCase()}' command`);
}

export function invalidExpire(command: string): RedisErrorReply {
  return new RedisErrorReply(`ERR invalid expire time in '${command.toLowerCase()}' command`);
}

/**
 * Redis accepts only canonical decimal integers ("007", "-0" and "1.0" are errors: redis
 * 7.0.15 util.c string2ll, where 0 is the one number that may start with a zero).
 */
export function parseInteger(s: string): number | null {
  if (!/^(0|-?[1-9][0-9]{0,17})$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A Redis integer argument or stored value in the full signed 64-bit range (redis 7.0.15
 * util.c string2ll: canonical decimal only, so "-0", "007", "+1", " 1" and "1.0" are refused,
 * as is anything outside [-2^63, 2^63-1]).
 */
export function parseInt64(s: string): bigint | null {
  // One digit (numkeys, WAIT's replica count): a bigint made once, not per command.
  if (s.length === 1) {
    const d = s.charCodeAt(0) - 48;
    return d >= 0 && d <= 9 ? DIGITS[d] : null;
  }
  if (!/^(0|-?[1-9][0-9]{0,18})$/.test(s)) return null;
  const n = BigInt(s);
  return n > INT64_MAX || n < INT64_MIN ? null : n;
}

/** An integer reply: a number when JS holds it exactly, else the bigint. */
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function integerReply(n: bigint): number | bigint {
  return n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
}
