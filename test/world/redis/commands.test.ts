/**
 * The keyspace commands against what Redis 7 answers. Every expected reply below was read
 * from redis-server 7.0.15 (Debian 12 package) with redis-cli on loopback; the rules behind
 * them are cited from the redis 7.0.15 sources (t_string.c parseExtendedStringArgumentsOrReply
 * and getExpireMillisecondsOrReply, expire.c expireGenericCommand / checkAlreadyExpired,
 * db.c keyIsExpired, t_hash.c, server.c processCommand).
 */
import { describe, expect, it } from 'vitest';
import { executeKeyspaceCommand, WRITE_COMMANDS } from '../../../src/world/redis/commands.js';
import { Keyspace } from '../../../src/world/redis/keyspace.js';
import type { RedisReply } from '../../../src/world/redis/reply.js';

const NOW_MS = 1_700_000_000_000;

function world(startMs = NOW_MS) {
  const clock = { ms: startMs };
  const ks = new Keyspace(() => clock.ms);
  const run = (...args: string[]): RedisReply => executeKeyspaceCommand(ks, args, 'req-1');
  const as = (tag: string, ...args: string[]): RedisReply => executeKeyspaceCommand(ks, args, tag);
  /** The reply as redis-cli shows it: errors as their text. */
  const text = (...args: string[]): unknown => {
    const r = run(...args);
    return r !== null && typeof r === 'object' && !Array.isArray(r) ? String(r) : r;
  };
  return { clock, ks, run, as, text };
}

const SYNTAX = 'ERR syntax error';
const NOT_INTEGER = 'ERR value is not an integer or out of range';
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

