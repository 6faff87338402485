/**
 * The request flow's transactions (guard for-update): COMMIT before the unlock, ROLLBACK when
 * a statement inside failed, and the database's rollback of a dead client's transaction. The
 * stock the history's committed writes leave must equal the initial stock minus the units
 * sold, whatever ended each transaction.
 */
import { describe, expect, it } from 'vitest';
import type { History } from '../../src/history/operation.js';
import { runYaml } from '../helpers.js';

const world = (opts: { steps: string; variant?: string; workload?: string; faults?: string; dependencies?: string; duration?: string }) => `
name: flow
duration: ${opts.duration ?? '20s'}
drain: 120s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 2, ${opts.workload ?? 'users: 2, think: 100ms'}, steps: ${opts.steps} }
dependencies: { ${opts.dependencies ?? 'work: 1s'} }
faults: ${opts.faults ?? '[]'}
variants:
  v: { lock: none, guard: for-update ${opts.variant ?? ''} }
`;

/** The stock after the last committed write (transactions count from their commit). */
function committedStock(history: History, initial: number): number {
  const committed = new Set(history.flatMap((op) => (op.f === 'txn' && op.outcome === 'commit' ? [op.txn] : [])));
  let stock = initial;
  for (const op of history) {
    if (op.f !== 'write-stock' || op.type !== 'ok' || op.affected === 0) continue;
    if (op.txn !== undefined && !committed.has(op.txn)) continue;
    stock = op.value ?? stock - op.qty;
  }
  return stock;
}

const txnEnds = (history: History, cause: string) => history.filter((op) => op.f === 'txn' && op.cause === cause);

describe('request flow with transactions', () => {
  it('rolls back the deduction of a request whose order insert hits the unique key', () => {
    const r = runYaml(world({ steps: '[read, deduct, order]', variant: ', order-key: unique', workload: 'arrival: 2/s, resubmit: 1, resubmit-after: 2s' }));
    expect(r.metrics.outcomes.duplicate).toBeGreaterThan(0);
    expect(r.metrics.duplicateOrders).toBe(0);
    expect(txnEnds(r.history, 'rollback')).toHaveLength(r.metrics.outcomes.duplicate);
    // Each copy deducted a unit inside its transaction; none of those deductions stayed.
    expect(committedStock(r.history, 1000)).toBe(1000 - r.metrics.unitsSold);
    expect(r.metrics.lostUpdates).toBe(0);
  });

  it('commits every copy when no unique key refuses it (the copies are duplicate orders)', () => {
    const r = runYaml(world({ steps: '[read, deduct, order]', workload: 'arrival: 2/s, resubmit: 1, resubmit-after: 2s' }));
    expect(r.metrics.duplicateOrders).toBeGreaterThan(0);
    expect(txnEnds(r.history, 'rollback')).toHaveLength(0);
    expect(committedStock(r.history, 1000)).toBe(1000 - r.metrics.unitsSold);
  });

  it('loses the deduction of a client killed inside its transaction, not the stock', () => {
    // At 4.5 s a request of client 1 has deducted and works before its order insert.
    const r = runYaml(world({ steps: '[read, deduct, work, order]', faults: '[{ kind: crash, client: 1, at: 4500ms, restart-after: 1s }]' }));
    const dropped = new Set(txnEnds(r.history, 'disconnect').map((op) => (op.f === 'txn' ? op.txn : -1)));
    expect(r.history.some((op) => op.f === 'write-stock' && op.type === 'ok' && op.txn !== undefined && dropped.has(op.txn))).toBe(true);
    expect(committedStock(r.history, 1000)).toBe(1000 - r.metrics.unitsSold);
  });

  it('commits what requests deducted when no client dies', () => {
    const r = runYaml(world({ steps: '[read, deduct, work, order]' }));
    expect(txnEnds(r.history, 'disconnect')).toHaveLength(0);
    expect(r.metrics.unitsSold).toBeGreaterThan(5);
    expect(committedStock(r.history, 1000)).toBe(1000 - r.metrics.unitsSold);
  });

  it('rolls back a transaction whose statement timed out waiting for the row lock', () => {
    // A 60 s request holds the row lock; the other's SELECT ... FOR UPDATE gives up after 50 s.
    const r = runYaml(world({ steps: '[read, work, deduct, order]', dependencies: 'work: 60s', duration: '1s' }));
    expect(r.metrics.outcomes['db-error']).toBeGreaterThan(0);
    expect(txnEnds(r.history, 'rollback')).toHaveLength(r.metrics.outcomes['db-error']);
    expect(r.history.some((op) => op.f === 'read-stock' && op.type === 'fail' && op.detail?.startsWith('Lock wait timeout'))).toBe(true);
  });
});
