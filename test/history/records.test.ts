/**
 * History records: one hidden class per kind (records.ts). Every record of a kind lists the
 * same fields in the same order, `index` and `timeUs` first, whether or not its optional
 * fields are set; an absent optional field is undefined and left out of the JSON.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/history/operation.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runVariant } from '../../src/runner/run.js';
import { faultRecord, keyStateRecord, recycleRecords, requestRecord, txnRecord } from '../../src/history/records.js';

function shapesByKind(ops: readonly Operation[]): Map<string, Set<string>> {
  const shapes = new Map<string, Set<string>>();
  for (const op of ops) {
    const set = shapes.get(op.f) ?? new Set<string>();
    set.add(Object.keys(op).join(','));
    shapes.set(op.f, set);
  }
  return shapes;
}

describe('history records', () => {
  // A run with lock timeouts, failed and unknown acquires, CAS retries and transactions.
  const scenario = loadScenario('scenarios/version-cas-retry-storm.yaml');
  const runs = scenario.variants.map((v) => runVariant(scenario, v));

  it('have one field list per kind, index and timeUs first', () => {
    for (const run of runs) {
      for (const [kind, shapes] of shapesByKind(run.history)) {
        expect([kind, shapes.size]).toEqual([kind, 1]);
        expect([...shapes][0].startsWith('index,timeUs,process,type,f')).toBe(true);
      }
    }
  });

  it('are numbered in order and stamped with non-decreasing times', () => {
    for (const run of runs) {
      const misnumbered = run.history.findIndex((op, i) => op.index !== i);
      const backwards = run.history.findIndex((op, i) => i > 0 && op.timeUs < run.history[i - 1].timeUs);
      expect([misnumbered, backwards]).toEqual([-1, -1]);
    }
  });

  it('leave unset optional fields out of their JSON, and keep the set ones', () => {
    const ops = runs.flatMap((r) => r.history);
    const invoke = ops.find((o) => o.f === 'acquire' && o.type === 'invoke');
    const ok = ops.find((o) => o.f === 'acquire' && o.type === 'ok');
    expect(invoke && Object.keys(JSON.parse(JSON.stringify(invoke)))).not.toContain('detail');
    expect(ok && Object.keys(JSON.parse(JSON.stringify(ok)))).toContain('leaseMs');
  });
});

describe('recycled records (a run that keeps no history)', () => {
  it('refill one record per kind while recycling is on, and are fresh objects otherwise', () => {
    recycleRecords(true);
    try {
      const a = requestRecord('client-1/w1', 'invoke', 'r1', 10, 1, undefined);
      const b = requestRecord('client-1/w2', 'ok', 'r2', 11, 2, 'ordered');
      const k = keyStateRecord('redis-0', 'lock:10', 'r2', null, 'set', 'r2', null);
      expect(b).toBe(a);
      expect(k).not.toBe(a);
      expect([b.process, b.type, b.request, b.sku, b.qty, b.outcome]).toEqual(['client-1/w2', 'ok', 'r2', 11, 2, 'ordered']);
    } finally {
      recycleRecords(false);
    }
    expect(requestRecord('c', 'invoke', 'r1', 1, 1, undefined)).not.toBe(requestRecord('c', 'invoke', 'r1', 1, 1, undefined));
  });

  it('hold, field by field, what a fresh record of their kind holds', () => {
    const build = () => [requestRecord('p', 'ok', 'r1', 1, 1, 'ordered'), keyStateRecord('n', 'k', null, null, 'del', '', 'r1'), txnRecord('r1', 'p', 3, 'commit', 'commit'), faultRecord('crash', 'start', 'client-1', 'kill -9')];
    const fresh = build();
    recycleRecords(true);
    try {
      const reused = build();
      const ownFields = (o: object, kind: object) => Object.fromEntries(Object.keys(kind).map((k) => [k, (o as Record<string, unknown>)[k]]));
      expect(reused.map((o, i) => ownFields(o, fresh[i]))).toEqual(fresh.map((o) => ({ ...o })));
    } finally {
      recycleRecords(false);
    }
  });

  it('list the same fields in the same order whatever their kind (one hidden class)', () => {
    recycleRecords(true);
    try {
      const kinds = [requestRecord('p', 'ok', 'r1', 1, 1, 'ordered'), keyStateRecord('n', 'k', null, null, 'del', '', 'r1'), txnRecord('r1', 'p', 3, 'commit', 'commit'), faultRecord('crash', 'start', 'client-1', 'kill -9')];
      expect(new Set(kinds.map((o) => Object.keys(o).join(','))).size).toBe(1);
      expect(Object.keys(kinds[0]).slice(0, 5)).toEqual(['index', 'timeUs', 'process', 'type', 'f']);
    } finally {
      recycleRecords(false);
    }
  });

  // Statements inside transactions wait in the stock check until their commit: the checker
  // keeps copies, so refilled records judge as kept ones do (lease-5s+for-update commits
  // every deduction and order in a transaction).
  const txnScenario = loadScenario('scenarios/lease-vs-slow-risk-check.yaml');
  for (const variant of txnScenario.variants) {
    it(`judge ${variant.name} of lease-vs-slow-risk-check.yaml as the kept history does`, () => {
      for (const seed of [1, 2]) {
        const all = runVariant(txnScenario, variant, seed);
        const none = runVariant(txnScenario, variant, seed, { history: 'none' });
        expect({ seed, metrics: none.metrics, violations: none.violations }).toEqual({ seed, metrics: all.metrics, violations: all.violations });
      }
    });
  }

  it('are fresh objects again after a run that recycled them', () => {
    runVariant(txnScenario, txnScenario.variants[0], 1, { history: 'none' });
    expect(requestRecord('c', 'invoke', 'r1', 1, 1, undefined)).not.toBe(requestRecord('c', 'invoke', 'r1', 1, 1, undefined));
  });
});
