/**
 * History records: one hidden class per kind (records.ts). Every record of a kind lists the
 * same fields in the same order, `index` and `timeUs` first, whether or not its optional
 * fields are set; an absent optional field is undefined and left out of the JSON.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/history/operation.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runVariant } from '../../src/runner/run.js';
import { faultRecord, keyStateRecord, RecordBuilder, requestRecord, txnRecord } from '../../src/history/records.js';
import { HistoryRecorder } from '../../src/history/recorder.js';

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
  it('refill one record per kind in a recycling builder, and are fresh objects otherwise', () => {
    const pool = RecordBuilder.recycling();
    const a = pool.request('client-1/w1', 'invoke', 'r1', 10, 1, undefined);
    const b = pool.request('client-1/w2', 'ok', 'r2', 11, 2, 'ordered');
    const k = pool.keyState('redis-0', 'lock:10', 'r2', null, 'set', 'r2', null);
    expect(b).toBe(a);
    expect(k).not.toBe(a);
    expect([b.process, b.type, b.request, b.sku, b.qty, b.outcome]).toEqual(['client-1/w2', 'ok', 'r2', 11, 2, 'ordered']);
    expect(requestRecord('c', 'invoke', 'r1', 1, 1, undefined)).not.toBe(requestRecord('c', 'invoke', 'r1', 1, 1, undefined));
    // Each builder refills its own records: another one's do not change.
    const other = RecordBuilder.recycling().request('client-9/w1', 'invoke', 'r9', 1, 1, undefined);
    expect([other === a, a.request]).toEqual([false, 'r2']);
  });

  it('hold, field by field, what a fresh record of their kind holds', () => {
    const build = (r: RecordBuilder) => [r.request('p', 'ok', 'r1', 1, 1, 'ordered'), r.keyState('n', 'k', null, null, 'del', '', 'r1'), r.txn('r1', 'p', 3, 'commit', 'commit'), r.fault('crash', 'start', 'client-1', 'kill -9')];
    const fresh = build(RecordBuilder.fresh());
    const reused = build(RecordBuilder.recycling());
    const ownFields = (o: object, kind: object) => Object.fromEntries(Object.keys(kind).map((k) => [k, (o as Record<string, unknown>)[k]]));
    expect(reused.map((o, i) => ownFields(o, fresh[i]))).toEqual(fresh.map((o) => ({ ...o })));
    expect([requestRecord('p', 'ok', 'r1', 1, 1, 'ordered'), keyStateRecord('n', 'k', null, null, 'del', '', 'r1'), txnRecord('r1', 'p', 3, 'commit', 'commit'), faultRecord('crash', 'start', 'client-1', 'kill -9')]).toEqual(fresh);
  });

  it('list the same fields in the same order whatever their kind (one hidden class)', () => {
    const r = RecordBuilder.recycling();
    const kinds = [r.request('p', 'ok', 'r1', 1, 1, 'ordered'), r.keyState('n', 'k', null, null, 'del', '', 'r1'), r.txn('r1', 'p', 3, 'commit', 'commit'), r.fault('crash', 'start', 'client-1', 'kill -9')];
    expect(new Set(kinds.map((o) => Object.keys(o).join(','))).size).toBe(1);
    expect(Object.keys(kinds[0]).slice(0, 5)).toEqual(['index', 'timeUs', 'process', 'type', 'f']);
  });

  it('are refilled only by a recorder that keeps none of them', () => {
    expect(() => new HistoryRecorder(() => 0, 'all', RecordBuilder.recycling())).toThrow(/cannot refill/);
    const recorder = new HistoryRecorder(() => 0, 'none', RecordBuilder.recycling());
    expect(recorder.recordTxn('r1', 'p', 1, 'commit', 'commit')).toBe(recorder.recordTxn('r2', 'p', 2, 'rollback', 'rollback'));
    expect(recorder.count).toBe(2);
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
