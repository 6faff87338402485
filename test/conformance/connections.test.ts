/**
 * Sequences over several connections, run on the model and on a real redis-server 7
 * (harness.ts): the blocking pops (woken by a push in the order clients blocked, timeouts, a
 * BLMOVE whose destination turned into another type, CLIENT UNBLOCK, a blocked client's later
 * commands waiting behind it, a push inside MULTI or a script served after it), CLIENT ID /
 * SETNAME / GETNAME, and pub/sub (SUBSCRIBE, PSUBSCRIBE and their replies, messages,
 * the commands a subscribed connection may send, PUBSUB).
 */
import { expect, it } from 'vitest';
import type { Step } from './harness.js';
import { withRealRedis } from './setup.js';

const c = (...args: string[]): Step => ({ args });
const on = (conn: string, ...args: string[]): Step => ({ on: conn, args });
/** A command that may block: not awaited, checked after every step. */
const blocks = (conn: string, ...args: string[]): Step => ({ on: conn, args, async: true });
const sleep = (ms: number): Step => ({ sleepMs: ms });
const multi = (...commands: string[][]): Step => ({ multi: commands });

type Case = [title: string, keys: string[], steps: Step[]];

const BLOCKING: Case[] = [
  ['BLPOP blocks on a missing list; a push wakes the first blocked client; two elements serve two, in blocking order', ['l'], [
    blocks('b', 'BLPOP', 'l', '0'), blocks('c', 'BRPOP', 'l', '0'), c('RPUSH', 'l', 'x'), c('LLEN', 'l'), blocks('b', 'BLPOP', 'l', '0'), c('RPUSH', 'l', 'y', 'z', 'w'), c('LRANGE', 'l', '0', '-1'),
  ]],
  ['a client blocked on several keys is woken by the first that gets elements; BLMPOP takes up to its count', ['l1', 'l2', 'l3'], [
    blocks('b', 'BLPOP', 'l1', 'l2', '0'), c('RPUSH', 'l2', 'a', 'b'), blocks('c', 'BLMPOP', '0', '2', 'l3', 'l1', 'RIGHT', 'COUNT', '5'), c('RPUSH', 'l1', 'p', 'q', 'r'),
  ]],
  ['a timeout answers nil; one not yet due leaves it blocked; CLIENT UNBLOCK TIMEOUT and ERROR', ['l'], [
    blocks('b', 'BLPOP', 'l', '0.1'), sleep(400), blocks('b', 'BRPOP', 'l', '30'), c('CLIENT', 'UNBLOCK', '@b'), c('CLIENT', 'UNBLOCK', '@b'), blocks('b', 'BLPOP', 'l', '30'),
    c('CLIENT', 'UNBLOCK', '@b', 'ERROR'), c('CLIENT', 'UNBLOCK', '@b', 'FOO'), c('CLIENT', 'UNBLOCK', 'x'), c('CLIENT', 'UNBLOCK', '999999'), c('CLIENT', 'UNBLOCK', '@b', 'TIMEOUT', 'x'),
  ]],
  ['a blocked client\'s later commands wait behind it and run once it is served', ['l', 'k'], [
    blocks('b', 'BLPOP', 'l', '0'), blocks('b', 'SET', 'k', 'from-b'), blocks('b', 'GET', 'k'), c('GET', 'k'), c('LPUSH', 'l', 'v'), c('GET', 'k'),
  ]],
  ['BLMOVE / BRPOPLPUSH served by a push; the destination made a string meanwhile answers WRONGTYPE and nothing moves; a move that wakes the next client', ['src', 'dst', 'd2'], [
    blocks('b', 'BLMOVE', 'src', 'dst', 'RIGHT', 'LEFT', '0'), c('RPUSH', 'src', 'a', 'b'), blocks('b', 'BRPOPLPUSH', 'nokey', 'd2', '0'), blocks('c', 'BLPOP', 'd2', '0'),
    c('SET', 'dst', 'x'), blocks('d', 'BLMOVE', 'none', 'dst', 'LEFT', 'LEFT', '0'), c('RPUSH', 'none', 'q'), c('RPUSH', 'nokey', 'm'), c('DEL', 'none'),
  ]],
  ['a push inside MULTI or a script is served after it: what the transaction popped itself is gone first', ['l'], [
    blocks('b', 'BLPOP', 'l', '0'), multi(['RPUSH', 'l', 'a'], ['LPOP', 'l']), multi(['RPUSH', 'l', 'a', 'b'], ['LPOP', 'l']), blocks('b', 'BLPOP', 'l', '0'),
    c('EVAL', "redis.call('rpush', KEYS[1], 'x', 'y'); return redis.call('lpop', KEYS[1])", '1', 'l'), c('LRANGE', 'l', '0', '-1'),
  ]],
  ['a key created with another type does not wake a list client; a sorted set wakes BZPOPMIN; a deleted and pushed key does', ['l', 'z'], [
    blocks('b', 'BLPOP', 'l', '0'), c('SET', 'l', 'str'), c('DEL', 'l'), c('ZADD', 'l', '1', 'm'), c('DEL', 'l'), blocks('c', 'BZPOPMIN', 'z', '0'), c('RPUSH', 'z', 'x'),
    c('DEL', 'z'), c('ZADD', 'z', '2', 'b', '1', 'a'), blocks('c', 'BZMPOP', '0', '1', 'z', 'MAX', 'COUNT', '5'), c('ZADD', 'z', '3', 'c'), c('RPUSH', 'l', 'v'),
  ]],
  ['BZPOPMAX answers key, member, score; BZMPOP nested; a timeout of 0.2 s', ['z'], [
    blocks('b', 'BZPOPMAX', 'z', '0'), c('ZADD', 'z', '1.5', 'a', '2', 'b'), blocks('b', 'BZMPOP', '0.2', '1', 'z', 'MIN', 'COUNT', '9'), blocks('b', 'BZPOPMIN', 'z', '0.2'), sleep(500),
  ]],
  ['a primary turned replica answers its blocked clients UNBLOCKED (BLPOP, BZPOPMIN, WAIT) and closes their connections; the others stay', [], [
    blocks('b', 'BLPOP', 'l', '0'), blocks('c', 'BZPOPMIN', 'z', '30'), blocks('d', 'WAIT', '1', '0'), on('e', 'CLIENT', 'SETNAME', 'idle'), { demote: true }, on('e', 'CLIENT', 'GETNAME'),
  ]],
  ['the same key named twice blocks once; a timeout of -0.0001 s rounds to 0 (no timeout); errors before blocking', ['l'], [
    blocks('b', 'BLPOP', 'l', 'l', '-0.0001'), c('RPUSH', 'l', 'a', 'b'), c('LRANGE', 'l', '0', '-1'), on('b', 'BLPOP', 'l', '-1'), on('b', 'BLMPOP', '0', '1', 'l', 'UP'),
    on('b', 'SET', 'l2', 'x'), on('b', 'BLPOP', 'l2', '0'), on('b', 'DEL', 'l2'),
  ]],
];

