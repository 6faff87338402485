/** The measured shapes: mixture weights, empirical samples, Prometheus histograms (quantiles as histogram_quantile), and their errors. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDistribution, histogramQuantile, meanOf, sample, type Distribution } from '../../src/engine/distribution.js';
import { RandomStream } from '../../src/engine/random.js';
import { ScenarioError } from '../../src/spec/errors.js';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import { parseDistribution } from '../../src/scenario/value-parsers.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';
import { runYaml } from '../helpers.js';

const parse = (text: string): Distribution => {
  const r = parseDistribution(text);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const draws = (d: Distribution, n: number, seed = 'x'): number[] => {
  const rng = new RandomStream('test', seed);
  return Array.from({ length: n }, () => sample(d, rng));
};
const fraction = (xs: number[], test: (x: number) => boolean): number => xs.filter(test).length / xs.length;

describe('mixture', () => {
  it('draws each part by its weight: usually 200ms, 5% of draws 5-8s', () => {
    const xs = draws(parse('mixture(95%: 200ms, 5%: uniform(5s, 8s))'), 20_000);
    const slow = fraction(xs, (x) => x >= 5_000_000);
    expect(slow).toBeGreaterThan(0.045);
    expect(slow).toBeLessThan(0.055);
    expect(xs.every((x) => x === 200_000 || (x >= 5_000_000 && x <= 8_000_000))).toBe(true);
    expect(meanOf(parse('mixture(95%: 200ms, 5%: uniform(5s, 8s))'))).toBeCloseTo(0.95 * 200_000 + 0.05 * 6_500_000, 6);
  });
  it('takes relative weights as well (19 : 1 is 95% : 5%)', () => {
    const slow = fraction(draws(parse('mixture(19: 200ms, 1: 6s)'), 20_000), (x) => x === 6_000_000);
    expect(slow).toBeGreaterThan(0.045);
    expect(slow).toBeLessThan(0.055);
  });
  it('refuses weights that do not add up, zero, mixed or a single part, and writes back as given', () => {
    expect(parseDistribution('mixture(95%: 200ms, 4%: 6s)')).toMatchObject({ ok: false, message: expect.stringMatching(/add up to 99%, not 100%/) });
    expect(parseDistribution('mixture(100%: 200ms, 0%: 6s)')).toMatchObject({ ok: false, message: expect.stringMatching(/above zero/) });
    expect(parseDistribution('mixture(95%: 200ms, 5: 6s)')).toMatchObject({ ok: false, message: expect.stringMatching(/every weight as a percentage or none/) });
    expect(parseDistribution('mixture(100%: 200ms)')).toMatchObject({ ok: false, message: expect.stringMatching(/two parts or more/) });
    expect(parseDistribution('mixture(95%: 200ms, 5%: uniform(8s, 5s))')).toMatchObject({ ok: false, message: expect.stringMatching(/part 5%: uniform\(min, max\) needs min <= max/) });
    expect(parseDistribution('mixture(95%: 200ms, 5%: 6s)')).toMatchObject({ ok: true });
    expect(describeDistribution(parse('mixture(95%: 200ms, 5%: uniform(5s, 8s))'))).toBe('mixture(95%: 200ms, 5%: uniform(5s, 8s))');
  });
});

describe('histogram', () => {
  // Prometheus form: le upper bounds with cumulative counts.
  const h = parse('histogram(100ms: 10, 500ms: 90, 1s: 99, +Inf: 100)') as Extract<Distribution, { kind: 'histogram' }>;
  it('has the quantiles histogram_quantile computes for the same buckets', () => {
    // rank 5 of 100 lies in the first bucket, read from 0: 0 + 100ms x 5/10.
    expect(histogramQuantile(h, 0.05)).toBeCloseTo(50_000, 6);
    // rank 50: (100ms, 500ms] holds 80, rank 40 into it: 100ms + 400ms x 40/80.
    expect(histogramQuantile(h, 0.5)).toBeCloseTo(300_000, 6);
    expect(histogramQuantile(h, 0.98)).toBeCloseTo(500_000 + 500_000 * (8 / 9), 6);
    // A rank in the +Inf bucket gives the highest finite bound.
    expect(histogramQuantile(h, 0.995)).toBe(1_000_000);
    expect(histogramQuantile(h, 0.99)).toBe(1_000_000);
  });
  it('draws samples whose quantiles are those quantiles', () => {
    const xs = draws(h, 40_000).sort((a, b) => a - b);
    const q = (p: number) => xs[Math.floor(p * xs.length)];
    expect(q(0.5) / 300_000).toBeGreaterThan(0.98);
    expect(q(0.5) / 300_000).toBeLessThan(1.02);
    expect(fraction(xs, (x) => x <= 100_000)).toBeCloseTo(0.1, 1);
    expect(xs[xs.length - 1]).toBe(1_000_000);
  });
  it('refuses buckets that decrease or do not rise, a missing +Inf bucket, no observations', () => {
    expect(parseDistribution('histogram(100ms: 10, 500ms: 9, +Inf: 100)')).toMatchObject({ ok: false, message: expect.stringMatching(/never decrease, found 10 at le=100ms then 9 at le=500ms/) });
    expect(parseDistribution('histogram(500ms: 10, 100ms: 20, +Inf: 100)')).toMatchObject({ ok: false, message: expect.stringMatching(/bounds must increase/) });
    expect(parseDistribution('histogram(100ms: 10, 1s: 20)')).toMatchObject({ ok: false, message: expect.stringMatching(/last bucket is le=\+Inf/) });
    expect(parseDistribution('histogram(100ms: 0, +Inf: 0)')).toMatchObject({ ok: false, message: expect.stringMatching(/no observations/) });
    expect(parseDistribution('histogram(100ms: 1.5, +Inf: 2)')).toMatchObject({ ok: false, message: expect.stringMatching(/whole number/) });
    expect(parseDistribution('histogram(100ms: 10, 500ms: 10, +Inf: 100)')).toMatchObject({ ok: true });
  });
});

describe('distribution files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lock-sim-dist-'));
  const scenario = (dependency: string) => {
    const file = join(dir, 's.yaml');
    writeFileSync(file, `name: d
duration: 5s
stock: { sku: 1, available: 100 }
workload: { arrival: 2/s, steps: [lock, read, risk, deduct, order, unlock] }
dependencies:
  risk: ${dependency}
variants:
  a: { lock: lua-unlock, lease: 5s }
`);
    return file;
  };
  const refusal = (dependency: string): string => {
    try {
      loadScenario(scenario(dependency));
    } catch (err) {
      if (err instanceof ScenarioError) return err.message;
    }
    return 'loaded';
  };

  it('reads empirical samples relative to the scenario file and draws only them', () => {
    writeFileSync(join(dir, 'latency.csv'), '# ms of the risk check\n200ms\n250ms\n\n5s\n');
    const d = loadScenario(scenario('empirical(latency.csv)')).dependencies[0].latency;
    expect(d).toMatchObject({ kind: 'empirical', samplesUs: [200_000, 250_000, 5_000_000] });
    const xs = draws(d, 3_000);
    expect(new Set(xs)).toEqual(new Set([200_000, 250_000, 5_000_000]));
    expect(fraction(xs, (x) => x === 5_000_000)).toBeCloseTo(1 / 3, 1);
    writeFileSync(join(dir, 'bare.csv'), '200\n250\n');
    expect(loadScenario(scenario('empirical(bare.csv, ms)')).dependencies[0].latency).toMatchObject({ samplesUs: [200_000, 250_000] });
  });

  it('refuses a missing or empty file, and a line that is not a sample, at the field with the file line', () => {
    writeFileSync(join(dir, 'empty.csv'), '\n# nothing yet\n');
    writeFileSync(join(dir, 'typo.csv'), '200ms\n25Oms\n');
    writeFileSync(join(dir, 'bare.csv'), '200\n');
    expect(refusal('empirical(none.csv)')).toMatch(/s\.yaml:6:9: dependencies\.risk: none\.csv: no such file/);
    expect(refusal('empirical(empty.csv)')).toMatch(/s\.yaml:6:9: dependencies\.risk: empty\.csv: no samples/);
    expect(refusal('empirical(typo.csv)')).toMatch(/dependencies\.risk: typo\.csv:2: expected a duration/);
    expect(refusal('empirical(bare.csv)')).toMatch(/bare\.csv:1: "200" has no unit/);
    expect(refusal('empirical(bare.csv, ms)')).toBe('loaded');
  });

  it('reads Prometheus bucket lines (le in seconds) and refuses buckets that decrease', () => {
    writeFileSync(join(dir, 'risk.prom'), '# HELP risk_seconds x\n# TYPE risk_seconds histogram\nrisk_seconds_bucket{le="0.1"} 10\nrisk_seconds_bucket{le="0.5"} 90\nrisk_seconds_bucket{le="1"} 99\nrisk_seconds_bucket{le="+Inf"} 100\nrisk_seconds_sum 31\nrisk_seconds_count 100\n');
    const d = loadScenario(scenario('histogram(risk.prom)')).dependencies[0].latency;
    expect(d).toEqual({ ...parse('histogram(100ms: 10, 500ms: 90, 1s: 99, +Inf: 100)'), file: 'risk.prom' });
    writeFileSync(join(dir, 'bad.prom'), 'risk_seconds_bucket{le="0.1"} 10\nrisk_seconds_bucket{le="0.5"} 8\nrisk_seconds_bucket{le="+Inf"} 100\n');
    expect(refusal('histogram(bad.prom)')).toMatch(/dependencies\.risk: bad\.prom: histogram: cumulative counts never decrease/);
    writeFileSync(join(dir, 'none.prom'), '# HELP nothing\n');
    expect(refusal('histogram(none.prom)')).toMatch(/none\.prom: no bucket lines/);
  });

  it('write back as written: scenario -> YAML -> scenario gives the same', () => {
    writeFileSync(join(dir, 'latency.csv'), '200ms\n250ms\n5s\n');
    const file = scenario('"mixture(95%: empirical(latency.csv), 5%: histogram(1s: 5, 8s: 99, +Inf: 100))"');
    const original = loadScenario(file);
    const text = scenarioToYaml(original, []);
    expect(text).toContain('mixture(95%: empirical(latency.csv), 5%: histogram(1s: 5, 8s: 99, +Inf: 100))');
    expect(parseScenario(text, file).dependencies).toEqual(original.dependencies);
  });

  it('refuses mixture weights at the field (quoted, as a value with ": " must be in YAML)', () => {
    expect(refusal('"mixture(95%: 200ms, 4%: 6s)"')).toMatch(/s\.yaml:6:9: dependencies\.risk: mixture\(\.\.\.\): the percentages add up to 99%/);
    expect(refusal('"mixture(95%: 200ms, 5%: 6s)"')).toBe('loaded');
  });
});

describe('new draws', () => {
  it('do not shift the streams a scenario already had: a mixture dependency leaves the other draws alone', () => {
    const world = (extra: string) => `name: s
duration: 10s
stock: { sku: 1, available: 100 }
workload: { clients: 2, arrival: 4/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies:
  work: uniform(50ms, 400ms)
${extra}
variants:
  a: { lock: lua-unlock, lease: 300ms }
`;
    const before = runYaml(world(''));
    const after = runYaml(world('  spare: "mixture(95%: 200ms, 5%: uniform(5s, 8s))"'));
    expect(after.history).toEqual(before.history);
    // ...and the mixture itself, used, changes the run (the test can fail).
    const used = runYaml(world('').replace('work: uniform(50ms, 400ms)', 'work: "mixture(95%: 50ms, 5%: uniform(5s, 8s))"'));
    expect(used.history).not.toEqual(before.history);
    expect(parseScenario(world('  spare: "mixture(95%: 200ms, 5%: uniform(5s, 8s))"'), 's.yaml').dependencies.map((d) => d.name)).toEqual(['work', 'spare']);
  });
});
