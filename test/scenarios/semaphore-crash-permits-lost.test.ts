/**
 * scenarios/semaphore-crash-permits-lost.yaml: the failure is the one its header names. Each
 * of the three kills takes the RSemaphore permit a thread of the killed client held, and the
 * story of the first leak is that holder's permit and its process dying; the expirable
 * semaphore under the same kills gets each permit back one lease (5 s) after its holder died.
 */
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import { runVariant } from '../../src/runner/run.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/semaphore-crash-permits-lost.yaml');
const variant = (name: string) => scenario.variants.find((v) => v.name === name)!;
const crashesUs = scenario.faults.map((f) => f.atUs);

describe('semaphore-crash-permits-lost', () => {
  const rsemaphore = runVariant(scenario, variant('rsemaphore'));
  const expirable = runVariant(scenario, variant('expirable'));

  it('RSemaphore: each kill leaks the permit its client held; the story is the first holder and its process dying', () => {
    expect(rsemaphore.metrics).toMatchObject({ permitsLeaked: 3, permitsExpired: 0, permitsExceeded: 0, oversold: 0 });
    const focus = focusViolation(rsemaphore.violations)!;
    expect(focus).toMatchObject({ kind: 'permit-leak', timeUs: crashesUs[0] });
    expect(focus.summary).toContain('its process died at 10s, and the permit has no lease (3 of its 3 permits gone by the end)');
    const lines = tellStory(focus, rsemaphore.history).lines.map((l) => `${l.who}: ${l.what}`);
    expect(lines[0]).toMatch(new RegExp(`^client-1/w\\d+: ${focus.requests[0]} took one of the 3 permits of lock:stock:10037 \\(no lease\\)$`));
    expect(lines.at(-1)).toBe('nemesis: crash start: kill -9, restarts after 2s');
    // From the third kill on every request is turned away: nothing is ordered after it.
    const lastOrder = Math.max(...rsemaphore.history.filter((op) => op.f === 'order' && op.type === 'ok').map((op) => op.timeUs));
    expect(lastOrder).toBeLessThan(crashesUs[2]);
    // Every request after the last kill is refused with no holder inside (busy while free).
    expect(rsemaphore.metrics.liveness.verdict).toBe('UNAVAILABLE');
    expect(rsemaphore.metrics.liveness.busyWhileFree).toBe(rsemaphore.metrics.liveness.judgedRequests);
  });

  it('RPermitExpirableSemaphore: the same kills leak nothing; each permit left comes back and it sells after the last', () => {
    expect(expirable.metrics).toMatchObject({ permitsLeaked: 0, permitsExpired: 3, permitsExceeded: 0, oversold: 0 });
    expect(expirable.violations).toEqual([]);
    const ordersAfter = expirable.history.filter((op) => op.f === 'order' && op.type === 'ok' && op.timeUs > crashesUs[2] + 5_000_000).length;
    expect(ordersAfter).toBeGreaterThan(300);
    expect(expirable.metrics.liveness.verdict).toBe('LIVE');
  });
});