describe('SET and its options (t_string.c parseExtendedStringArgumentsOrReply)', () => {
  it('writes without a TTL by default, and a plain SET over a key with a TTL drops it', () => {
    const { run } = world();
    expect(run('SET', 'k', 'v', 'EX', '100')).toBe('OK');
    expect(run('PTTL', 'k')).toBe(100_000);
    expect(run('SET', 'k', 'w')).toBe('OK');
    expect(run('GET', 'k')).toBe('w');
    expect(run('PTTL', 'k')).toBe(-1);
  });

  it('NX writes only a missing key: nil over an existing one, which keeps its value', () => {
    const { run } = world();
    expect(run('SET', 'k', 'a', 'NX')).toBe('OK');
    expect(run('SET', 'k', 'b', 'NX')).toBe(null);
    expect(run('GET', 'k')).toBe('a');
  });

  it('XX writes only an existing key: nil over a missing one, which stays missing', () => {
    const { run } = world();
    expect(run('SET', 'k', 'a', 'XX')).toBe(null);
    expect(run('EXISTS', 'k')).toBe(0);
    run('SET', 'k', 'a');
    expect(run('SET', 'k', 'b', 'XX')).toBe('OK');
    expect(run('GET', 'k')).toBe('b');
  });

  it('NX with XX, in either order, is a syntax error and writes nothing; NX twice is accepted', () => {
    const { text } = world();
    expect(text('SET', 'k', 'v', 'NX', 'XX')).toBe(SYNTAX);
    expect(text('SET', 'k', 'v', 'XX', 'NX')).toBe(SYNTAX);
    expect(text('EXISTS', 'k')).toBe(0);
    expect(text('SET', 'k', 'v', 'NX', 'NX')).toBe('OK');
  });

  it('EX, PX, EXAT and PXAT set the deadline in seconds, milliseconds, absolute seconds, absolute milliseconds', () => {
    const { run, ks } = world();
    run('SET', 'ex', 'v', 'EX', '7');
    run('SET', 'px', 'v', 'PX', '1500');
    run('SET', 'exat', 'v', 'EXAT', String(NOW_MS / 1000 + 30));
    run('SET', 'pxat', 'v', 'PXAT', String(NOW_MS + 2500));
    expect(ks.rawGet('ex')?.expireAtMs).toBe(NOW_MS + 7000);
    expect(ks.rawGet('px')?.expireAtMs).toBe(NOW_MS + 1500);
    expect(ks.rawGet('exat')?.expireAtMs).toBe(NOW_MS + 30_000);
    expect(ks.rawGet('pxat')?.expireAtMs).toBe(NOW_MS + 2500);
  });

  it('options are case-insensitive (redis-cli: set k v px 100)', () => {
    const { run } = world();
    expect(run('set', 'k', 'v', 'px', '100', 'nx')).toBe('OK');
    expect(run('PTTL', 'k')).toBe(100);
    expect(run('SET', 'k', 'v', 'nx')).toBe(null);
  });

  it('two different expiry options, or one with KEEPTTL, are a syntax error', () => {
    const { text } = world();
    expect(text('SET', 'k', 'v', 'EX', '10', 'PX', '100')).toBe(SYNTAX);
    expect(text('SET', 'k', 'v', 'PX', '100', 'PXAT', String(NOW_MS + 100))).toBe(SYNTAX);
    expect(text('SET', 'k', 'v', 'EXAT', String(NOW_MS / 1000 + 1), 'EX', '1')).toBe(SYNTAX);
    expect(text('SET', 'k', 'v', 'KEEPTTL', 'EX', '10')).toBe(SYNTAX);
    expect(text('SET', 'k', 'v', 'EX', '10', 'KEEPTTL')).toBe(SYNTAX);
    expect(text('EXISTS', 'k')).toBe(0);
  });

  it('the same expiry option twice is accepted and the last one counts (SET k v PX 100 PX 5000: PTTL 5000)', () => {
    const { run } = world();
    expect(run('SET', 'k', 'v', 'PX', '100', 'PX', '5000')).toBe('OK');
    expect(run('PTTL', 'k')).toBe(5000);
    expect(run('SET', 'k', 'v', 'EX', '0', 'EX', '10')).toBe('OK');
    expect(run('PTTL', 'k')).toBe(10_000);
  });

  it('a zero or negative expiry is an invalid expire time; 1 ms is valid', () => {
    const { text } = world();
    expect(text('SET', 'k', 'v', 'EX', '0')).toBe("ERR invalid expire time in 'set' command");
    expect(text('SET', 'k', 'v', 'PX', '-5')).toBe("ERR invalid expire time in 'set' command");
    expect(text('SET', 'k', 'v', 'PXAT', '0')).toBe("ERR invalid expire time in 'set' command");
    expect(text('EXISTS', 'k')).toBe(0);
    expect(text('SET', 'k', 'v', 'PX', '1')).toBe('OK');
    expect(text('PTTL', 'k')).toBe(1);
  });

  it('a non-integer expiry is not an integer; a missing one or an unknown option is a syntax error, checked first', () => {
    const { text } = world();
    expect(text('SET', 'k', 'v', 'EX', 'abc')).toBe(NOT_INTEGER);
    expect(text('SET', 'k', 'v', 'PX', '1.5')).toBe(NOT_INTEGER);
    expect(text('SET', 'k', 'v', 'PX', '-0')).toBe(NOT_INTEGER);
    expect(text('SET', 'k', 'v', 'EX', '01')).toBe(NOT_INTEGER);
    expect(text('SET', 'k', 'v', 'EX')).toBe(SYNTAX);
    expect(text('SET', 'k', 'v', 'FOO')).toBe(SYNTAX);
    // redis-cli: SET k v EX abc FOO -> syntax error (options are parsed before the number).
    expect(text('SET', 'k', 'v', 'EX', 'abc', 'FOO')).toBe(SYNTAX);
    expect(text('EXISTS', 'k')).toBe(0);
  });

  it('a deadline already passed (PXAT 1) is accepted, and the key reads as missing', () => {
    const { run } = world();
    expect(run('SET', 'k', 'v', 'PXAT', '1')).toBe('OK');
    expect(run('GET', 'k')).toBe(null);
    expect(run('EXISTS', 'k')).toBe(0);
  });

  it('KEEPTTL keeps the TTL of the key it overwrites; over a missing key there is none to keep', () => {
    const { run, clock } = world();
    run('SET', 'k', 'v', 'PX', '10000');
    clock.ms += 4000;
    expect(run('SET', 'k', 'w', 'KEEPTTL')).toBe('OK');
    expect(run('GET', 'k')).toBe('w');
    expect(run('PTTL', 'k')).toBe(6000);
    expect(run('SET', 'fresh', 'v', 'KEEPTTL', 'KEEPTTL')).toBe('OK');
    expect(run('PTTL', 'fresh')).toBe(-1);
  });

  it('needs a key and a value', () => {
    const { text } = world();
    expect(text('SET', 'k')).toBe("ERR wrong number of arguments for 'set' command");
    expect(text('SET', 'k', 'v')).toBe('OK');
  });

  it('SETNX answers 1 when it wrote and 0 when the key existed; it takes exactly a key and a value', () => {
    const { text } = world();
    expect(text('SETNX', 'k', 'a')).toBe(1);
    expect(text('SETNX', 'k', 'b')).toBe(0);
    expect(text('GET', 'k')).toBe('a');
    expect(text('SETNX', 'k')).toBe("ERR wrong number of arguments for 'setnx' command");
    expect(text('SETNX', 'k', 'a', 'b')).toBe("ERR wrong number of arguments for 'setnx' command");
  });

  it('the writer of a whole value becomes the holder; a refused SET NX changes nothing', () => {
    const { as, ks } = world();
    as('req-1', 'SET', 'lock', 'a', 'NX', 'PX', '1000');
    as('req-2', 'SET', 'lock', 'b', 'NX', 'PX', '1000');
    expect(ks.rawGet('lock')?.holderTag).toBe('req-1');
    as('req-3', 'SET', 'lock', 'c');
    expect(ks.rawGet('lock')?.holderTag).toBe('req-3');
  });
});

