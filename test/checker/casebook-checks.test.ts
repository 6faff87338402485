/**
 * The checker's casebook judgements on hand-written histories: duplicate orders, fencing
 * tokens that go backwards, refused writes by kind, and Redlock's quorum view of a lock.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../src/checker/check-history.js';
import type { NewOperation } from '../../src/history/operation.js';
import { history } from './histories.js';

const K = 'lock:stock:1';
const setup = (available: number, lockNodes: string[] = [], quorum = 1): NewOperation => ({
  process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available }], primary: 'redis-0', lockNodes, quorum, durationUs: 10_000_000,
});
const end: NewOperation = { process: 'setup', type: 'info', f: 'end' };
const order = (request: string, orderKey: string): NewOperation => ({ process: 'client-1/w1', request, type: 'ok', f: 'order', sku: 1, qty: 1, orderKey });
const acquired = (request: string, fence?: number): NewOperation => ({ process: `client-1/${request}`, request, type: 'ok', f: 'acquire', key: K, leaseMs: 1000, fence });
const keyOn = (node: string, holder: string | null, expiresAtUs: number | null = 9_000_000): NewOperation => ({
  process: node, type: 'info', f: 'key-state', node, key: K, holder, expiresAtUs: holder ? expiresAtUs : null, cause: holder ? 'write' : 'delete', by: holder ?? '', previousHolder: null,
});

describe('duplicate orders', () => {
  it('counts an order key committed twice, once per extra commit', () => {
    const { metrics, violations } = checkHistory(history([[0, setup(10)], [1, order('r1', 'o1')], [2, order('r2', 'o2')], [3, order('r3', 'o1')], [4, order('r4', 'o1')], [5, end]]));
    expect(metrics.duplicateOrders).toBe(2);
    expect(violations.find((v) => v.kind === 'duplicate-order')?.requests).toEqual(['r1', 'r3']);
  });
  it('does not count a refused insert or distinct keys', () => {
    const refused: NewOperation = { process: 'client-1/w1', request: 'r2', type: 'fail', f: 'order', sku: 1, qty: 1, orderKey: 'o1', detail: 'Duplicate entry' };
    const { metrics } = checkHistory(history([[0, setup(10)], [1, order('r1', 'o1')], [2, refused], [3, order('r3', 'o3')], [4, end]]));
    expect(metrics.duplicateOrders).toBe(0);
  });
});

describe('fencing tokens', () => {
  it('flags a token that repeats or goes backwards for the same key', () => {
    const { metrics, violations } = checkHistory(history([[0, setup(10)], [1, acquired('r1', 33)], [2, acquired('r2', 34)], [3, acquired('r3', 34)], [4, acquired('r4', 20)], [5, acquired('r5', 35)], [6, end]]));
    expect(metrics.staleTokens).toBe(2);
    expect(violations.find((v) => v.kind === 'stale-token')?.summary).toContain('r3 got fencing token 34');
  });
  it('accepts strictly increasing tokens', () => {
    const { metrics } = checkHistory(history([[0, setup(10)], [1, acquired('r1', 1)], [2, acquired('r2', 2)], [3, acquired('r3', 7)], [4, end]]));
    expect(metrics.staleTokens).toBe(0);
  });
});

describe('refused writes by kind', () => {
  const write = (request: string, extra: Partial<Extract<NewOperation, { f: 'write-stock' }>>): NewOperation => ({
    process: 'client-1/w1', request, type: 'ok', f: 'write-stock', sku: 1, qty: 1, mode: 'cas', value: 9, basedOn: 10, affected: 1, ...extra,
  });
  it('tells CAS conflicts, fence rejections and sold-out refusals apart, and none is a lost update', () => {
    const { metrics } = checkHistory(history([
      [0, setup(10)],
      [1, write('r1', {})],
      [2, write('r2', { affected: 0 })], // CAS conflict: no change
      [3, write('r3', { mode: 'set', fence: 3, affected: 0 })], // stale token
      [4, write('r4', { mode: 'deduct', affected: 0 })], // sold out
      [5, write('r5', { mode: 'decrement' })], // 9 -> 8
      [6, write('r6', { mode: 'cas', value: 7, basedOn: 8 })],
      [7, end],
    ]));
    expect(metrics).toMatchObject({ casConflicts: 1, fenceRejections: 1, refusedWrites: 1, lostUpdates: 0, negativeStock: 0 });
  });
});

describe('Redlock quorum view', () => {
  const nodes = ['redis-0', 'redis-1', 'redis-2', 'redis-3', 'redis-4'];
  const cs = (request: string, from: number, to: number): Array<[number, NewOperation]> => [
    [from, { process: `client-x/${request}`, request, type: 'ok', f: 'acquire', key: K, leaseMs: 1000 }],
    [to, { process: `client-x/${request}`, request, type: 'invoke', f: 'release', key: K }],
  ];
  it('keeps the lock while its holder has a quorum of masters, and loses it below', () => {
    const { metrics } = checkHistory(history([
      [0, setup(10, nodes, 3)],
      [10, keyOn('redis-0', 'r1')],
      [11, keyOn('redis-1', 'r1')],
      [12, keyOn('redis-2', 'r1')],
      ...cs('r1', 20, 5_000),
      [1_000, keyOn('redis-2', null)], // 2 of 5 left: no quorum from here
      [6_000, end],
    ]));
    expect(metrics.lockLost).toBe(1);
  });
  it('does not call a lock lost when a minority of masters drops it', () => {
    const { metrics } = checkHistory(history([
      [0, setup(10, nodes, 3)],
      ...nodes.map((n, i): [number, NewOperation] => [10 + i, keyOn(n, 'r1')]),
      ...cs('r1', 20, 5_000),
      [1_000, keyOn('redis-3', null)],
      [1_001, keyOn('redis-4', null)],
      [6_000, end],
    ]));
    expect(metrics.lockLost).toBe(0);
  });
});
