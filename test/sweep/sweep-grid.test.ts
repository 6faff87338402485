/** sweep: cells equal separate compares on the same seeds; --find's bisection; parameter values and paths. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { compare } from '../../src/sweep/compare-variants.js';
import { bisect, findBoundary, judge, measure, parseCondition } from '../../src/sweep/find.js';
import { parseValueSpec } from '../../src/sweep/param-values.js';
import { checkDistinct, checkParam, cellText, ParamError, scenarioText } from '../../src/sweep/params.js';
import { mergeSweepResults, runCell, sweep, SweepGrid } from '../../src/sweep/sweep-grid.js';
import { wilson } from '../../src/sweep/stats.js';

/** A fixed 3 s critical section (the `work` dependency is constant) against a lease. */
const SECTION = `
name: fixed-section
duration: 20s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 4, arrival: 4/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 3s, pay: "uniform(10ms, 30ms)" }
variants:
  lease: { lock: lua-unlock, lease: 1s }
  cond:  { lock: lua-unlock, lease: 1s, guard: conditional }
`;

function grid(text: string, params: Array<[string, string]>): SweepGrid {
  const source = scenarioText(text, 'section.yaml');
  const checked = params.map(([path, values]) => {
    const spec = parseValueSpec(values);
    if (!spec.ok) throw new Error(spec.message);
    return checkParam(source, path, spec.value);
  });
  return new SweepGrid(parseScenario(text, 'section.yaml'), source, checked);
}

const withLease = (lease: string, work = '3s'): string =>
  SECTION.replace('lease: { lock: lua-unlock, lease: 1s }', `lease: { lock: lua-unlock, lease: ${lease} }`).replace('work: 3s', `work: ${work}`);

describe('sweep cells', () => {
  it('equal compares of the file with the value written in, on the same seeds', async () => {
    const g = grid(SECTION, [['variants.lease.lease', '2s,4s'], ['dependencies.work', '1s,3s']]);
    const seeds = [1, 2, 3];
    const result = await sweep(g, { seeds });
    expect(result.cells.map((c) => c.at)).toEqual([[0, 0], [0, 1], [1, 0], [1, 1]]);
    for (const cell of result.cells) {
      const lease = ['2s', '4s'][cell.at[0]];
      const work = ['1s', '3s'][cell.at[1]];
      const alone = await compare(parseScenario(withLease(lease, work), 'section.yaml'), { seeds });
      expect(cell.result.tally).toEqual(alone.tally);
    }
    // The grid tells the cells apart: a 2s lease under 3s of work double-holds, under 1s it does not.
    const at = (i: number, j: number) => result.cells.find((c) => c.at[0] === i && c.at[1] === j)!.result.tally.variants[0];
    expect(at(0, 1).doubleHolderRuns).toBe(3);
    expect(at(0, 0).doubleHolderRuns).toBe(0);
  });

  it('merges shards into the whole sweep, cell by cell', async () => {
    const g = grid(SECTION, [['variants.lease.lease', '2s,4s']]);
    const seeds = [1, 2, 3, 4];
    const whole = await sweep(g, { seeds });
    const parts = await Promise.all([1, 2].map((k) => sweep(g, { seeds, shard: { k, n: 2 } })));
    expect(mergeSweepResults(parts)).toEqual(whole);
    expect(() => mergeSweepResults([parts[0], parts[0]])).toThrow(/shards must be 1..2 once each/);
  });

  it('sets one argument of a distribution and leaves the rest of the file as it was', () => {
    const g = grid(SECTION, [['dependencies.pay.max', '50ms,90ms']]);
    expect(g.scenarioAt([1]).dependencies.find((d) => d.name === 'pay')?.latency).toEqual({ kind: 'uniform', minUs: 10_000, maxUs: 90_000 });
    expect(cellText(g.source, g.params, [g.params[0].spec.values[0]])).toContain('uniform(10ms, 50ms)');
    expect(g.scenarioAt([0]).variants).toEqual(parseScenario(SECTION, 'section.yaml').variants);
  });
});

