/**
 * The story of a violation as users read it: which operations it tells, in what words, and
 * where it begins and ends.
 */
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import type { Violation } from '../../src/checker/violations.js';
import type { NewOperation } from '../../src/history/operation.js';
import { end, fault, history, K, keyState, lockOp, requestOp, setup, type Entry } from './histories.js';

const violation = (timeUs: number, requests: string[], subject = K): Violation => ({
  kind: 'lock-lost', timeUs, subject, requests, summary: 'what went wrong',
});
const story = (v: Violation, entries: Entry[]): string[] => tellStory(v, history(entries)).lines.map((l) => `${l.timeUs} ${l.who}: ${l.what}`);

const write = (request: string, extra: Partial<Extract<NewOperation, { f: 'write-stock' }>>): NewOperation => ({
  process: 'client-1/w1', request, type: 'ok', f: 'write-stock', sku: 1, qty: 1, mode: 'set', value: 4, basedOn: 5, affected: 1, ...extra,
});
const txn = (request: string, outcome: 'commit' | 'rollback', cause: 'commit' | 'rollback' | 'disconnect'): NewOperation => ({
  process: 'database', type: 'info', f: 'txn', request, owner: 'client-1/w1', txn: 7, outcome, cause,
});

describe('tellStory', () => {
  it('heads the story with the violation\'s time and summary', () => {
    const s = tellStory(violation(1_500_000, ['r1']), history([[0, setup()], [1_000, lockOp('acquire', 'ok', 'r1', { leaseMs: 30_000 })]]));
    expect(s.headline).toBe('1.5s  what went wrong');
  });

  it('tells the involved requests\' lock and database operations in words', () => {
    const lines = story(violation(20_000, ['r1']), [
      [0, setup()],
      [100, requestOp('invoke', 'r1')],
      [100, lockOp('acquire', 'invoke', 'r1')],
      [1_000, lockOp('acquire', 'ok', 'r1', { leaseMs: 30_000 })],
      [2_000, { process: 'client-1/w1', request: 'r1', type: 'ok', f: 'read-stock', sku: 1, available: 5 }],
      [3_000, write('r1', {})],
      [4_000, write('r1', { mode: 'deduct', qty: 2, affected: 0 })],
      [5_000, { process: 'client-1/w1', request: 'r1', type: 'ok', f: 'order', sku: 1, qty: 2, orderKey: 'o-r1' }],
      [6_000, txn('r1', 'commit', 'commit')],
      [7_000, { process: 'client-1/w1', request: 'r1', type: 'info', f: 'renew', detail: 'extended to 30s' }],
      [8_000, lockOp('release', 'invoke', 'r1')],
      [9_000, lockOp('release', 'fail', 'r1', { detail: 'not the owner' })],
      [9_500, lockOp('release', 'ok', 'r1')],
      [10_000, requestOp('ok', 'r1', { outcome: 'ordered' })],
    ]);
    expect(lines).toEqual([
      '1000 client-1/w1: r1 acquired lock:stock:1 (lease 30s)',
      '2000 client-1/w1: r1 reads available = 5',
      '3000 client-1/w1: r1 writes available = 4',
      '4000 client-1/w1: r1 deducts 2 (rows affected: 0)',
      '5000 client-1/w1: r1 commits an order for 2',
      '6000 database: r1 commits transaction 7',
      '7000 client-1/w1: watchdog of r1: extended to 30s',
      '8000 client-1/w1: r1 leaves its critical section and releases lock:stock:1',
      '9000 client-1/w1: r1 release fail: not the owner',
      '9500 client-1/w1: r1 release ok',
    ]);
  });

  it('leaves out what other requests did, and their failed reads and writes', () => {
    const lines = story(violation(9_000, ['r1']), [
      [0, setup()],
      [1_000, lockOp('acquire', 'ok', 'r1', { leaseMs: null })],
      [2_000, lockOp('acquire', 'ok', 'r2', { leaseMs: 10 })],
      [2_100, lockOp('acquire', 'fail', 'r2', { detail: 'busy' })],
      [3_000, { process: 'client-1/w2', request: 'r2', type: 'ok', f: 'read-stock', sku: 1, available: 5 }],
      [3_100, { process: 'client-1/w1', request: 'r1', type: 'fail', f: 'read-stock', sku: 1, fence: 3 }],
      [4_000, write('r2', {})],
      [4_100, write('r1', { type: 'fail' })],
      [5_000, { process: 'client-1/w2', request: 'r2', type: 'ok', f: 'order', sku: 1, qty: 1, orderKey: 'o-r2' }],
      [5_100, { process: 'client-1/w1', request: 'r1', type: 'fail', f: 'order', sku: 1, qty: 1, orderKey: 'o-r1' }],
      [6_000, txn('r2', 'commit', 'commit')],
      [7_000, { process: 'client-1/w2', request: 'r2', type: 'info', f: 'renew', detail: 'extended' }],
      [8_000, lockOp('release', 'invoke', 'r2')],
    ]);
    expect(lines).toEqual(['1000 client-1/w1: r1 acquired lock:stock:1']);
  });

  it('says why an acquire did not succeed: its detail, else its type', () => {
    const lines = story(violation(5_000, ['r1', 'r2']), [
      [0, setup()],
      [1_000, lockOp('acquire', 'fail', 'r1', { detail: 'lock busy' })],
      [2_000, lockOp('acquire', 'info', 'r2')],
    ]);
    expect(lines).toEqual(['1000 client-1/w1: r1 did not get lock:stock:1: lock busy', '2000 client-1/w1: r2 did not get lock:stock:1: info']);
  });

  it('tells a rolled-back transaction, and why when the connection dropped', () => {
    const lines = story(violation(5_000, ['r1', 'r2']), [
      [0, setup()],
      [1_000, lockOp('acquire', 'ok', 'r1')],
      [2_000, txn('r1', 'rollback', 'rollback')],
      [3_000, txn('r2', 'rollback', 'disconnect')],
    ]);
    expect(lines.slice(1)).toEqual(['2000 database: r1\'s transaction 7 rolls back', '3000 database: r2\'s transaction 7 rolls back (its connection dropped)']);
  });

  it('tells what the servers did with the involved requests\' keys, and nothing of other keys', () => {
    const lines = story(violation(9_000, ['r1']), [
      [0, setup()],
      [1_000, lockOp('acquire', 'ok', 'r1')],
      [1_000, keyState('redis-0', 'r1', { expiresAtUs: 2_500_000 })],
      [2_000, keyState('redis-0', 'r2', { key: 'lock:stock:2' })],
      [3_000, keyState('redis-1', 'r1', { expiresAtUs: null, cause: 'sync' })],
      [4_000, keyState('redis-0', null, { cause: 'expire', by: '', previousHolder: 'r1' })],
      [5_000, keyState('redis-1', null, { cause: 'delete', by: 'r2', previousHolder: 'r1' })],
    ]);
    expect(lines).toEqual([
      '1000 client-1/w1: r1 acquired lock:stock:1',
      '1000 redis-0: lock:stock:1 held by r1 (write, expires 2.5s)',
      '3000 redis-1: lock:stock:1 held by r1 (sync, no TTL)',
      '4000 redis-0: lock:stock:1 gone: r1\'s lock expired',
      '5000 redis-1: lock:stock:1 gone: r1\'s lock deleted by r2',
    ]);
  });

  it('begins at the first lock or database operation of an involved request: key changes before it are left out', () => {
    const lines = story(violation(9_000, ['r1']), [
      [0, setup()],
      [500, requestOp('invoke', 'r1')], // its arrival does not begin the story (it may have queued)
      [600, lockOp('acquire', 'invoke', 'r0')], // nor does another request's operation
      [999, keyState('redis-0', 'r0', { expiresAtUs: null })],
      [1_000, keyState('redis-0', null, { previousHolder: 'r0', by: 'r0' })],
      [1_000, lockOp('acquire', 'invoke', 'r1')],
      [2_000, lockOp('acquire', 'ok', 'r1')],
    ]);
    // r0's delete at the instant the story begins is other requests' churn, in one line.
    expect(lines).toEqual([
      '1000 others: meanwhile 1 other request (r0) took and freed lock:stock:1 1 time on redis-0',
      '2000 client-1/w1: r1 acquired lock:stock:1',
    ]);
  });

  it('begins at the violation when no involved request did anything before it', () => {
    const lines = story(violation(5_000, ['r9']), [
      [0, setup()],
      [4_999, keyState('redis-0', 'r1', { expiresAtUs: null })],
      [5_000, keyState('redis-0', null, { previousHolder: 'r1', by: 'r1' })],
      [6_000, lockOp('acquire', 'ok', 'r9')],
    ]);
    expect(lines).toEqual(['5000 others: meanwhile 1 other request (r1) took and freed lock:stock:1 1 time on redis-0']);
  });

  it('ends at the violation: operations at its instant are told, later ones are not', () => {
    const lines = story(violation(5_000, ['r1']), [
      [0, setup()],
      [1_000, lockOp('acquire', 'ok', 'r1')],
      [5_000, lockOp('release', 'invoke', 'r1')],
      [5_001, lockOp('release', 'ok', 'r1')],
    ]);
    expect(lines).toEqual(['1000 client-1/w1: r1 acquired lock:stock:1', '5000 client-1/w1: r1 leaves its critical section and releases lock:stock:1']);
  });

  it('tells the same story from the history cut at the violation (a streaming checker\'s prefix)', () => {
    const entries: Entry[] = [
      [0, setup()],
      [1_000, lockOp('acquire', 'ok', 'r1')],
      [1_000, keyState('redis-0', 'r1', { expiresAtUs: 3_000 })],
      [2_000, fault('pause', 'start', 'client-1', 'GC 5s')],
      [3_000, keyState('redis-0', null, { cause: 'expire', by: '', previousHolder: 'r1' })],
      [4_000, lockOp('acquire', 'ok', 'r2', { thread: 'client-2/w1' })],
      [7_000, fault('pause', 'end', 'client-1', 'threads run again')],
      [8_000, end()],
    ];
    const whole = history(entries);
    const v = violation(4_000, ['r1', 'r2']);
    expect(tellStory(v, whole.filter((o) => o.timeUs <= 4_000))).toEqual(tellStory(v, whole));
  });

  it('tells faults still in force when it begins and events of the minute before, not older or healed ones', () => {
    const begin = 70_000_000;
    const lines = story(violation(begin + 1_000, ['r1']), [
      [0, setup()],
      [begin - 60_000_001, fault('failover', 'event', 'redis-1', 'promoted too early')],
      [begin - 50_000_000, fault('pause', 'start', 'client-1', 'GC 1s')],
      [begin - 49_000_000, fault('pause', 'end', 'client-1', 'threads run again')],
      [begin - 40_000_000, fault('partition', 'start', 'client-1', 'cut off from redis-0')],
      [begin - 1_000, fault('failover', 'event', 'redis-1', 'promoted')],
      [begin, lockOp('acquire', 'ok', 'r1')],
      [begin, keyState('redis-1', 'r1')],
      [begin + 500, fault('clock-jump', 'event', 'redis-1', 'clock jumps forward by 20s')],
      [begin + 2_000, end()],
    ]);
    expect(lines).toEqual([
      '30000000 nemesis: partition start: cut off from redis-0',
      '69999000 nemesis: failover event: promoted',
      '70000000 client-1/w1: r1 acquired lock:stock:1',
      '70000000 redis-1: lock:stock:1 held by r1 (write, expires 1000s)',
      '70000500 nemesis: clock-jump event: clock jumps forward by 20s',
    ]);
  });

  it('tells faults on the involved requests\' clients and nodes, not on other clients', () => {
    const lines = story(violation(9_000, ['r1', 'r2']), [
      [0, setup()],
      [1_000, lockOp('acquire', 'ok', 'r1')],
      [1_000, keyState('redis-0', 'r1', { expiresAtUs: 5_000 })],
      [2_000, fault('gc-pause', 'start', 'client-3', 'stop-the-world pause of 9s')],
      [2_500, fault('gc-pause', 'start', 'client-1', 'stop-the-world pause of 9s')],
      [3_000, fault('redis-pause', 'start', 'redis-4', 'DEBUG SLEEP')],
      [3_500, fault('slow-call', 'start', 'risk-check', 'latency now 9s')],
      [5_000, keyState('redis-0', null, { cause: 'expire', by: '', previousHolder: 'r1' })],
      [6_000, keyState('redis-0', 'r2', { expiresAtUs: 10_000 })],
      [6_000, lockOp('acquire', 'ok', 'r2', { thread: 'client-2/w1' })],
    ]);
    expect(lines).toEqual([
      '1000 client-1/w1: r1 acquired lock:stock:1',
      '1000 redis-0: lock:stock:1 held by r1 (write, expires 5ms)',
      '2500 nemesis: gc-pause start: stop-the-world pause of 9s',
      '3500 nemesis: slow-call start: latency now 9s',
      '5000 redis-0: lock:stock:1 gone: r1\'s lock expired',
      '6000 redis-0: lock:stock:1 held by r2 (write, expires 10ms)',
      '6000 client-2/w1: r2 acquired lock:stock:1',
    ]);
  });

  it('tells the causal chain of two Redlock holders and sums up the churn of other requests in one line', () => {
    // redlock-clock-jump's shape: r1 holds redis-2..4, others lock and unlock around it, the
    // clock of redis-2 jumps and its key expires, r2 (after attempts that missed the quorum)
    // wins redis-0..2.
    const entries: Entry[] = [[0, setup({ lockNodes: ['redis-0', 'redis-1', 'redis-2', 'redis-3', 'redis-4'], quorum: 3 })]];
    entries.push([900, lockOp('acquire', 'invoke', 'r1', { thread: 'client-2/w1' })]);
    for (const node of ['redis-4', 'redis-3', 'redis-2']) entries.push([1_000, keyState(node, 'r1', { expiresAtUs: 11_000_000 })]);
    entries.push([1_100, lockOp('acquire', 'ok', 'r1', { thread: 'client-2/w1', leaseMs: 10_000 })]);
    entries.push([1_500, lockOp('acquire', 'invoke', 'r2')]);
    for (let i = 0; i < 6; i++) {
      const node = `redis-${i % 2}`;
      entries.push([2_000 + i * 100, keyState(node, `r${10 + i}`)], [2_050 + i * 100, keyState(node, null, { previousHolder: `r${10 + i}`, by: `r${10 + i}` })]);
    }
    entries.push([3_000, keyState('redis-0', 'r2')], [3_010, keyState('redis-0', null, { previousHolder: 'r2', by: 'r2' })]);
    entries.push([4_000, fault('clock-jump', 'event', 'redis-2', 'clock jumps forward by 20s')]);
    entries.push([4_000, keyState('redis-2', null, { cause: 'expire', by: '', previousHolder: 'r1' })]);
    for (const node of ['redis-0', 'redis-1', 'redis-2']) entries.push([5_000, keyState(node, 'r2', { expiresAtUs: 15_000_000 })]);
    entries.push([5_100, lockOp('acquire', 'ok', 'r2', { leaseMs: 10_000 })]);
    expect(story(violation(5_100, ['r1', 'r2']), entries)).toEqual([
      '1000 redis-4: lock:stock:1 held by r1 (write, expires 11s)',
      '1000 redis-3: lock:stock:1 held by r1 (write, expires 11s)',
      '1000 redis-2: lock:stock:1 held by r1 (write, expires 11s)',
      '1100 client-2/w1: r1 acquired lock:stock:1 (lease 10s)',
      '2000 others: meanwhile 6 other requests (r10, r11, r12, r13, ...) and r2\'s earlier attempts took and freed lock:stock:1 14 times on redis-0, redis-1',
      '4000 nemesis: clock-jump event: clock jumps forward by 20s',
      '4000 redis-2: lock:stock:1 gone: r1\'s lock expired',
      '5000 redis-0: lock:stock:1 held by r2 (write, expires 15s)',
      '5000 redis-1: lock:stock:1 held by r2 (write, expires 15s)',
      '5000 redis-2: lock:stock:1 held by r2 (write, expires 15s)',
      '5100 client-1/w1: r2 acquired lock:stock:1 (lease 10s)',
    ]);
  });

  it('tells a holder\'s key once per node when renewals rewrite it: its first write and its last', () => {
    const entries: Entry[] = [[0, setup()], [1_000, lockOp('acquire', 'ok', 'r1')], [1_000, keyState('redis-0', 'r1', { expiresAtUs: 31_000 })]];
    for (let i = 1; i <= 5; i++) entries.push([1_000 + i * 10_000, keyState('redis-0', 'r1', { expiresAtUs: 31_000 + i * 10_000, cause: 'renew' })]);
    entries.push([60_000, keyState('redis-1', 'r1', { expiresAtUs: null, cause: 'write' }), ], [60_000, keyState('redis-1', 'r1', { expiresAtUs: 90_000, cause: 'ttl' })]);
    expect(story(violation(70_000, ['r1']), entries)).toEqual([
      '1000 client-1/w1: r1 acquired lock:stock:1',
      '1000 redis-0: lock:stock:1 held by r1 (write, expires 31ms)',
      '51000 redis-0: lock:stock:1 held by r1 (renew, expires 81ms)',
      // A write and its PEXPIRE at one instant: told once, with the TTL.
      '60000 redis-1: lock:stock:1 held by r1 (ttl, expires 90ms)',
    ]);
  });

  it('keeps the causal lines and the 10 lines of context nearest the violation', () => {
    const entries: Entry[] = [[0, setup()], [1_000, lockOp('acquire', 'ok', 'r1')]];
    for (let i = 1; i <= 20; i++) entries.push([1_000 + i * 100, { process: 'client-1/w1', request: 'r1', type: 'info', f: 'renew', detail: `renewal ${i}` }]);
    const s = tellStory(violation(9_000, ['r1']), history(entries));
    expect(s.lines.map((l) => l.what)).toEqual([
      'r1 acquired lock:stock:1',
      ...Array.from({ length: 10 }, (_, i) => `watchdog of r1: renewal ${i + 11}`),
    ]);
    // Its neighbour: 10 lines of context are told whole.
    const ten = tellStory(violation(9_000, ['r1']), history(entries.slice(0, 12)));
    expect(ten.lines.map((l) => l.what)).toEqual([
      'r1 acquired lock:stock:1',
      ...Array.from({ length: 10 }, (_, i) => `watchdog of r1: renewal ${i + 1}`),
    ]);
  });
});
