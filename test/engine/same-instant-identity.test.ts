/**
 * The ordered loop (Simulation.runOrdered) with every priority equal runs a whole world in
 * exactly the order the default loop does: PctPolicy is replaced here by a policy that gives
 * every thread the same priority, and each casebook run's history and metrics must be the
 * same bytes with and without it.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { EventThread } from '../../src/engine/same-instant.js';

vi.mock('../../src/engine/pct.js', () => ({
  PctPolicy: class {
    started(t: EventThread): void {
      t.priority = 0;
    }
    stepped(): void {}
  },
}));

const { loadScenario } = await import('../../src/scenario/load.js');
const { runVariant } = await import('../../src/runner/run.js');

const FILES = readdirSync('scenarios').filter((f) => f.endsWith('.yaml'));

describe('runOrdered with equal priorities', () => {
  it.each(FILES)('runs scenarios/%s exactly as the default loop', (file) => {
    const s = loadScenario(`scenarios/${file}`);
    // The first variant of each file: every topology, lock family and fault kind of the casebook.
    for (const v of s.variants.slice(0, 1)) {
      const plain = runVariant(s, v, s.seed);
      const ordered = runVariant(s, v, s.seed, { order: { seed: 'flat', depth: 1, steps: 1 } });
      expect(ordered.events).toBe(plain.events);
      expect(JSON.stringify(ordered.metrics)).toBe(JSON.stringify(plain.metrics));
      expect(JSON.stringify(ordered.history)).toBe(JSON.stringify(plain.history));
    }
  });
});