describe('sweep --find', () => {
  it('finds a fixed 3s critical section against the lease to within one 500ms step', async () => {
    const g = grid(SECTION, [['variants.lease.lease', '1s..6s/11']]);
    const seeds = [1, 2, 3];
    const condition = parseCondition('p(double-holders > 0) <= 0.01');
    if (!condition.ok) throw new Error(condition.message);
    const found = await findBoundary(condition.value, 'variants.lease.lease', g.axes[0].labels, ['lease'], (i) => runCell(g, [i], { seeds, variants: ['lease'] }), () => '');
    const b = found.variants[0].boundary!;
    // The section is 3s of work plus milliseconds of Redis and SQL round trips: the flip lies
    // in the step that contains 3s.
    const us = (label: string) => g.axes[0].numeric[g.axes[0].labels.indexOf(label)]!;
    expect(us(b.after.label) - us(b.before.label)).toBe(500_000);
    expect(us(b.before.label)).toBeLessThan(3_000_000);
    expect(us(b.after.label)).toBeGreaterThanOrEqual(3_000_000);
    expect(b.before.holds).toBe(false);
    expect(b.after.holds).toBe(true);
    // Bisection: 11 values in at most 2 + ceil(log2(10)) cells, not 11.
    expect(found.cellsRun.length).toBeLessThanOrEqual(6);
    expect(found.variants[0].worst?.replay).toBe('');
  });

  it('reports no boundary where the condition holds along the whole range (the guarded variant never oversells)', async () => {
    const g = grid(SECTION, [['variants.cond.lease', '1s..6s/6']]);
    const condition = parseCondition('p(oversold > 0) <= 0.01');
    if (!condition.ok) throw new Error(condition.message);
    const found = await findBoundary(condition.value, 'variants.cond.lease', g.axes[0].labels, ['cond'], (i) => runCell(g, [i], { seeds: [1, 2], variants: ['cond'] }), () => '');
    expect(found.variants[0].boundary).toBeNull();
    expect(found.variants[0].ends.map((e) => e.holds)).toEqual([true, true]);
  });

  it('bisects to the first index that differs from the start', async () => {
    const flipsAt = (k: number) => (i: number) => Promise.resolve(i < k);
    for (let k = 1; k < 9; k++) expect(await bisect(9, flipsAt(k))).toBe(k);
    expect(await bisect(9, flipsAt(20))).toBeNull();
  });

  it('judges a probability surely, possibly or not by its Wilson interval', () => {
    const c = parseCondition('p(oversold > 0) <= 0.01');
    if (!c.ok) throw new Error(c.message);
    expect(judge(c.value, wilson(0, 100))).toEqual({ estimate: true, surely: false, possibly: true });
    expect(judge(c.value, wilson(0, 1000))).toEqual({ estimate: true, surely: true, possibly: true });
    expect(judge(c.value, wilson(20, 100))).toEqual({ estimate: false, surely: false, possibly: false });
  });

  it('reads p(oversold > k) from the histogram and mean(...) from the sums', () => {
    const tally = { variant: 'v', runs: 4, oversellRuns: 2, oversoldSum: 5, doubleHolderRuns: 1, doubleHoldersSum: 1, stuckUsSum: 8, orphanUsSum: 0, throughputCentsSum: 400, p99UsSum: 0, oversoldHistogram: [2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0], worst: null,
      soldOutRuns: 0, soldOutUsSum: 0, arrivalsCentsSum: 0, busyBasisPointsSum: 6_000, p99OrderedUsSum: 0, p99RefusedUsSum: 0, p99ErrorUsSum: 0,
      verdictRuns: [2, 0, 0, 0, 0, 2], livenessRuns: [4, 0, 0], lostUpdateRuns: 0, lostUpdatesSum: 0, lostUnitsSum: 0, failedBasisPointsSum: 0, longestStallUsSum: 0 };
    const read = (text: string) => {
      const c = parseCondition(text);
      if (!c.ok) throw new Error(c.message);
      return measure(c.value, tally).estimate;
    };
    expect(read('p(oversold > 0) < 1')).toBe(0.5);
    expect(read('p(oversold > 1) < 1')).toBe(0.25);
    expect(read('p(oversold >= 1) < 1')).toBe(0.5);
    expect(read('mean(orders/s) >= 1')).toBe(1);
    expect(read('mean(stuck) <= 1s')).toBe(2);
    expect(read('mean(busy-share) <= 0.5')).toBe(0.15);
  });

  it('refuses conditions it cannot read, saying what it takes', () => {
    expect(parseCondition('p(oversold > 0) <= 2')).toMatchObject({ ok: false, message: expect.stringMatching(/probability lies in 0..1/) });
    expect(parseCondition('p(sold > 0) <= 0.1')).toMatchObject({ ok: false, message: expect.stringMatching(/reads oversold or double-holders/) });
    expect(parseCondition('mean(stuck) <= 5')).toMatchObject({ ok: false, message: expect.stringMatching(/is a time/) });
    expect(parseCondition('oversold < 1')).toMatchObject({ ok: false });
    expect(parseCondition('p(oversold > 0) <= 1%')).toMatchObject({ ok: true, value: { threshold: 0.01 } });
  });
});

