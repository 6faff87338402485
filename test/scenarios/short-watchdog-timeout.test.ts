/**
 * scenarios/short-watchdog-timeout.yaml (redisson#2414): watchdog-3s's two holders are the
 * failure its header names. The first holder's lock expired inside a GC pause of its own
 * client, whose watchdog (renewing to 3 s every 1 s) was paused with it; watchdog-30s, next
 * to it, renews to 30 s every 10 s and no lock of it expires.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/history/operation.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/short-watchdog-timeout.yaml');
const run = (name: string) => runVariant(scenario, scenario.variants.find((v) => v.name === name)!);
const detailOf = (op: Operation): string => ('detail' in op && typeof op.detail === 'string' ? op.detail : '');
const expiries = (history: readonly Operation[]) => history.flatMap((op) => (op.f === 'key-state' && op.cause === 'expire' ? [op] : []));

describe('short-watchdog-timeout', () => {
  it('watchdog-3s: the first holder\'s lock expired during a GC pause of its client, which the second holder then took', () => {
    const r = run('watchdog-3s');
    const double = r.violations.find((v) => v.kind === 'double-holder');
    expect(double).toBeDefined();
    const [first] = double!.requests;
    const acquired = r.history.find((op) => op.f === 'acquire' && op.type === 'ok' && op.request === first)!;
    const client = Number(/^client-(\d+)/.exec(acquired.process)![1]);
    const expired = expiries(r.history).find((op) => op.previousHolder === first);
    expect(expired).toBeDefined();
    const pause = scenario.faults.find((f) => f.kind === 'gc-pause' && f.client === client && f.atUs <= expired!.timeUs && expired!.timeUs < f.atUs + f.durationUs);
    expect(pause).toBeDefined();
    // The watchdog renewed to 3 s, so the lease ran out at most 3 s into the pause.
    expect(expired!.timeUs - pause!.atUs).toBeLessThanOrEqual(3_000_000);
    const renewed = r.history.flatMap((op) => (op.f === 'key-state' && op.by === `client-${client}/redisson-renewal` ? [op] : []));
    expect(renewed.length).toBeGreaterThan(0);
    for (const op of renewed) expect(Math.abs((op.expiresAtUs ?? 0) - op.timeUs - 3_000_000)).toBeLessThan(2_000);
    expect(r.history.some((op) => op.f === 'renew' && op.type === 'ok' && detailOf(op) === 'renewed to 3000ms')).toBe(true);
  });

  it('watchdog-30s: the same pauses, no lock expires and nobody holds one with another', () => {
    const r = run('watchdog-30s');
    expect(r.metrics.doubleHolders).toBe(0);
    expect(expiries(r.history).filter((op) => op.key.startsWith('lock:'))).toEqual([]);
  });
});