describe('GET, EXISTS, DEL', () => {
  it('GET: the value, nil for a missing key, WRONGTYPE for a hash, exactly one key', () => {
    const { text } = world();
    text('SET', 's', 'v');
    text('HSET', 'h', 'f', '1');
    expect(text('GET', 's')).toBe('v');
    expect(text('GET', 'nokey')).toBe(null);
    expect(text('GET', 'h')).toBe(WRONGTYPE);
    expect(text('GET')).toBe("ERR wrong number of arguments for 'get' command");
    expect(text('GET', 's', 's')).toBe("ERR wrong number of arguments for 'get' command");
  });

  it('DEL of several keys answers how many existed, a key named twice counting once (DEL a b c a: 2)', () => {
    const { run } = world();
    run('SET', 'a', '1');
    run('SET', 'b', '2');
    expect(run('DEL', 'a', 'b', 'c', 'a')).toBe(2);
    expect(run('EXISTS', 'a', 'b')).toBe(0);
    expect(run('DEL', 'a')).toBe(0);
  });

  it('DEL of a key whose TTL ran out answers 0, as if it were gone already', () => {
    const { run, clock } = world();
    run('SET', 'e', 'v', 'PX', '1');
    run('SET', 'live', 'v', 'PX', '1000');
    clock.ms += 2;
    expect(run('DEL', 'e', 'live')).toBe(1);
  });

  it('EXISTS counts every key named, repeats included (EXISTS a a: 2)', () => {
    const { run } = world();
    run('SET', 'a', '1');
    run('SET', 'b', '1');
    expect(run('EXISTS', 'a', 'a')).toBe(2);
    expect(run('EXISTS', 'a', 'b', 'c', 'a')).toBe(3);
    expect(run('EXISTS', 'c')).toBe(0);
  });

  it('DEL and EXISTS need at least one key', () => {
    const { text } = world();
    expect(text('DEL')).toBe("ERR wrong number of arguments for 'del' command");
    expect(text('EXISTS')).toBe("ERR wrong number of arguments for 'exists' command");
    expect(text('DEL', 'x')).toBe(0);
    expect(text('EXISTS', 'x')).toBe(0);
  });
});

