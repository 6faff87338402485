/** check over sweeps: per-run expectations on every seed, statistics over all of them, replay seeds. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { checkScenario } from '../../src/sweep/check-scenario.js';
import { sweepWorld } from '../helpers.js';

const scenario = (expect: string) =>
  parseScenario(sweepWorld('  v: { lock: lua-unlock, lease: 1s, wait: 3s, retry-interval: 10ms }', `  v: ${expect}`), 'sweep.yaml');

describe('checkScenario', () => {
  it('judges a per-run expectation on every seed and names the first failing seed', async () => {
    const s = scenario('{ double-holders: 0 }');
    const c = await checkScenario(s);
    const [e] = c.expectations;
    expect(e.runs).toBe(30);
    expect(e.passed).toBe(false);
    expect(e.failedRuns).toBeGreaterThan(0);
    expect(e.failedRuns).toBeLessThan(30);
    // The replay seed is the smallest failing one, and replaying it fails the same way.
    const replay = runScenario(s, { seed: e.replaySeed ?? -1 });
    expect(replay.expectations[0]).toMatchObject({ passed: false, measured: e.measured });
    for (let seed = 1; seed < (e.replaySeed ?? 0); seed++) expect(runScenario(s, { seed }).passed).toBe(true);
    expect(e.replay).toBe(`npx lock-sim run sweep.yaml --seed ${e.replaySeed} --variant v`);
  });

  it('judges p(...), mean(...), max(...) and min(...) over the sweep', async () => {
    const s = scenario('{ "p(double-holders > 0)": ["> 0.05", "<= 1"], "mean(double-holders)": "> 0", "max(double-holders)": ">= 1", "min(orders)": ">= 1" }');
    const c = await checkScenario(s);
    expect(c.expectations.filter((e) => !e.implicit).map((e) => [e.expectation.statistic, e.passed])).toEqual([
      ['p', true],
      ['p', true],
      ['mean', true],
      ['max', true],
      ['min', true],
    ]);
    const p = c.expectations[0];
    const perSeed = await Promise.all(Array.from({ length: 30 }, (_, i) => runScenario(s, { seed: i + 1 }).runs[0].metrics.doubleHolders));
    expect(p.measured).toBe(Number((perSeed.filter((d) => d > 0).length / 30).toFixed(6)));
    expect(c.expectations[2].measured).toBe(Number((perSeed.reduce((a, b) => a + b, 0) / 30).toFixed(4)));
    expect(c.expectations[3].measured).toBe(Math.max(...perSeed));
  });

  it('replays, for a failed probability, a run where the counted condition held', async () => {
    const c = await checkScenario(scenario('{ "p(double-holders > 0)": "<= 0.01" }'));
    const [e] = c.expectations;
    expect(e.passed).toBe(false);
    const replay = runScenario(scenario('{ double-holders: 0 }'), { seed: e.replaySeed ?? -1 });
    expect(replay.runs[0].metrics.doubleHolders).toBeGreaterThan(0);
  });

  it('tallies lost-units over the sweep like every metric in METRICS', async () => {
    const s = scenario('{ "mean(lost-units)": "> 0", "max(lost-units)": ">= 1", "p(lost-units > 0)": "> 0" }');
    const c = await checkScenario(s);
    const perSeed = Array.from({ length: 30 }, (_, i) => runScenario(s, { seed: i + 1 }).runs[0].metrics);
    const units = perSeed.map((m) => m.lostUnits);
    expect(c.expectations.filter((e) => !e.implicit).map((e) => e.measured)).toEqual([
      Number((units.reduce((a, b) => a + b, 0) / 30).toFixed(4)),
      Math.max(...units),
      Number((units.filter((u) => u > 0).length / 30).toFixed(6)),
    ]);
    // A lost update erases at least one unit here (every request deducts one).
    for (const m of perSeed) expect(m.lostUnits).toBeGreaterThanOrEqual(m.lostUpdates);
  });

  it('leaves statistics out of a single run', () => {
    const r = runScenario(scenario('{ "p(double-holders > 0)": "<= 0.01", orders: ">= 0" }'));
    expect(r.expectations.map((e) => e.expectation.key)).toEqual(['orders']);
  });

  it('refuses malformed statistics with their position', () => {
    expect(() => scenario('{ "p(double-holders)": 0.5 }')).toThrow('p(...) needs a condition, e.g. p(double-holders > 0)');
    expect(() => scenario('{ "mean(orders > 1)": 3 }')).toThrow('mean(...) takes a metric only');
    expect(() => scenario('{ "p(orders > 1)": 3 }')).toThrow('a probability is between 0 and 1, found 3');
    expect(() => scenario('{ "avg(orders)": 3 }')).toThrow('unknown metric');
  });
});

describe('checkScenario: liveness and files without expectations', () => {
  // Every write refused (NOREPLICAS): the lock variant sells nothing and breaks no safety invariant.
  const noReplicas = (expect: string) => parseScenario(`name: refused
seed: 1
duration: 10s
stock: { sku: 1, available: 100 }
workload: { clients: 1, workers: 4, arrival: 10/s, steps: [lock, read, deduct, order, unlock] }
redis: { min-replicas-to-write: 1 }
variants:
  lua: { lock: lua-unlock, lease: 5s }
  guard: { lock: none, guard: conditional }
${expect}`, 'refused.yaml');

  it('fails a variant that stopped working on an implicit live == 1, even when its own expectations held', async () => {
    const c = await checkScenario(noReplicas('expect:\n  lua: { oversold: 0 }\n  guard: { oversold: 0 }'));
    expect(c.expectations.map((e) => [e.expectation.variant, e.expectation.text, e.implicit, e.passed])).toEqual([
      ['lua', 'oversold == 0', false, true],
      ['guard', 'oversold == 0', false, true],
      ['lua', 'live == 1', true, false],
      ['guard', 'live == 1', true, true],
    ]);
    expect(c.passed).toBe(false);
    expect(c.expectations[2].replay).toBe('npx lock-sim run refused.yaml --seed 1 --variant lua');
    expect(c.expectations[2].expectation.location).toBe(c.expectations[0].expectation.location);
  });
  it('lets the scenario expect a variant to stop working instead', async () => {
    const c = await checkScenario(noReplicas('expect:\n  lua: { oversold: 0, unavailable: 1 }\n  guard: { oversold: 0 }'));
    expect(c.expectations.map((e) => [e.expectation.text, e.implicit, e.passed])).toEqual([
      ['oversold == 0', false, true],
      ['unavailable == 1', false, true],
      ['oversold == 0', false, true],
      ['live == 1', true, true],
    ]);
    expect(c.passed).toBe(true);
  });
  it('fails a file with no expectations unless told to pass it', async () => {
    const none = noReplicas('');
    const failed = await checkScenario(none);
    expect([failed.empty, failed.passed, failed.expectations]).toEqual([true, false, []]);
    expect((await checkScenario(none, { passWithNoExpectations: true })).passed).toBe(true);
  });
});
