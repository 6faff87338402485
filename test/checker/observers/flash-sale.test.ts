/** Flash-sale metrics: sell-out time, arrivals, busy share, latency by outcome; fed request by request. */
import { describe, expect, it } from 'vitest';
import { FlashSaleObserver, OUTCOME_GROUP } from '../../../src/checker/observers/flash-sale.js';
import type { Outcome } from '../../../src/checker/observer.js';
import type { RequestOutcome, SetupOp } from '../../../src/history/operation.js';
import { runYaml } from '../../helpers.js';

const S = 1_000_000;
const MS = 1_000;
interface FinishedRequest {
  qty: number;
  invokeUs: number;
  endUs: number | null;
  outcome: Outcome;
}
/** Times in milliseconds. */
const req = (invokeMs: number, endMs: number | null, outcome: Outcome, qty = 1): FinishedRequest => ({
  qty, invokeUs: invokeMs * MS, endUs: endMs === null ? null : endMs * MS, outcome,
});
/** Heard as a run hears them: answered ones in answer order, then the never-answered. */
const inAnswerOrder = (requests: FinishedRequest[]): FinishedRequest[] =>
  [...requests].sort((a, b) => (a.endUs ?? Infinity) - (b.endUs ?? Infinity));
const observer = (stockUnits: number): FlashSaleObserver => {
  const o = new FlashSaleObserver();
  const setup: SetupOp = { index: 0, timeUs: 0, process: 'setup', type: 'info', f: 'setup', stock: [{ sku: 1, available: stockUnits }], primary: 'redis-0', lockNodes: [], quorum: 1, durationUs: 10 * S };
  o.setup(setup);
  return o;
};
const add = (o: FlashSaleObserver, r: FinishedRequest): void => o.answer(r.qty, r.invokeUs, r.endUs, r.outcome);
const metricsOf = (stockUnits: number, requests: FinishedRequest[]) => {
  const o = observer(stockUnits);
  for (const r of inAnswerOrder(requests)) add(o, r);
  return o.result();
};

describe('flash-sale metrics', () => {
  const sale = [
    req(0, 4000, 'ordered'), // arrived first, answered last of the orders
    req(1000, 1500, 'ordered'),
    req(2000, 2200, 'lock-busy'),
    req(3000, 3500, 'ordered'),
    req(4000, 4100, 'sold-out'),
    req(5000, 9000, 'db-error'),
    req(6000, null, 'unknown'),
  ];

  it('sells out when the units ordered reach the stock, by answer time', () => {
    expect(metricsOf(3, sale).soldOutUs).toBe(4 * S);
    expect(metricsOf(2, sale).soldOutUs).toBe(3.5 * S);
    // One unit short: never sold out.
    expect(metricsOf(4, sale).soldOutUs).toBe(-1);
    expect(metricsOf(3, [req(0, 1000, 'ordered', 2), req(1000, 2000, 'ordered')]).soldOutUs).toBe(2 * S);
    // Two orders answered at one instant take the last unit together: either order, same time.
    expect(metricsOf(3, [req(0, 1000, 'ordered', 2), req(500, 2000, 'ordered'), req(600, 2000, 'ordered')]).soldOutUs).toBe(2 * S);
  });

  it('refuses an order heard before one answered earlier (it keeps a running sum, not the orders)', () => {
    const c = observer(3);
    add(c, req(1000, 1500, 'ordered'));
    add(c, req(2000, 1500, 'ordered')); // the same answer time: fine
    add(c, req(3000, 3000, 'sold-out'));
    expect(() => add(c, req(0, 1400, 'ordered'))).toThrow(/answer order/);
  });

  it('counts arrivals per second and the share of answers that were "lock busy"', () => {
    const m = metricsOf(3, sale);
    expect(m.arrivalsPerS).toBe(0.7);
    // 1 busy of 6 answered (the unknown one was never answered).
    expect(m.busyShare).toBe(0.1667);
    expect(metricsOf(3, sale.filter((r) => r.outcome !== 'lock-busy')).busyShare).toBe(0);
  });

  it('splits latency by outcome: ordered, refused, error', () => {
    const m = metricsOf(3, sale);
    expect(m.latency.ordered).toEqual({ count: 3, p50Us: 0.5 * S, p99Us: 4 * S });
    expect(m.latency.refused).toEqual({ count: 2, p50Us: 0.1 * S, p99Us: 0.2 * S });
    expect(m.latency.error).toEqual({ count: 1, p50Us: 4 * S, p99Us: 4 * S });
  });

  it('counts every outcome in the group OUTCOME_GROUP gives it', () => {
    for (const [outcome, group] of Object.entries(OUTCOME_GROUP)) {
      const m = metricsOf(0, [req(0, 1000, outcome as RequestOutcome)]);
      const counts = { ordered: m.latency.ordered.count, refused: m.latency.refused.count, error: m.latency.error.count };
      expect([outcome, counts]).toEqual([outcome, { ordered: 0, refused: 0, error: 0, [group]: 1 }]);
    }
  });

  it('agrees with the history of a real run', () => {
    const r = runYaml(`name: f
duration: 10s
stock: { sku: 1, available: 20 }
workload: { clients: 2, workers: 4, arrival: 20/s, steps: [lock, read, deduct, order, unlock] }
variants:
  a: { lock: lua-unlock, lease: 5s }
`);
    const f = r.metrics.flashSale;
    const orderEnds = r.history.filter((op) => op.f === 'request' && op.type === 'ok' && 'outcome' in op && op.outcome === 'ordered').map((op) => op.timeUs).sort((a, b) => a - b);
    expect(orderEnds.length).toBeGreaterThanOrEqual(20);
    expect(f.soldOutUs).toBe(orderEnds[19]);
    expect(f.arrivalsPerS).toBe(Math.round((r.metrics.requests / 10) * 100) / 100);
    expect(f.latency.ordered.count).toBe(r.metrics.orders);
    expect(f.busyShare).toBeGreaterThan(0);
    expect(r.metrics.outcomes['sold-out']).toBeGreaterThan(0);
  });
});