const CLIENT: Case[] = [
  ['CLIENT ID per connection, SETNAME / GETNAME, names that are refused, an empty name clears it', [], [
    c('CLIENT', 'ID'), on('b', 'CLIENT', 'ID'), c('CLIENT', 'ID'), c('CLIENT', 'GETNAME'), c('CLIENT', 'SETNAME', 'worker-1'), c('CLIENT', 'GETNAME'), on('b', 'CLIENT', 'GETNAME'),
    c('CLIENT', 'SETNAME', 'has space'), c('CLIENT', 'SETNAME', 'naïve'), c('CLIENT', 'SETNAME', 'tab\tx'), c('CLIENT', 'GETNAME'), c('CLIENT', 'SETNAME', ''), c('CLIENT', 'GETNAME'),
    c('CLIENT', 'ID', 'x'), c('CLIENT', 'SETNAME'), c('CLIENT', 'GETNAME', 'x'), c('CLIENT'), c('CLIENT', 'NOSUCH'), c('client', 'id'), c('CLIENT', 'SETNAME', 'a', 'b'),
    c('EVAL', "return redis.call('client', 'id')", '0'), c('EVAL', "return redis.call('client', 'nosuch')", '0'), multi(['CLIENT', 'SETNAME', 'in-multi'], ['CLIENT', 'GETNAME']),
    c('RESET'), c('CLIENT', 'GETNAME'),
  ]],
];

