/** `agree` as text (a table per variant) and as JSON (stable key order, intervals as numbers). */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { AgreeResult, AgreeRow, AgreeVariant } from '../agree/agree.js';
import type { Interval } from '../sweep/stats.js';

/** One estimate with its interval in the metric's unit. */
export function formatEstimate(metric: AgreeRow['metric'], i: Interval | null): string {
  if (i === null) return 'not measured';
  if (metric.startsWith('p(')) return `${i.estimate.toFixed(2)} [${i.low.toFixed(2)}, ${i.high.toFixed(2)}]`;
  const unit = metric === 'orders/s' ? '' : ' s';
  const digits = metric === 'orders/s' ? 2 : 3;
  return `${i.estimate.toFixed(digits)}${unit} [${i.low.toFixed(digits)}, ${i.high.toFixed(digits)}]`;
}

export const agreementWord = (row: AgreeRow): string =>
  row.real === null ? 'model only' : row.consistent === null ? 'not judged' : row.consistent ? 'agree' : 'DIFFER';

/** The test, its p-value and the Holm-corrected one: `Fisher p 0.017 (Holm 0.085)`. */
export function formatTest(row: AgreeRow): string {
  const name = row.test === 'fisher-exact' ? 'Fisher' : 'Mann-Whitney';
  const p = (x: number): string => (x >= 0.001 ? x.toFixed(3) : x.toExponential(1));
  return row.consistent === null ? `${name} p ${p(row.p)}` : `${name} p ${p(row.p)} (Holm ${p(row.adjustedP)})`;
}

/** The smallest difference the runs could show, in the metric's unit. */
export function formatDetectable(row: AgreeRow): string {
  if (!Number.isFinite(row.detectable)) return '-';
  if (row.metric.startsWith('p(')) return `\u00b1${row.detectable.toFixed(2)}`;
  return `\u00b1${row.detectable.toFixed(row.metric === 'orders/s' ? 2 : 3)}${row.metric === 'orders/s' ? '' : ' s'}`;
}

/** The pairs of one variant: real run i and the model's run of its seed, on the probability metrics. */
export function formatPairs(v: AgreeVariant): string {
  const bit = (x: number): string => (x > 0 ? '1' : '0');
  return v.pairs
    .map((p) => `#${p.run} seed ${p.seed}: double ${bit(p.simulated['p(double-holders)'])}/${bit(p.real['p(double-holders)'])} oversold ${bit(p.simulated['p(oversold)'])}/${bit(p.real['p(oversold)'])}`)
    .join('; ');
}

export function renderAgree(result: AgreeResult, color: ChalkInstance): string {
  const out: string[] = [];
  out.push(
    color.bold(result.scenario) +
      `  simulated over ${result.seeds.length} seeds vs ${result.repeat} real runs (redis-server, real time; real run i replays seed i); ` +
        'a metric differs when its two-sample test, Holm-corrected over every judged metric and variant, gives p < 0.05',
  );
  for (const v of result.variants) {
    out.push('');
    out.push(color.bold(v.variant) + `  ${v.consistent ? color.green('consistent') : color.red('NOT consistent')}`);
    const table = new Table({
      head: ['metric', `simulated (${v.simulatedRuns} runs)`, `real (${v.realRuns} runs)`, 'test', 'detects', ''],
      style: { head: [], border: [] },
      colAligns: ['left', 'right', 'right', 'left', 'right', 'left'],
    });
    for (const row of v.rows) {
      const word = agreementWord(row);
      table.push([row.metric, formatEstimate(row.metric, row.simulated), formatEstimate(row.metric, row.real), formatTest(row), formatDetectable(row), row.consistent === false ? color.red(word) : word]);
    }
    out.push(table.toString());
    out.push(`pairs (model/real): ${formatPairs(v)}`);
  }
  out.push('');
  out.push(
    'intervals are 95% (Wilson, Student\'s t); "detects" is the smallest difference these run counts show at alpha 0.05 with power 0.8. ' +
      'Stuck and orphan time of real runs come from keyspace notifications, read to about 20 ms: both sides are rounded to that before the test. ' +
      'Real runs are not deterministic; the seed drives arrivals and faults.',
  );
  out.push(result.consistent ? 'every judged metric agrees' : 'some metrics DIFFER between the model and real Redis');
  return out.join('\n');
}

export function agreeToJson(result: AgreeResult, redisVersion: string): unknown {
  return {
    format: 1,
    backend: 'redis',
    redisServer: redisVersion,
    deterministic: false,
    scenario: { name: result.scenario, file: result.file },
    seeds: result.seeds,
    repeat: result.repeat,
    consistent: result.consistent,
    variants: result.variants.map((v) => ({
      name: v.variant,
      simulatedRuns: v.simulatedRuns,
      realRuns: v.realRuns,
      consistent: v.consistent,
      metrics: v.rows.map((r) => ({ metric: r.metric, simulated: r.simulated, real: r.real, test: r.test, p: r.p, adjustedP: r.adjustedP, detectable: Number.isFinite(r.detectable) ? r.detectable : null, consistent: r.consistent })),
      pairs: v.pairs,
    })),
  };
}