describe('EXPIRE, PEXPIRE, PEXPIREAT and PTTL (expire.c)', () => {
  it('set a relative deadline in seconds or milliseconds, or an absolute one in milliseconds', () => {
    const { run } = world();
    run('SET', 'k', 'v');
    expect(run('EXPIRE', 'k', '5')).toBe(1);
    expect(run('PTTL', 'k')).toBe(5000);
    expect(run('PEXPIRE', 'k', '1500')).toBe(1);
    expect(run('PTTL', 'k')).toBe(1500);
    expect(run('PEXPIREAT', 'k', String(NOW_MS + 800))).toBe(1);
    expect(run('PTTL', 'k')).toBe(800);
  });

  it('answer 0 for a missing key and create nothing', () => {
    const { run } = world();
    expect(run('EXPIRE', 'nokey', '10')).toBe(0);
    expect(run('PEXPIRE', 'nokey', '10')).toBe(0);
    expect(run('EXISTS', 'nokey')).toBe(0);
  });

  it('a deadline already reached deletes the key and answers 1 (EXPIRE k -1, EXPIRE k 0, PEXPIREAT k now)', () => {
    const { run } = world();
    for (const args of [['EXPIRE', '-1'], ['EXPIRE', '0'], ['PEXPIREAT', '1'], ['PEXPIREAT', String(NOW_MS)]]) {
      run('SET', 'k', 'v');
      expect(run(args[0], 'k', args[1])).toBe(1);
      expect(run('EXISTS', 'k')).toBe(0);
    }
  });

  it('a deadline 1 ms ahead keeps the key until that millisecond has passed', () => {
    const { run, clock } = world();
    run('SET', 'k', 'v');
    expect(run('PEXPIREAT', 'k', String(NOW_MS + 1))).toBe(1);
    expect(run('EXISTS', 'k')).toBe(1);
    clock.ms += 1;
    expect(run('EXISTS', 'k')).toBe(1);
    clock.ms += 1;
    expect(run('EXISTS', 'k')).toBe(0);
  });

  it('a deletion by EXPIRE is a delete by that request, not an expiry', () => {
    const { run, ks } = world();
    const causes: string[] = [];
    ks.onChange = (c) => causes.push(`${c.cause}:${c.byTag}`);
    run('SET', 'k', 'v');
    run('EXPIRE', 'k', '0');
    expect(causes).toEqual(['write:req-1', 'delete:req-1']);
  });

  it('a non-integer TTL is not an integer; exactly a key and a TTL', () => {
    const { text } = world();
    text('SET', 'k', 'v');
    expect(text('EXPIRE', 'k', 'abc')).toBe(NOT_INTEGER);
    expect(text('PEXPIRE', 'k', '1.5')).toBe(NOT_INTEGER);
    expect(text('PTTL', 'k')).toBe(-1);
    expect(text('EXPIRE', 'k')).toBe("ERR wrong number of arguments for 'expire' command");
    expect(text('PEXPIRE', 'k')).toBe("ERR wrong number of arguments for 'pexpire' command");
    expect(text('PEXPIREAT', 'k')).toBe("ERR wrong number of arguments for 'pexpireat' command");
  });

  it('PTTL: -2 for a missing key, -1 for a key without TTL, else the milliseconds left', () => {
    const { text, clock } = world();
    expect(text('PTTL', 'nokey')).toBe(-2);
    text('SET', 'k', 'v');
    expect(text('PTTL', 'k')).toBe(-1);
    text('PEXPIRE', 'k', '1000');
    clock.ms += 250;
    expect(text('PTTL', 'k')).toBe(750);
    expect(text('PTTL')).toBe("ERR wrong number of arguments for 'pttl' command");
  });

  it('expiry happens when the clock passes the deadline, not at it (db.c keyIsExpired: now > when): PTTL 0 then -2', () => {
    const { run, clock } = world();
    run('SET', 'k', 'v', 'PX', '100');
    clock.ms += 100;
    expect(run('PTTL', 'k')).toBe(0);
    expect(run('GET', 'k')).toBe('v');
    clock.ms += 1;
    expect(run('PTTL', 'k')).toBe(-2);
    expect(run('GET', 'k')).toBe(null);
  });
});

describe('INCR', () => {
  it('counts from 0 on a missing key and from the stored integer otherwise, negatives included', () => {
    const { run, ks } = world();
    expect(run('INCR', 'n')).toBe(1);
    expect(run('INCR', 'n')).toBe(2);
    expect(run('GET', 'n')).toBe('2');
    expect(ks.rawGet('n')?.expireAtMs).toBe(null);
    run('SET', 'm', '-3');
    expect(run('INCR', 'm')).toBe(-2);
  });

  it('keeps the TTL of the counter it increments', () => {
    const { run } = world();
    run('SET', 'n', '5', 'PX', '1000');
    expect(run('INCR', 'n')).toBe(6);
    expect(run('PTTL', 'n')).toBe(1000);
  });

  it('a value that is not a canonical integer ("007", "1.5") is not an integer; a hash is the wrong type', () => {
    const { text } = world();
    text('SET', 's', '007');
    expect(text('INCR', 's')).toBe(NOT_INTEGER);
    text('SET', 's', '1.5');
    expect(text('INCR', 's')).toBe(NOT_INTEGER);
    expect(text('GET', 's')).toBe('1.5');
    text('HSET', 'h', 'f', '1');
    expect(text('INCR', 'h')).toBe(WRONGTYPE);
    expect(text('INCR')).toBe("ERR wrong number of arguments for 'incr' command");
  });

  it('the incrementing request becomes the holder', () => {
    const { as, ks } = world();
    as('req-1', 'INCR', 'n');
    as('req-2', 'INCR', 'n');
    expect(ks.rawGet('n')?.holderTag).toBe('req-2');
  });
});

