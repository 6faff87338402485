/**
 * redlock-v5-quorum-errors.yaml: what its header names. node-redlock 5.0.0-beta.2 keeps the
 * keys of a refused attempt for its whole retry window, so under load the contenders block one
 * another with nobody holding the lock: its acquires end in node-redlock's ExecutionError, and
 * the run is UNAVAILABLE for requests refused while nobody held the lock. Next to it v4 and the
 * spec, which release between attempts, on the same load.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';

const result = runScenario(loadScenario('scenarios/redlock-v5-quorum-errors.yaml'));
const runOf = (name: string) => result.runs.find((r) => r.variant.name === name)!;

describe('node-redlock v5 quorum errors under load', () => {
  it('v5: almost every request refused while nobody held the lock, with node-redlock\'s ExecutionError, and nothing unsafe', () => {
    const v5 = runOf('v5');
    expect(v5.metrics.liveness.verdict).toBe('UNAVAILABLE');
    expect(v5.metrics.liveness.cause).toMatch(/refused "lock busy" while nobody held the lock \(\d+ of them\)$/);
    expect(v5.metrics.liveness.busyWhileFree / v5.metrics.liveness.judgedRequests).toBeGreaterThan(0.8);
    expect(v5.metrics.doubleHolders).toBe(0);
    expect(v5.violations).toEqual([]);
    const refusals = v5.history.filter((op) => op.f === 'acquire' && op.type === 'fail');
    expect(refusals.length).toBeGreaterThan(800);
    // Every refusal is the retry window running out with the keys kept, as node-redlock says it.
    for (const op of refusals) expect((op as { detail?: string }).detail).toMatch(/^no quorum after 11 attempts: .*\(no unlock between attempts\): ExecutionError "The operation was unable to achieve a quorum during its retry window\."$/);
    // The refused attempts' keys are on the masters: key-state facts name requests that never held the lock.
    const held = new Set(v5.history.flatMap((op) => (op.f === 'acquire' && op.type === 'ok' ? [op.request] : [])));
    const leftovers = v5.history.filter((op) => op.f === 'key-state' && op.holder !== null && !held.has(op.holder));
    expect(leftovers.length).toBeGreaterThan(100);
  });

  it.each(['v4', 'spec'])('%s: releases between attempts and sells at the arrival rate on the same load', (name) => {
    const run = runOf(name);
    expect(run.metrics.liveness.verdict).toBe('LIVE');
    expect(run.metrics.orders).toBeGreaterThan(1000);
    expect(run.metrics.liveness.busyWhileFree).toBeLessThan(runOf('v5').metrics.liveness.busyWhileFree / 10);
    expect(run.violations).toEqual([]);
  });
});
