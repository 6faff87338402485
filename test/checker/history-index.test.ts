/**
 * The history index the checkers share: critical sections and how each ended, crashes, the
 * initial stock and the run's end.
 */
import { describe, expect, it } from 'vitest';
import { clientOfThread, indexHistory } from '../../src/checker/history-index.js';
import { end, fault, history, K, keyState, lockOp, requestOp, setup, type Entry } from './histories.js';

/** Request `id` on `thread`: arrives at `from`, holds the lock from `from` + 10. */
const entering = (id: string, from: number, thread = 'client-1/w1', leaseMs: number | null = 1000): Entry[] => [
  [from, requestOp('invoke', id, { client: clientOfThread(thread) })],
  [from + 1, lockOp('acquire', 'invoke', id, { thread })],
  [from + 10, lockOp('acquire', 'ok', id, { thread, leaseMs })],
];

describe('indexHistory', () => {
  it('reads the setup: stock per SKU (summed over repeated rows), primary, Redlock masters, quorum, owner, duration', () => {
    const index = indexHistory(history([
      [0, {
        process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available: 3 }, { sku: 2, available: 5 }, { sku: 1, available: 4 }],
        primary: 'redis-2', lockNodes: ['redis-0', 'redis-1', 'redis-2'], quorum: 2, durationUs: 7_000, lockOwner: 'thread',
      }],
      [9_000, end()],
    ]));
    expect([...index.stock]).toEqual([[1, 7], [2, 5]]);
    expect(index).toMatchObject({ initialPrimary: 'redis-2', lockNodes: ['redis-0', 'redis-1', 'redis-2'], quorum: 2, lockOwner: 'thread', durationUs: 7_000, endUs: 9_000 });
    expect(indexHistory(history([[0, setup()]])).lockOwner).toBe('request');
  });

  it('ends the run at its last operation', () => {
    const index = indexHistory(history([[0, setup()], [500, requestOp('invoke', 'r1')], [700, end()]]));
    expect(index.endUs).toBe(700);
  });

  it('records requests with their client, arrival and completion', () => {
    const index = indexHistory(history([
      [0, setup()],
      [100, requestOp('invoke', 'r1', { client: 'client-2', sku: 3 })],
      [200, requestOp('invoke', 'r2')],
      [300, requestOp('ok', 'r1', { client: 'client-2', outcome: 'ordered', sku: 3 })],
      [400, requestOp('ok', 'r9', { outcome: 'ordered' })], // a completion without an arrival is ignored
      [500, end()],
    ]));
    expect(index.requests.get('r1')).toMatchObject({ id: 'r1', client: 'client-2', sku: 3, qty: 1, invokeUs: 100, end: { timeUs: 300, outcome: 'ordered' } });
    expect(index.requests.get('r2')?.end).toBeNull();
    expect([...index.requests.keys()]).toEqual(['r1', 'r2']);
  });

  it('opens a critical section at a successful acquire and ends it when the release is invoked', () => {
    const index = indexHistory(history([
      [0, setup()],
      ...entering('r1', 0, 'client-1/w1', 30_000),
      [500, lockOp('release', 'invoke', 'r1')],
      [600, lockOp('release', 'ok', 'r1')],
      [700, requestOp('ok', 'r1', { outcome: 'ordered' })],
      [800, requestOp('invoke', 'r2')],
      [801, lockOp('acquire', 'invoke', 'r2')],
      [900, lockOp('acquire', 'fail', 'r2')], // no section
      [901, requestOp('fail', 'r2', { outcome: 'lock-busy' })],
      [1_000, end()],
    ]));
    expect(index.sections).toEqual([
      { request: 'r1', thread: 'client-1/w1', client: 'client-1', key: K, startUs: 10, endUs: 500, leaseMs: 30_000, endedBy: 'release' },
    ]);
  });

  it('ends a section without a release at its request\'s end, and one still open at the run\'s end', () => {
    const index = indexHistory(history([
      [0, setup()],
      ...entering('r1', 0, 'client-1/w1', null),
      [300, requestOp('fail', 'r1', { outcome: 'db-error' })],
      ...entering('r2', 400, 'client-1/w2'),
      [900, end()],
    ]));
    expect(index.sections.map((s) => [s.request, s.startUs, s.endUs, s.endedBy, s.leaseMs])).toEqual([
      ['r1', 10, 300, 'request-end', null],
      ['r2', 410, 900, 'run-end', 1000],
    ]);
  });

  it('ends the sections of a client at its crash, not those of another client nor at its restart', () => {
    const index = indexHistory(history([
      [0, setup()],
      ...entering('r1', 0, 'client-1/w1'),
      ...entering('r2', 0, 'client-2/w1'),
      [100, fault('crash', 'start', 'client-1', 'kill -9')],
      [200, fault('crash', 'end', 'client-1', 'restarted')],
      ...entering('r3', 300, 'client-1/w1'),
      [400, fault('crash', 'end', 'client-2', 'restarted')],
      [500, fault('pause', 'start', 'client-2', 'GC')],
      [600, fault('crash', 'start', 'client-22', 'kill -9')],
      [700, fault('crash', 'start', 'client-1', 'kill -9')],
      [900, end()],
    ]));
    expect(index.sections.map((s) => [s.request, s.startUs, s.endUs, s.endedBy])).toEqual([
      ['r1', 10, 100, 'crash'],
      ['r2', 10, 900, 'run-end'],
      ['r3', 310, 700, 'crash'],
    ]);
    expect([...index.crashes]).toEqual([['client-1', [100, 700]], ['client-22', [600]]]);
  });

  it('orders sections by start, then by request', () => {
    const index = indexHistory(history([
      [0, setup()],
      ...entering('r3', 100, 'client-1/w3'),
      ...entering('r1', 100, 'client-1/w1'),
      ...entering('r2', 95, 'client-1/w2'),
      [1_000, end()],
    ]));
    expect(index.sections.map((s) => [s.request, s.startUs])).toEqual([['r2', 105], ['r1', 110], ['r3', 110]]);
  });

  it('names the client of a thread', () => {
    expect(clientOfThread('client-12/w3')).toBe('client-12');
    expect(clientOfThread('client-1')).toBe('client-1');
  });

  it('counts unknown acquires and releases, not failed or completed ones, and renewals by result', () => {
    const renew = (type: 'ok' | 'fail'): Entry[1] => ({ process: 'client-1/w1/watchdog', type, f: 'renew', request: 'r1', detail: '' });
    const index = indexHistory(history([
      [0, setup()],
      [10, lockOp('acquire', 'info', 'r1')],
      [20, lockOp('acquire', 'fail', 'r2')],
      [30, lockOp('acquire', 'ok', 'r3')],
      [40, lockOp('release', 'info', 'r3')],
      [50, lockOp('release', 'ok', 'r4')],
      [60, renew('ok')],
      [70, renew('ok')],
      [80, renew('fail')],
      [90, end()],
    ]));
    expect([index.timeouts, index.renewals, index.renewalFailures]).toEqual([2, 2, 1]);
  });

  it('keeps the key-state facts and the failovers, in order, and no other fault', () => {
    const index = indexHistory(history([
      [0, setup()],
      [10, keyState('redis-0', 'r1')],
      [20, fault('primary-crash', 'start', 'redis-0')],
      [30, fault('failover', 'event', 'redis-1')],
      [40, keyState('redis-1', null)],
      [50, end()],
    ]));
    expect(index.keyEvents.map((o) => o.timeUs)).toEqual([10, 30, 40]);
  });
});
