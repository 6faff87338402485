/** The value a Redis command returns, in the shape RESP2 gives a client. */
export type RedisReply = null | number | string | RedisReply[] | RedisErrorReply;

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
