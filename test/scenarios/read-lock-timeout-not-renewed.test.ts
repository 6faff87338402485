/**
 * scenarios/read-lock-timeout-not-renewed.yaml: the failure is the one its header names. On
 * Redisson 3.44.0 the client's ReadLockTask renews SKU 2's hash but not its readers' timeout
 * keys (the second name of its chunk), so the first reader's unlock at 40.1s deletes the hash
 * under the second reader and the buyer of 41s takes the write lock beside it; on 4.0.0 and on
 * 3.43.0 (per-lock renewal) the same requests leave the buyer waiting for the last reader.
 */
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/read-lock-timeout-not-renewed.yaml');
const run = (name: string) => runVariant(scenario, scenario.variants.find((v) => v.name === name)!);

describe('read-lock-timeout-not-renewed', () => {
  const broken = run('v3-44');

  it('3.44.0: the buyer takes the write lock of SKU 2 at 41s beside the second reader; the story is its unrenewed timeout key', () => {
    expect(broken.metrics).toMatchObject({ readWriteOverlaps: 1, doubleHolders: 0, oversold: 0 });
    // From the write lock's grant (41s + a round trip) to the reader's unlock (5s + 40s of work).
    expect(broken.metrics.readWriteOverlapUs).toBeGreaterThan(3_900_000);
    expect(broken.metrics.readWriteOverlapUs).toBeLessThan(4_100_000);
    const focus = focusViolation(broken.violations)!;
    expect(focus).toMatchObject({ kind: 'read-write-overlap', subject: 'lock:stock:2', requests: ['r3', 'r4'] });
    expect(focus.timeUs).toBeGreaterThan(41_000_000);
    expect(focus.timeUs).toBeLessThan(41_010_000);
    const lines = tellStory(focus, broken.history).lines.map((l) => `${l.who}: ${l.what}`);
    expect(lines[0]).toBe('client-1/w3: r3 acquired the read lock of lock:stock:2 (lease 30s)');
    expect(lines.filter((l) => l.includes("not its readers' timeout keys (the script's inner loop reuses i and renews lock:stock:1's prefix instead)"))).toHaveLength(3);
    expect(lines.at(-1)).toBe('client-1/w4: r4 acquired lock:stock:2 (lease 30s)');
    // The first reader's unlock deleted the hash (answered 1) while r3 still read.
    const r2Release = broken.history.find((op) => op.f === 'release' && op.type === 'ok' && op.request === 'r2')!;
    expect(r2Release.timeUs).toBeLessThan(focus.timeUs);
  });

  it.each(['v4-0', 'v3-43'])('%s: every reader keeps its key, the buyer waits for the last reader: no overlap', (name) => {
    const held = run(name);
    expect(held.metrics).toMatchObject({ readWriteOverlaps: 0, doubleHolders: 0, orders: 1, outcomes: expect.objectContaining({ read: 3 }) });
    expect(held.violations).toEqual([]);
    const grant = held.history.find((op) => op.f === 'acquire' && op.type === 'ok' && op.request === 'r4')!;
    const lastReaderOut = held.history.find((op) => op.f === 'release' && op.type === 'invoke' && op.request === 'r3')!;
    expect(grant.timeUs).toBeGreaterThanOrEqual(lastReaderOut.timeUs);
  });
});
