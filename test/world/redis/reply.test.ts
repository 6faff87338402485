/**
 * Reply shapes and the integer rule Redis applies to numeric arguments and values
 * (redis 7.0.15 util.c string2ll: an optional minus, no leading zeros, no '+', no spaces, no
 * decimals, within a signed 64-bit integer).
 */
import { describe, expect, it } from 'vitest';
import {
  ERR_NOT_INTEGER,
  ERR_SYNTAX,
  ERR_WRONGTYPE,
  invalidExpire,
  isErrorReply,
  parseInteger,
  RedisErrorReply,
  wrongArgs,
} from '../../../src/world/redis/reply.js';

describe('parseInteger (util.c string2ll)', () => {
  it('reads canonical decimal integers, negative ones and zero included', () => {
    expect(parseInteger('0')).toBe(0);
    expect(parseInteger('7')).toBe(7);
    expect(parseInteger('-3')).toBe(-3);
    expect(parseInteger('30000')).toBe(30_000);
    expect(parseInteger('900719925474099')).toBe(900_719_925_474_099);
  });

  it('refuses leading zeros, signs other than one minus, decimals, spaces and the empty string', () => {
    for (const s of ['007', '-0', '+1', '1.0', '1.5', ' 1', '1 ', '', '-', '--1', 'abc', '1e3', '0x10']) {
      expect(parseInteger(s), s).toBe(null);
    }
  });

  it('refuses integers beyond what the simulator counts exactly (Redis would go up to 2^63-1)', () => {
    expect(parseInteger(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInteger('9007199254740993')).toBe(null);
    expect(parseInteger('9223372036854775807')).toBe(null);
  });
});

describe('error replies', () => {
  it('carry the exact text Redis sends, command names in lower case', () => {
    expect(String(ERR_SYNTAX)).toBe('ERR syntax error');
    expect(ERR_NOT_INTEGER.message).toBe('ERR value is not an integer or out of range');
    expect(ERR_WRONGTYPE.message).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(wrongArgs('HINCRBY').message).toBe("ERR wrong number of arguments for 'hincrby' command");
    expect(invalidExpire('SET').message).toBe("ERR invalid expire time in 'set' command");
  });

  it('are told apart from ordinary replies', () => {
    expect(isErrorReply(new RedisErrorReply('ERR x'))).toBe(true);
    for (const r of ['ERR x', null, 0, ['ERR x']]) expect(isErrorReply(r)).toBe(false);
  });
});