const PUBSUB: Case[] = [
  ['SUBSCRIBE and PSUBSCRIBE replies (one per channel), messages and pattern messages, PUBLISH counts every receiver', [], [
    on('s', 'SUBSCRIBE', 'ch1', 'ch2', 'ch1'), on('p', 'PSUBSCRIBE', 'ch*', 'c?1'), c('PUBLISH', 'ch1', 'hello'), c('PUBLISH', 'ch2', 'x'), c('PUBLISH', 'other', 'y'),
    on('s', 'PSUBSCRIBE', 'ch[12]'), c('PUBLISH', 'ch2', 'z'), c('PUBSUB', 'NUMSUB', 'ch1', 'ch2', 'nope'), c('PUBSUB', 'NUMPAT'), { args: ['PUBSUB', 'CHANNELS'], unordered: true },
    { args: ['PUBSUB', 'CHANNELS', '*1'], unordered: true }, c('PUBSUB', 'CHANNELS', 'a', 'b'), c('PUBSUB', 'NOSUCH'), c('PUBSUB', 'NUMPAT', 'x'),
    c('EVAL', "return redis.call('pubsub', 'numsub', 'ch1')", '0'), c('EVAL', "return redis.call('subscribe', 'x')", '0'),
  ]],
  ['a subscribed connection may send only (P)(UN)SUBSCRIBE, PING, QUIT, RESET; PING answers ["pong", text]', [], [
    on('s', 'SUBSCRIBE', 'ch'), on('s', 'GET', 'k'), on('s', 'PING'), on('s', 'PING', 'hi'), on('s', 'CLIENT', 'ID'), on('s', 'NOSUCH'), on('s', 'GET'),
    { on: 's', multi: [['GET', 'k'], ['PING']] }, on('s', 'UNSUBSCRIBE', 'nope'), on('s', 'UNSUBSCRIBE'), on('s', 'PING'), on('s', 'GET', 'k'),
    on('s', 'UNSUBSCRIBE'), on('s', 'PUNSUBSCRIBE'), on('s', 'PSUBSCRIBE', 'a*', 'b*'), on('s', 'PUNSUBSCRIBE', 'a*'), on('s', 'SET', 'k', 'v'), on('s', 'RESET'), on('s', 'GET', 'k'),
  ]],
  ['UNSUBSCRIBE / PUNSUBSCRIBE of everything, and of channels never subscribed', [], [
    on('s', 'SUBSCRIBE', 'a'), on('s', 'PSUBSCRIBE', 'p1', 'p2'), on('s', 'UNSUBSCRIBE', 'a', 'b'), on('s', 'PUNSUBSCRIBE'), on('s', 'SUBSCRIBE', 'x'), c('PUBLISH', 'x', 'm'),
    on('s', 'UNSUBSCRIBE'), c('PUBLISH', 'x', 'm'), on('s', 'PING'),
  ]],
];

withRealRedis('the model against redis-server 7: several connections (blocking pops, CLIENT, pub/sub)', (conformance) => {
  for (const [title, keys, steps] of [...BLOCKING, ...CLIENT, ...PUBSUB]) {
    it(title, async () => {
      const found = await conformance().run(steps, keys);
      expect(found, found.slice(0, 6).map((d) => `step ${d.step} ${d.what}: model ${JSON.stringify(d.model)}, real ${JSON.stringify(d.real)}`).join('\n')).toEqual([]);
    });
  }
});