describe('parameter values', () => {
  const values = (text: string) => {
    const r = parseValueSpec(text);
    if (!r.ok) throw new Error(r.message);
    return r.value.values.map((v) => v.raw);
  };
  it('reads lists, linear ranges and log ranges of durations, rates and numbers', () => {
    expect(values('2s..30s/8')).toEqual(['2s', '6s', '10s', '14s', '18s', '22s', '26s', '30s']);
    expect(values('log:100ms..10s/3')).toEqual(['100ms', '1s', '10s']);
    expect(values('2/s..8/s/4')).toEqual(['2/s', '4/s', '6/s', '8/s']);
    expect(values('1..4/4')).toEqual([1, 2, 3, 4]);
    expect(values('uniform(1s, 2s),exp(3s)')).toEqual(['uniform(1s, 2s)', 'exp(3s)']);
  });
  it('refuses bad ranges and lists with what is wrong', () => {
    expect(parseValueSpec('5s..2s/3')).toMatchObject({ ok: false, message: expect.stringMatching(/runs upwards/) });
    expect(parseValueSpec('2s..5/3')).toMatchObject({ ok: false, message: expect.stringMatching(/both be durations/) });
    expect(parseValueSpec('log:0s..5s/3')).toMatchObject({ ok: false, message: expect.stringMatching(/above zero/) });
    expect(parseValueSpec('1..2/5')).toMatchObject({ ok: false, message: expect.stringMatching(/repeats the value/) });
    expect(parseValueSpec('1s..2s/1')).toMatchObject({ ok: false, message: expect.stringMatching(/2 to 200 values/) });
    expect(parseValueSpec('2s,2s')).toMatchObject({ ok: false, message: expect.stringMatching(/appears twice/) });
    expect(parseValueSpec('2s..3s/2')).toMatchObject({ ok: true });
  });
});

describe('parameter paths', () => {
  const source = scenarioText(SECTION, 'section.yaml');
  const spec = (text: string) => {
    const r = parseValueSpec(text);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };
  it('name where they leave the file, with did-you-mean', () => {
    expect(() => checkParam(source, 'variants.lese.lease', spec('1s,2s'))).toThrow(/section.yaml:8:3: --param variants.lese.lease: variants has no "lese" \(did you mean "lease"\?\)/);
    expect(() => checkParam(source, 'dependencies.pay.p99', spec('1s,2s'))).toThrow(/uniform\(...\) has no argument "p99"; its arguments are min, max/);
    expect(() => checkParam(source, 'workload.steps.9', spec('1,2'))).toThrow(/is a list of 6/);
    expect(() => checkParam(source, 'duration.x', spec('1,2'))).toThrow(/is a value, not a mapping/);
    expect(checkParam(source, 'variants.lease.wait', spec('1s,2s')).segments).toEqual(['variants', 'lease', 'wait']);
  });
  it('refuse a value the scenario format refuses, naming the parameter, the value and the field', () => {
    const g = grid(SECTION, [['variants.lease.lees', '1s,2s']]);
    expect(() => g.loadAll()).toThrow(ParamError);
    expect(() => g.loadAll()).toThrow(/--param variants.lease.lees=1s: variants.lease.lees: unknown field "lees" \(did you mean "lease"\?\)/);
    expect(() => grid(SECTION, [['variants.lease.lease', '1s,2s']]).loadAll()).not.toThrow();
  });
  it('refuse a field with a part of it, or one field twice by two spellings (found by the fuzz test: exit 3), and take two fields', () => {
    const both = (a: string, b: string) => () => checkDistinct(source, [checkParam(source, a, spec('1s,2s')), checkParam(source, b, spec('10ms,20ms'))]);
    expect(both('dependencies.pay', 'dependencies.pay.max')).toThrow(/^section\.yaml:6:\d+: --param dependencies\.pay\.max: a part of --param dependencies\.pay; sweep one of them$/);
    expect(both('dependencies.pay.max', 'dependencies.pay')).toThrow(/--param dependencies\.pay\.max: a part of --param dependencies\.pay/);
    expect(both('variants.lease.lease', 'variants.cond.lease')).not.toThrow();
    expect(both('workload.steps.1', 'workload.steps[1]')).toThrow(/the same field as --param workload\.steps\.1/);
    expect(both('dependencies.pay.min', 'dependencies.pay.max')).not.toThrow();
  });
});