describe('hashes: HSET, HGET, HINCRBY, HEXISTS, HDEL (t_hash.c)', () => {
  it('HSET answers the number of new fields, updating the others (HSET hh f 1 g 2: 2, then HSET hh f 3 h 4: 1)', () => {
    const { run } = world();
    expect(run('HSET', 'hh', 'f', '1', 'g', '2')).toBe(2);
    expect(run('HSET', 'hh', 'f', '3', 'h', '4')).toBe(1);
    expect(run('HGET', 'hh', 'f')).toBe('3');
    expect(run('HGET', 'hh', 'g')).toBe('2');
    expect(run('HGET', 'hh', 'h')).toBe('4');
  });

  it('HSET needs field-value pairs', () => {
    const { text } = world();
    expect(text('HSET', 'hh')).toBe("ERR wrong number of arguments for 'hset' command");
    expect(text('HSET', 'hh', 'f')).toBe("ERR wrong number of arguments for 'hset' command");
    expect(text('HSET', 'hh', 'f', '1', 'g')).toBe("ERR wrong number of arguments for 'hset' command");
    expect(text('EXISTS', 'hh')).toBe(0);
  });

  it('HGET: nil for a missing field or key; exactly a key and a field', () => {
    const { text } = world();
    text('HSET', 'hh', 'f', '1');
    expect(text('HGET', 'hh', 'nof')).toBe(null);
    expect(text('HGET', 'nokey', 'f')).toBe(null);
    expect(text('HGET', 'hh')).toBe("ERR wrong number of arguments for 'hget' command");
  });

  it('HINCRBY adds to a field, a missing field or hash counting from 0', () => {
    const { run } = world();
    expect(run('HINCRBY', 'hh', 'nf', '-3')).toBe(-3);
    expect(run('HINCRBY', 'hh', 'f', '10')).toBe(10);
    expect(run('HINCRBY', 'hh', 'f', '3')).toBe(13);
    expect(run('HGET', 'hh', 'f')).toBe('13');
    expect(run('PTTL', 'hh')).toBe(-1);
  });

  it('HINCRBY of a field that is not an integer: "hash value is not an integer"; of a bad increment: not an integer', () => {
    const { text } = world();
    text('HSET', 'hh', 'x', '1.5', 'f', '1');
    expect(text('HINCRBY', 'hh', 'x', '1')).toBe('ERR hash value is not an integer');
    expect(text('HGET', 'hh', 'x')).toBe('1.5');
    expect(text('HINCRBY', 'hh', 'f', 'abc')).toBe(NOT_INTEGER);
    expect(text('HINCRBY', 'new', 'f', 'abc')).toBe(NOT_INTEGER);
    expect(text('EXISTS', 'new')).toBe(0);
    expect(text('HINCRBY', 'hh', 'f')).toBe("ERR wrong number of arguments for 'hincrby' command");
    expect(text('HINCRBY', 'hh', 'f', '1')).toBe(2);
  });

  it('HEXISTS: 1 for a field, 0 for another field or a missing key; exactly a key and a field', () => {
    const { text } = world();
    text('HSET', 'hh', 'f', '1');
    expect(text('HEXISTS', 'hh', 'f')).toBe(1);
    expect(text('HEXISTS', 'hh', 'zz')).toBe(0);
    expect(text('HEXISTS', 'nokey', 'f')).toBe(0);
    expect(text('HEXISTS', 'hh')).toBe("ERR wrong number of arguments for 'hexists' command");
  });

  it('HDEL answers the fields removed and deletes the hash with its last field', () => {
    const { run } = world();
    run('HSET', 'hh', 'f', '1', 'g', '2', 'x', '3');
    expect(run('HDEL', 'hh', 'zz')).toBe(0);
    expect(run('HDEL', 'hh', 'f', 'zz')).toBe(1);
    expect(run('EXISTS', 'hh')).toBe(1);
    expect(run('HDEL', 'hh', 'g', 'x', 'g')).toBe(2);
    expect(run('EXISTS', 'hh')).toBe(0);
    expect(run('HDEL', 'nokey', 'a')).toBe(0);
  });

  it('HDEL of the last field is a delete of the key by that request', () => {
    const { as, ks } = world();
    as('req-1', 'HSET', 'lock', 'uuid:1', '1');
    const changes: string[] = [];
    ks.onChange = (c) => changes.push(`${c.cause}:${c.byTag}:${c.entry === undefined ? 'gone' : 'kept'}`);
    as('req-2', 'HDEL', 'lock', 'uuid:1');
    expect(changes).toEqual(['delete:req-2:gone']);
  });

  it('HDEL needs a field', () => {
    const { text } = world();
    expect(text('HDEL', 'hh')).toBe("ERR wrong number of arguments for 'hdel' command");
  });

  it('hash commands on a string key: WRONGTYPE, and the string is unchanged', () => {
    const { text } = world();
    text('SET', 's', 'v');
    expect(text('HGET', 's', 'f')).toBe(WRONGTYPE);
    expect(text('HSET', 's', 'f', 'v')).toBe(WRONGTYPE);
    expect(text('HINCRBY', 's', 'f', '1')).toBe(WRONGTYPE);
    expect(text('HEXISTS', 's', 'f')).toBe(WRONGTYPE);
    expect(text('HDEL', 's', 'f')).toBe(WRONGTYPE);
    expect(text('GET', 's')).toBe('v');
  });

  it('a new hash takes no TTL; a change to an existing one keeps its TTL and makes the writer its holder (Redisson re-entry)', () => {
    const { as, ks, run } = world();
    as('req-1', 'HINCRBY', 'lock', 'uuid:1', '1');
    run('PEXPIRE', 'lock', '30000');
    as('req-2', 'HINCRBY', 'lock', 'uuid:1', '1');
    expect(ks.rawGet('lock')?.holderTag).toBe('req-2');
    expect(run('PTTL', 'lock')).toBe(30_000);
    as('req-3', 'HSET', 'lock', 'other', '1');
    expect(ks.rawGet('lock')?.holderTag).toBe('req-3');
    expect(run('PTTL', 'lock')).toBe(30_000);
    as('req-4', 'HDEL', 'lock', 'other');
    expect(ks.rawGet('lock')?.holderTag).toBe('req-4');
    as('req-5', 'HDEL', 'lock', 'nofield');
    expect(ks.rawGet('lock')?.holderTag).toBe('req-4');
  });
});

