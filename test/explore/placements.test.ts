/** Where faults are tried, and in which order. */
import { describe, expect, it } from 'vitest';
import type { CriticalInstant } from '../../src/explore/instants.js';
import { placementsFor } from '../../src/explore/placements.js';
import type { FaultTemplate } from '../../src/explore/templates.js';

const at = (atUs: number, hosts: string[], what = `i${atUs}`): CriticalInstant => ({ atUs, kind: 'lock-executed', hosts, what });
const crash1: FaultTemplate = { id: 1, spec: { kind: 'crash', client: 1, atUs: 0, point: null, restartAfterUs: null }, label: 'crash client-1', host: 'client-1', spanUs: 0 };
const pause2: FaultTemplate = { id: 2, spec: { kind: 'gc-pause', client: 2, atUs: 0, durationUs: 500 }, label: 'gc-pause client-2', host: 'client-2', spanUs: 500 };

describe('placementsFor', () => {
  const instants = [at(1000, ['client-1']), at(2000, ['client-2']), at(2000, ['redis-0'])];

  it('tries just before and after each instant, ends a windowed fault at each, and the midpoints', () => {
    const p = placementsFor([crash1, pause2], instants, { fromUs: 0, untilUs: 10_000, previous: null });
    const of = (t: number) => p.filter((x) => x.template === t).map((x) => x.atUs).sort((a, b) => a - b);
    expect(of(1)).toEqual([999, 1001, 1500, 1999, 2001]);
    expect(of(2)).toEqual([499, 501, 999, 1001, 1499, 1500, 1501, 1999, 2001]);
    expect(p.find((x) => x.template === 2 && x.atUs === 1501)?.why).toBe('ending just after i2000');
  });

  it('puts the instants of the fault\'s own host first, then before/after, end-aligned, midpoints, in time', () => {
    const p = placementsFor([crash1, pause2], instants, { fromUs: 0, untilUs: 10_000, previous: null });
    expect(p.slice(0, 2).map((x) => `${x.template}@${x.atUs}`)).toEqual(['1@999', '1@1001']);
    expect(p.slice(2, 4).map((x) => `${x.template}@${x.atUs}`)).toEqual(['2@1999', '2@2001']);
    expect(p.slice(4, 6).map((x) => `${x.template}@${x.atUs}`)).toEqual(['2@1499', '2@1501']);
    expect(p[p.length - 1].why).toBe('midway between two instants');
  });

  it('keeps a later fault at or after the one before it, nearest first, and inside the run', () => {
    const p = placementsFor([crash1, pause2], instants, { fromUs: 1500, untilUs: 2000, previous: { template: 1, atUs: 1500 } });
    expect(p.every((x) => x.atUs >= 1500 && x.atUs <= 2000)).toBe(true);
    expect(p.some((x) => x.template === 1 && x.atUs === 1500)).toBe(false);
    const own2 = p.filter((x) => x.template === 2);
    expect(own2.map((x) => x.atUs)).toEqual([1999, 1501, 1500]);
  });
});
