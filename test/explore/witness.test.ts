/** Witnesses: the replay spec, and fault sets cut down to the faults the violation needs. */
import { describe, expect, it } from 'vitest';
import { makeWitness, parseReplaySpec, replaySpec } from '../../src/explore/witness.js';
import { templatesOf } from '../../src/explore/templates.js';
import { parseMetricCondition } from '../../src/scenario/resolve-expectations.js';
import { loadScenario } from '../../src/scenario/load.js';

describe('replay specs', () => {
  const { templates } = templatesOf(loadScenario('scenarios/explore/setnx-crash-window.yaml'));

  it('round-trip faults and a PCT schedule', () => {
    const faults = [{ template: 1, atUs: 1_000_001, why: '' }, { template: 2, atUs: 4_000_000, why: '' }];
    const order = { seed: '1.7.1', depth: 2, steps: 400 };
    const text = replaySpec(faults, order);
    expect(text).toBe('1@1000001,2@4000000/pct:1.7.1:2:400');
    const back = parseReplaySpec(text, templates, 30_000_000);
    expect(back.ok && back.faults.map((f) => [f.template, f.atUs])).toEqual([[1, 1_000_001], [2, 4_000_000]]);
    expect(back.ok && back.order).toEqual(order);
    expect(parseReplaySpec('none', templates, 30_000_000)).toEqual({ ok: true, faults: [], order: null });
  });

  it('refuse what they cannot run', () => {
    expect(parseReplaySpec('3@10', templates, 30_000_000)).toMatchObject({ ok: false, message: expect.stringContaining('no fault template #3') });
    expect(parseReplaySpec('1@40000000', templates, 30_000_000)).toMatchObject({ ok: false, message: expect.stringContaining('after the end of the run') });
    expect(parseReplaySpec('1@x', templates, 30_000_000)).toMatchObject({ ok: false });
  });
});

describe('makeWitness', () => {
  it('drops a fault the violation does not need, and keeps the story', () => {
    const s = loadScenario('scenarios/explore/setnx-crash-window.yaml');
    const { templates } = templatesOf(s);
    const v = s.variants.find((x) => x.name === 'setnx-expire')!;
    const stuck = parseMetricCondition('stuck-time > 10s');
    if (!stuck.ok) throw new Error(stuck.message);
    // The crash of client-1 just after r1 arrives deadlocks the lock; client-2's crash at 25 s is beside the point.
    const found = {
      schedule: { id: 9, level: 2, faults: [{ template: 1, atUs: 1_000_001, why: 'a' }, { template: 2, atUs: 25_000_000, why: 'b' }], order: null },
      broken: ['stuck-time > 10s'],
      firstViolation: null,
      count: 1,
    };
    const w = makeWitness(s, v, templates, found, [stuck.value], false);
    expect(w.faults.map((f) => f.template)).toEqual([1]);
    expect(w.placedFaults).toBe(2);
    expect(w.replay).toBe('1@1000001');
    expect(w.run.metrics.stuckLockUs).toBeGreaterThan(10_000_000);
    expect(w.run.history.length).toBeGreaterThan(0);
  });
});
