/** Judges a scenario's `expect:` entries against the metrics of its variants' runs. */
import type { Comparator, Expectation } from '../spec/expectations.js';
import { metricByName } from '../checker/metric-names.js';
import type { RunResult } from './run.js';

export interface ExpectationResult {
  expectation: Expectation;
  measured: number;
  passed: boolean;
}

export function compare(measured: number, comparator: Comparator, expected: number): boolean {
  switch (comparator) {
    case '==':
      return measured === expected;
    case '!=':
      return measured !== expected;
    case '<':
      return measured < expected;
    case '<=':
      return measured <= expected;
    case '>':
      return measured > expected;
    case '>=':
      return measured >= expected;
  }
}

export function judgeExpectations(expectations: readonly Expectation[], runs: readonly RunResult[]): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  for (const e of expectations) {
    if (e.statistic !== 'run') continue; // a statistic over many seeds: check and compare judge it
    const run = runs.find((r) => r.variant.name === e.variant);
    if (!run) continue; // variant not selected with --variant
    const def = metricByName.get(e.metric);
    if (!def) throw new Error(`unknown metric ${e.metric}`);
    const measured = def.read(run.metrics);
    results.push({ expectation: e, measured, passed: compare(measured, e.comparator, e.value) });
  }
  return results;
}
