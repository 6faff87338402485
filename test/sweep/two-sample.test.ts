/** The two-sample tests of agree against published values, each next to its must-not-reject neighbour. */
import { describe, expect, it } from 'vitest';
import { detectableProportionChange, detectableShift, fisherExact, holm, mannWhitney, pooledSd } from '../../src/sweep/two-sample.js';

describe("Fisher's exact test", () => {
  it('0 of 20 against 3 of 8 differs (p about 0.017, as the agreement issue computed), which overlapping Wilson intervals called consistent', () => {
    expect(fisherExact(0, 20, 3, 8)).toBeCloseTo(0.0175, 3);
  });

  it("... while 0 of 20 against 0 of 8, or 10 of 20 against 4 of 10, does not", () => {
    expect(fisherExact(0, 20, 0, 8)).toBe(1);
    expect(fisherExact(10, 20, 4, 10)).toBeGreaterThan(0.5);
  });

  it("matches R's fisher.test on the tea-tasting table (3 1 / 1 3): p = 0.4857", () => {
    expect(fisherExact(3, 4, 1, 4)).toBeCloseTo(0.4857, 4);
  });

  it('is symmetric in its two samples and 1 with an empty one', () => {
    expect(fisherExact(2, 9, 7, 11)).toBeCloseTo(fisherExact(7, 11, 2, 9), 12);
    expect(fisherExact(0, 0, 3, 5)).toBe(1);
  });
});

describe('the Mann-Whitney U test', () => {
  it('exact without ties: 1..5 against 6..10 (U = 0, p = 2/252)', () => {
    const r = mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
    expect(r.exact).toBe(true);
    expect(r.u).toBe(0);
    expect(r.p).toBeCloseTo(2 / 252, 10);
  });

  it("... and interleaved samples do not differ (R's wilcox.test: W = 10, p = 0.6905)", () => {
    const r = mannWhitney([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]);
    expect(r.u).toBe(10);
    expect(r.p).toBeCloseTo(0.6905, 4);
  });

  it('with ties, the normal approximation with tie correction: equal samples p = 1, shifted ones small', () => {
    expect(mannWhitney([0, 0, 0, 0], [0, 0, 0]).p).toBe(1);
    const shifted = mannWhitney(Array(20).fill(0), Array(20).fill(1));
    expect(shifted.exact).toBe(false);
    expect(shifted.p).toBeLessThan(1e-6);
    expect(mannWhitney([0, 0, 1, 1, 2], [0, 1, 1, 2, 2]).p).toBeGreaterThan(0.3);
  });
});

describe("Holm's correction", () => {
  it('multiplies the smallest by m, the next by m-1, never below an earlier one', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5])).toEqual([0.5]);
    expect(holm([0.9, 0.8])).toEqual([1, 1]);
  });
});

describe('detectable differences', () => {
  it('20 runs a side detect a probability of about 0.18 against a model at 0; 5 a side only about 0.6', () => {
    expect(detectableProportionChange(0, 20, 20)).toBeCloseTo(0.184, 2);
    expect(detectableProportionChange(0, 5, 5)).toBeGreaterThan(0.5);
    expect(detectableProportionChange(1, 20, 20)).toBeCloseTo(0.184, 2);
  });

  it('a shift in units of the spread, larger for fewer runs', () => {
    expect(detectableShift(1, 20, 20)).toBeCloseTo(0.906, 2);
    expect(detectableShift(1, 5, 5)).toBeGreaterThan(detectableShift(1, 20, 20));
    expect(pooledSd([1, 2, 3], [1, 2, 3])).toBeCloseTo(1, 10);
  });
});
