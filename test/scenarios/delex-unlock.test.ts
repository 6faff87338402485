/**
 * scenarios/delex-on-redis-7.yaml and delex-unlock.yaml: the failure each header names, next to
 * the variant that does not fail. On redis-7.0 every DELEX unlock is answered with 7.0's
 * unknown-command error (the text test/conformance/server-versions.test.ts measures on
 * redis-server 7.0.15) and each lock sits out its lease; on redis-8.4 the same unlock deletes
 * only its own lock, as the Lua compare-and-delete does.
 */
import { describe, expect, it } from 'vitest';
import type { LockOp } from '../../src/history/operation.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/spec/scenario.js';

function run(scenario: Scenario, variant: string) {
  const v = scenario.variants.find((x) => x.name === variant)!;
  const r = runVariant(scenario, v);
  const releases = r.history.filter((op): op is LockOp => op.f === 'release' && op.type !== 'invoke');
  return { metrics: r.metrics, releases };
}

describe('delex-on-redis-7: DELEX against a server that has no DELEX', () => {
  const scenario = loadScenario('scenarios/delex-on-redis-7.yaml');

  it('every unlock fails with redis 7.0\'s unknown-command error for DELEX key IFEQ token, and no lock is released', () => {
    const { releases } = run(scenario, 'delex');
    expect(releases.length).toBeGreaterThan(10);
    for (const op of releases) {
      expect(op.type).toBe('fail');
      expect(op.detail).toMatch(/^ERR unknown command 'DELEX', with args beginning with: 'lock:stock:10037' 'IFEQ' '[^']+' $/);
    }
  });

  it('... so each lock stays for its lease with nobody under it, and the requests in between are turned away', () => {
    const { metrics } = run(scenario, 'delex');
    expect(metrics.orphanLockUs).toBeGreaterThan(50_000_000);
    expect(metrics.outcomes['lock-busy']).toBeGreaterThan(100);
    expect(metrics.oversold).toBe(0);
  });

  it('while the Lua compare-and-delete on the same server releases every lock', () => {
    const { metrics, releases } = run(scenario, 'lua-unlock');
    expect(releases.length).toBeGreaterThan(100);
    expect(releases.every((op) => op.type === 'ok')).toBe(true);
    expect([metrics.orphanLockUs, metrics.outcomes['lock-busy']]).toEqual([0, 0]);
  });
});

describe('delex-unlock: DELEX IFEQ on redis-8.4 next to the Lua unlock', () => {
  const scenario = loadScenario('scenarios/delex-unlock.yaml');

  it('DELEX and Lua both delete only their own lock, where GET + DEL deletes the next holder\'s', () => {
    const delex = run(scenario, 'delex');
    const lua = run(scenario, 'lua-unlock');
    expect([delex.metrics.foreignUnlocks, lua.metrics.foreignUnlocks]).toEqual([0, 0]);
    expect(run(scenario, 'get-then-del').metrics.foreignUnlocks).toBeGreaterThan(0);
    expect(delex.releases.every((op) => op.type === 'ok')).toBe(true);
  });

  it('... and one DELEX is one round trip as one EVAL is: the two runs give the same figures', () => {
    expect(run(scenario, 'delex').metrics).toEqual(run(scenario, 'lua-unlock').metrics);
  });

  it('the same scenario on redis-7.0 turns every DELEX unlock into the unknown-command error', () => {
    const old = { ...scenario, redis: { ...scenario.redis, server: 'redis-7.0' as const } };
    const { releases } = run(old, 'delex');
    expect(releases.length).toBeGreaterThan(0);
    expect(releases.every((op) => op.detail?.startsWith("ERR unknown command 'DELEX'"))).toBe(true);
  });
});
