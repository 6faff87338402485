/**
 * History records: one hidden class per kind (records.ts). Every record of a kind lists the
 * same fields in the same order, `index` and `timeUs` first, whether or not its optional
 * fields are set; an absent optional field is undefined and left out of the JSON.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/history/operation.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runVariant } from '../../src/runner/run.js';

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
