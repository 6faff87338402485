/**
 * Shrinking casebook failures: the result is a scenario file that still fails the same way
 * when run, with a fixed fault schedule, and is locally minimal: removing any one of its
 * faults makes it pass.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';
import { NothingToShrink, shrink } from '../../src/shrink/shrink.js';

const cases = [
  { file: 'scenarios/failover.yaml', seed: 6, variant: 'lua' },
  { file: 'scenarios/watchdog-vs-gc-and-kill.yaml', seed: 1, variant: 'watchdog' },
  { file: 'scenarios/redlock-clock-jump.yaml', seed: 1, variant: 'redlock' },
];

describe.each(cases)('shrink $file --seed $seed --variant $variant', ({ file, seed, variant }) => {
  const original = loadScenario(file);
  const result = shrink(original, { seed, variant });
  const minimal = parseScenario(scenarioToYaml(result.minimal), 'min.yaml');

  it('gives a smaller scenario file that still fails the same way', () => {
    const run = runScenario(minimal);
    expect(run.passed).toBe(false);
    expect(run.expectations.map((e) => e.expectation.text)).toEqual([`${result.failure.metric} == 0`]);
    expect(result.failure.read(run.runs[0].metrics)).toBeGreaterThan(0);
    expect(minimal.variants.map((v) => v.name)).toEqual([variant]);
    // A seed-drawn schedule comes out as fixed faults.
    expect(minimal.randomFaults).toEqual([]);
    expect(result.after.requests).toBeLessThan(result.before.requests);
    expect(result.after.faults).toBeGreaterThan(0);
    expect(result.after.faults).toBeLessThanOrEqual(result.before.faults);
  });

  it('is locally minimal: without any single remaining fault the run passes', () => {
    minimal.faults.forEach((_, i) => {
      const without = { ...minimal, faults: minimal.faults.filter((__, j) => j !== i) };
      expect(runScenario(without).passed).toBe(true);
    });
  });
});

describe('shrink', () => {
  it('writes out a seed-drawn fault schedule as fixed faults, and keeps only the pause that matters', () => {
    const s = parseScenario(
      `name: random
duration: 60s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 2, users: 2, think: 200ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 1s }
faults:
  - { kind: gc-pause, client: 1, rate: 6/m, duration: "uniform(100ms, 6s)" }
  - { kind: gc-pause, client: 2, rate: 6/m, duration: "uniform(100ms, 6s)" }
variants:
  v: { lock: lua-unlock, lease: 2s, wait: 5s, retry-interval: 20ms }
`,
      'random.yaml',
    );
    const result = shrink(s, { seed: 1, variant: 'v' });
    expect(result.before.faults).toBe(2); // two random schedules
    expect(result.minimal.randomFaults).toEqual([]);
    expect(result.minimal.faults.length).toBeGreaterThan(0);
    expect(result.minimal.faults.every((f) => f.kind === 'gc-pause')).toBe(true);
    expect(runScenario(parseScenario(scenarioToYaml(result.minimal), 'min.yaml')).passed).toBe(false);
  });

  it('keeps the scripted requests a smaller scenario can still run, and only those', () => {
    const s = parseScenario(
      `name: script
duration: 30s
stock: { sku: 1, available: 10, count: 3 }
workload:
  clients: 2
  workers: 1
  requests: [{ at: 1s, sku: 1 }, { at: 3s, sku: 1, client: 2 }, { at: 5s, sku: 2, client: 2 }, { at: 20s, sku: 3 }]
  steps: [lock, read, work, deduct, order, unlock]
dependencies: { work: 4s }
variants:
  v: { lock: lua-unlock, lease: 1s }
`,
      'script.yaml',
    );
    const result = shrink(s, { seed: 1, variant: 'v' });
    const minimal = parseScenario(scenarioToYaml(result.minimal), 'min.yaml');
    expect(runScenario(minimal).passed).toBe(false);
    // A shorter run and one SKU leave the two requests that overlap on sku 1.
    expect(minimal.workload.arrival).toEqual({ kind: 'script', requests: [{ atUs: 1e6, sku: 1, client: 1 }, { atUs: 3e6, sku: 1, client: 2 }] });
    expect(minimal.workload.clients).toBe(2);
  });

  it('shrinks failover-lag-race.yaml and moves its script with the fault', () => {
    const result = shrink(loadScenario('scenarios/failover-lag-race.yaml'), { seed: 1, variant: 'lua' });
    const minimal = parseScenario(scenarioToYaml(result.minimal), 'min.yaml');
    expect(runScenario(minimal).passed).toBe(false);
    const script = minimal.workload.arrival.kind === 'script' ? minimal.workload.arrival.requests : [];
    // Both requests stay (the second holder needs the first), still 49 ms + 1 ms before the kill.
    expect(script.map((r) => [r.client, r.sku])).toEqual([[1, 1], [2, 1]]);
    const crashUs = minimal.faults.find((f) => f.kind === 'primary-crash')?.atUs ?? 0;
    expect(crashUs - script[0].atUs).toBe(10_049_000 - 9_999_000);
  });

  it('refuses a run that breaks nothing', () => {
    expect(() => shrink(loadScenario('scenarios/get-then-del.yaml'), { seed: 1, variant: 'lua-unlock' })).toThrow(NothingToShrink);
  });
});