describe('other commands', () => {
  it('PING answers PONG', () => {
    expect(world().run('PING')).toBe('PONG');
  });

  it('an unknown command is an error quoting it as sent, with its first arguments (server.c processCommand)', () => {
    const { text } = world();
    expect(text('foo', 'bar')).toBe("ERR unknown command 'foo', with args beginning with: 'bar' ");
    expect(text('FOO')).toBe("ERR unknown command 'FOO', with args beginning with: ");
    expect(text('foo', 'bar', 'baz')).toBe("ERR unknown command 'foo', with args beginning with: 'bar' 'baz' ");
  });

  it('the write commands are the ones a replica refuses; reads are not among them', () => {
    for (const c of ['SET', 'SETNX', 'EXPIRE', 'PEXPIRE', 'PEXPIREAT', 'DEL', 'INCR', 'HSET', 'HINCRBY', 'HDEL']) {
      expect(WRITE_COMMANDS.has(c), c).toBe(true);
    }
    for (const c of ['GET', 'EXISTS', 'PTTL', 'HGET', 'HEXISTS', 'PING']) expect(WRITE_COMMANDS.has(c), c).toBe(false);
  });
});

describe('exactness: SET GET, 64-bit counters, EXPIRE options, TTL, more hash commands, arity (redis 7.0.15; test/conformance compares with a real server)', () => {
  it('SET GET answers the old value and writes; over a hash it is WRONGTYPE and writes nothing', () => {
    const { run, text } = world();
    expect(run('SET', 'k', 'v', 'GET')).toBe(null);
    expect(run('SET', 'k', 'w', 'GET')).toBe('v');
    expect(run('GET', 'k')).toBe('w');
    run('HSET', 'h', 'f', '1');
    expect(text('SET', 'h', 'v', 'GET')).toBe(WRONGTYPE);
    expect(run('HGET', 'h', 'f')).toBe('1');
    expect(run('SET', 'h', 'v')).toBe('OK');
  });

  it('SET NX GET over an existing key answers its value and writes nothing; over a missing key it writes', () => {
    const { run } = world();
    run('SET', 'k', 'v');
    expect(run('SET', 'k', 'w', 'NX', 'GET')).toBe('v');
    expect(run('GET', 'k')).toBe('v');
    expect(run('SET', 'k2', 'w', 'NX', 'GET')).toBe(null);
    expect(run('GET', 'k2')).toBe('w');
  });

  it('expiry numbers past 64 bits once in ms and absolute are invalid; EXAT just below is accepted', () => {
    const { text } = world();
    expect(text('SET', 'k', 'v', 'EX', '9223372036854775')).toBe("ERR invalid expire time in 'set' command");
    expect(text('SET', 'k', 'v', 'PX', '9223372036854775807')).toBe("ERR invalid expire time in 'set' command");
    expect(text('SET', 'k', 'v', 'PX', '9223372036854775808')).toBe(NOT_INTEGER);
    expect(text('SET', 'k', 'v', 'EXAT', '9223372036854775')).toBe('OK');
  });

  it('INCR counts to 2^63-1 (a bigint reply) and then refuses with the overflow error; from -2^63 it counts up', () => {
    const { run, text } = world();
    run('SET', 'n', '9223372036854775806');
    expect(run('INCR', 'n')).toBe(9223372036854775807n);
    expect(text('INCR', 'n')).toBe('ERR increment or decrement would overflow');
    expect(run('GET', 'n')).toBe('9223372036854775807');
    run('SET', 'n', '-9223372036854775808');
    expect(run('INCR', 'n')).toBe(-9223372036854775807n);
    run('SET', 'n', '-0');
    expect(text('INCR', 'n')).toBe(NOT_INTEGER);
  });

  it('HINCRBY overflows past either 64-bit bound; an increment that brings it back is fine', () => {
    const { run, text } = world();
    expect(run('HINCRBY', 'h', 'f', '9223372036854775807')).toBe(9223372036854775807n);
    expect(text('HINCRBY', 'h', 'f', '1')).toBe('ERR increment or decrement would overflow');
    expect(run('HINCRBY', 'h', 'f', '-9223372036854775808')).toBe(-1);
    expect(text('HINCRBY', 'h', 'f', '-9223372036854775808')).toBe('ERR increment or decrement would overflow');
    expect(text('SET', 'k', 'v')).toBe('OK');
    expect(text('HINCRBY', 'k', 'f', 'x')).toBe(NOT_INTEGER);
    expect(text('HINCRBY', 'k', 'f', '1')).toBe(WRONGTYPE);
  });

  // INCR and HINCRBY add in doubles while every operand has at most 12 digits, in 64 bits
  // beyond: the answers are the same on both sides of that line.
  it('INCR across 12 and 13 digits, and of a negative 12-digit value, answers and stores the exact integers', () => {
    const { run, text } = world();
    run('SET', 'n', '999999999998');
    expect(run('INCR', 'n')).toBe(999999999999);
    expect(run('INCR', 'n')).toBe(1000000000000);
    expect(run('INCR', 'n')).toBe(1000000000001);
    expect(run('GET', 'n')).toBe('1000000000001');
    run('SET', 'n', '-999999999999');
    expect(run('INCR', 'n')).toBe(-999999999998);
    run('SET', 'n', '-1');
    expect(run('INCR', 'n')).toBe(0);
    expect(run('GET', 'n')).toBe('0');
    run('SET', 'n', '007');
    expect(text('INCR', 'n')).toBe(NOT_INTEGER);
  });

  it('HINCRBY with 12- and 13-digit operands, and down to zero, answers and stores the exact integers', () => {
    const { run, text } = world();
    expect(run('HINCRBY', 'h', 'f', '999999999999')).toBe(999999999999);
    expect(run('HINCRBY', 'h', 'f', '999999999999')).toBe(1999999999998);
    expect(run('HINCRBY', 'h', 'f', '1')).toBe(1999999999999);
    expect(run('HINCRBY', 'h', 'f', '-1999999999999')).toBe(0);
    expect(run('HGET', 'h', 'f')).toBe('0');
    expect(run('HINCRBY', 'h', 'g', '1000000000000')).toBe(1000000000000);
    expect(run('HINCRBY', 'h', 'g', '-1')).toBe(999999999999);
    expect(run('HGET', 'h', 'g')).toBe('999999999999');
    expect(text('HINCRBY', 'h', 'g', '-0')).toBe(NOT_INTEGER);
    expect(text('HINCRBY', 'h', 'g', '01')).toBe(NOT_INTEGER);
  });

  it('PEXPIRE NX sets only without a TTL, XX only with one', () => {
    const { run } = world();
    run('SET', 'k', 'v');
    expect(run('PEXPIRE', 'k', '5000', 'XX')).toBe(0);
    expect(run('PEXPIRE', 'k', '5000', 'NX')).toBe(1);
    expect(run('PEXPIRE', 'k', '9000', 'NX')).toBe(0);
    expect(run('PEXPIRE', 'k', '9000', 'XX')).toBe(1);
    expect(run('PTTL', 'k')).toBe(9000);
  });

  it('PEXPIRE GT takes only a later deadline (never over no TTL), LT only an earlier one (always over no TTL); equal is refused by both', () => {
    const { run } = world();
    run('SET', 'k', 'v');
    expect(run('PEXPIRE', 'k', '5000', 'GT')).toBe(0);
    expect(run('PEXPIRE', 'k', '5000', 'LT')).toBe(1);
    expect(run('PEXPIRE', 'k', '5000', 'GT')).toBe(0);
    expect(run('PEXPIRE', 'k', '5000', 'LT')).toBe(0);
    expect(run('PEXPIRE', 'k', '5001', 'GT')).toBe(1);
    expect(run('PEXPIRE', 'k', '4000', 'LT')).toBe(1);
    expect(run('PTTL', 'k')).toBe(4000);
  });

  it('EXPIRE options: unknown words and incompatible pairs are refused before the number is read', () => {
    const { text } = world();
    expect(text('PEXPIRE', 'k', 'abc', 'Foo')).toBe('ERR Unsupported option Foo');
    expect(text('PEXPIRE', 'k', '1', 'NX', 'GT')).toBe('ERR NX and XX, GT or LT options at the same time are not compatible');
    expect(text('PEXPIRE', 'k', '1', 'GT', 'LT')).toBe('ERR GT and LT options at the same time are not compatible');
    expect(text('PEXPIRE', 'k', '1', 'XX', 'GT')).toBe(0);
  });

  it('EXPIRE past 64 bits is an invalid expire time even for a missing key; PEXPIREAT 2^63-1 is a valid deadline', () => {
    const { run, text } = world();
    expect(text('EXPIRE', 'missing', '9223372036854775')).toBe("ERR invalid expire time in 'expire' command");
    expect(text('EXPIRE', 'missing', '-9223372036854776')).toBe("ERR invalid expire time in 'expire' command");
    expect(text('PEXPIRE', 'missing', '9223372036854775807')).toBe("ERR invalid expire time in 'pexpire' command");
    run('SET', 'k', 'v');
    expect(run('PEXPIREAT', 'k', '9223372036854775807')).toBe(1);
    expect(run('EXISTS', 'k')).toBe(1);
  });

  it('EXPIREAT in seconds: a past time deletes, a future one sets the deadline', () => {
    const { run } = world();
    run('SET', 'k', 'v');
    expect(run('EXPIREAT', 'k', String(NOW_MS / 1000 + 100))).toBe(1);
    expect(run('PTTL', 'k')).toBe(100_000);
    expect(run('EXPIREAT', 'k', '1')).toBe(1);
    expect(run('EXISTS', 'k')).toBe(0);
  });

  it('TTL rounds the time left to the nearest second, half up (1499 ms: 1, 1500 ms: 2); -1 and -2 as PTTL', () => {
    const { run, clock } = world();
    expect(run('TTL', 'k')).toBe(-2);
    run('SET', 'k', 'v');
    expect(run('TTL', 'k')).toBe(-1);
    run('SET', 'k', 'v', 'PX', '1500');
    expect(run('TTL', 'k')).toBe(2);
    clock.ms += 1;
    expect(run('TTL', 'k')).toBe(1);
    clock.ms += 1000;
    expect(run('TTL', 'k')).toBe(0);
  });

  it('HSETNX sets a missing field only; HGETALL lists fields in insertion order; HLEN counts them; TYPE names the type', () => {
    const { run, text } = world();
    expect(run('HSETNX', 'h', 'b', '1')).toBe(1);
    expect(run('HSETNX', 'h', 'b', '2')).toBe(0);
    run('HSET', 'h', 'a', '3');
    expect(run('HGETALL', 'h')).toEqual(['b', '1', 'a', '3']);
    expect(run('HLEN', 'h')).toBe(2);
    expect(run('HGETALL', 'none')).toEqual([]);
    expect(run('HLEN', 'none')).toBe(0);
    expect(run('TYPE', 'h')).toBe('hash');
    run('SET', 'k', 'v');
    expect(run('TYPE', 'k')).toBe('string');
    expect(run('TYPE', 'none')).toBe('none');
    expect(text('HSETNX', 'k', 'f', 'v')).toBe(WRONGTYPE);
    expect(text('HGETALL', 'k')).toBe(WRONGTYPE);
    expect(text('HLEN', 'k')).toBe(WRONGTYPE);
  });

  it('arity comes from the command table: exact counts and minimums; HSET also needs an even list', () => {
    const { text } = world();
    expect(text('TTL')).toBe("ERR wrong number of arguments for 'ttl' command");
    expect(text('HGETALL', 'a', 'b')).toBe("ERR wrong number of arguments for 'hgetall' command");
    expect(text('HSET', 'h', 'f', 'v', 'g')).toBe("ERR wrong number of arguments for 'hset' command");
    expect(text('HSET', 'h', 'f', 'v', 'g', 'w')).toBe(2);
    expect(text('PING', 'a', 'b')).toBe("ERR wrong number of arguments for 'ping' command");
    expect(text('PING', 'a')).toBe('a');
  });

  it("an unknown command's quoted arguments stop once they pass 128 characters", () => {
    const { text } = world();
    const long = 'x'.repeat(200);
    expect(text('NOPE', long, 'y')).toBe(`ERR unknown command 'NOPE', with args beginning with: '${'x'.repeat(128)}' `);
    expect(text('NOPE', 'a', 'b')).toBe("ERR unknown command 'NOPE', with args beginning with: 'a' 'b' ");
  });
});
