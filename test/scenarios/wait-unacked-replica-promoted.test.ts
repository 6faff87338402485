/**
 * scenarios/wait-unacked-replica-promoted.yaml (redisson#5256): the two holders of
 * wait-1-of-2 are the failure its header names. The first holder's lock reached redis-0 and
 * redis-2 (the one replica WAIT counted) and never redis-1; the Sentinels promoted redis-1;
 * the second holder took the lock there, after the promotion. strict (3.17.4), next to it,
 * refuses the acquires WAIT answered 1 of 2 and has no second holder.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/history/operation.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/wait-unacked-replica-promoted.yaml');
const run = (name: string) => runVariant(scenario, scenario.variants.find((v) => v.name === name)!);

type KeyState = Extract<Operation, { f: 'key-state' }>;
const keyStates = (history: readonly Operation[], request: string, key: string): KeyState[] =>
  history.flatMap((op) => (op.f === 'key-state' && op.holder === request && op.key === key ? [op] : []));
const detailOf = (op: Operation): string => ('detail' in op && typeof op.detail === 'string' ? op.detail : '');

describe('wait-unacked-replica-promoted', () => {
  it('wait-1-of-2: the second holder took, on the promoted redis-1, a lock that only redis-0 and redis-2 had', () => {
    const r = run('wait-1-of-2');
    const double = r.violations.find((v) => v.kind === 'double-holder');
    expect(double).toBeDefined();
    const [first, second] = double!.requests;
    const promoted = r.history.find((op) => op.f === 'fault' && op.fault === 'failover');
    expect(promoted && detailOf(promoted)).toBe('sentinel promoted redis-1 in place of redis-0');
    const firstNodes = new Set(keyStates(r.history, first, double!.subject).map((op) => op.node));
    expect([...firstNodes].sort()).toEqual(['redis-0', 'redis-2']);
    // Its acquire answered after WAIT's full second: redis-1 never acknowledged.
    const written = keyStates(r.history, first, double!.subject).find((op) => op.node === 'redis-0' && op.cause === 'write')!;
    const acquired = r.history.find((op) => op.f === 'acquire' && op.type === 'ok' && op.request === first)!;
    expect(acquired.timeUs - written.timeUs).toBeGreaterThanOrEqual(1_000_000);
    expect(written.timeUs).toBeGreaterThan(20e6);
    const secondOnRedis1 = keyStates(r.history, second, double!.subject).filter((op) => op.node === 'redis-1');
    expect(secondOnRedis1.length).toBeGreaterThan(0);
    expect(secondOnRedis1[0].timeUs).toBeGreaterThan(promoted!.timeUs);
  });

  it('strict (3.17.4): WAIT answered 1 of 2 fails the acquire, and no request holds the lock with another', () => {
    const r = run('strict');
    expect(r.metrics.doubleHolders).toBe(0);
    const refused = r.history.filter((op) => op.f === 'acquire' && op.type !== 'ok' && detailOf(op).startsWith('Only 1 of 2 slaves were synced'));
    expect(refused.length).toBeGreaterThan(0);
    expect(Math.min(...refused.map((op) => op.timeUs))).toBeGreaterThan(20e6);
  });
});
