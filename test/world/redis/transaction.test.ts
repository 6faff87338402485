/**
 * MULTI/EXEC on a node (transaction.ts, RedisNode.executeTransaction) with the replies
 * redis-server 7.0.15 gives (test/conformance runs the same against a real server).
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine/simulation.js';
import { LocalClock } from '../../../src/world/clock.js';
import { RedisNode } from '../../../src/world/redis/node.js';
import type { TransactionReplies } from '../../../src/world/redis/transaction.js';
import { ask } from './ask.js';

function node() {
  const sim = new Simulation(1);
  return new RedisNode('redis-0', sim, new LocalClock(sim));
}

function transaction(n: RedisNode, ...commands: string[][]): { multi: unknown; queued: unknown[]; exec: unknown } {
  let out: TransactionReplies | undefined;
  n.executeTransaction(commands, 'r1', (r) => (out = r));
  if (out === undefined) throw new Error('no reply');
  const text = (r: unknown): unknown => (r !== null && typeof r === 'object' && !Array.isArray(r) ? String(r) : Array.isArray(r) ? r.map(text) : r);
  return { multi: out.multi, queued: out.queued.map(text), exec: text(out.exec) };
}

describe('MULTI/EXEC (multi.c)', () => {
  it('queues every command and EXEC answers each reply; a run-time error is one element and the rest still run', () => {
    const n = node();
    const r = transaction(n, ['SET', 'k', 'v'], ['INCR', 'k'], ['SET', 'n', '1', 'PX', '0'], ['INCR', 'n']);
    expect(r.multi).toBe('OK');
    expect(r.queued).toEqual(['QUEUED', 'QUEUED', 'QUEUED', 'QUEUED']);
    expect(r.exec).toEqual(['OK', 'ERR value is not an integer or out of range', "ERR invalid expire time in 'set' command", 1]);
    expect(ask(n, 'GET', 'n')).toBe('1');
  });

  it('a command refused when queued (unknown, wrong arity) aborts the whole transaction: EXECABORT, nothing runs', () => {
    const n = node();
    const r = transaction(n, ['SET', 'k', 'v'], ['GET']);
    expect(r.queued).toEqual(['QUEUED', "ERR wrong number of arguments for 'get' command"]);
    expect(r.exec).toBe('EXECABORT Transaction discarded because of previous errors.');
    expect(ask(n, 'EXISTS', 'k')).toBe(0);
  });

  it('a nested MULTI is an error that does not abort; a replica refuses a queued write with READONLY and aborts', () => {
    const n = node();
    const nested = transaction(n, ['MULTI'], ['SET', 'k', 'v']);
    expect(nested.queued).toEqual(['ERR MULTI calls can not be nested', 'QUEUED']);
    expect(nested.exec).toEqual(['OK']);
    const replica = node();
    replica.role = 'replica';
    const refused = transaction(replica, ['GET', 'k'], ['SET', 'k', 'v']);
    expect(refused.queued).toEqual(['QUEUED', "READONLY You can't write against a read only replica."]);
    expect(refused.exec).toBe('EXECABORT Transaction discarded because of previous errors.');
  });

  it('WAIT inside EXEC does not block: it answers the replicas that acknowledged, now; an empty transaction answers []', () => {
    const n = node();
    expect(transaction(n, ['WAIT', '1', '0']).exec).toEqual([0]);
    expect(transaction(n).exec).toEqual([]);
  });

  it('a dead node answers nothing', () => {
    const n = node();
    n.crash();
    let replied = false;
    n.executeTransaction([['PING']], 'r1', () => (replied = true));
    expect(replied).toBe(false);
  });
});
