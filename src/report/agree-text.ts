/** `agree` as text (a table per variant) and as JSON (stable key order, intervals as numbers). */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { AgreeResult, AgreeRow } from '../real/agree.js';
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

export function renderAgree(result: AgreeResult, color: ChalkInstance): string {
  const out: string[] = [];
  out.push(
    color.bold(result.scenario) +
      `  simulated over ${result.seeds.length} seeds vs ${result.repeat} real runs (redis-server, real time); 95% intervals, consistent when they overlap`,
  );
  for (const v of result.variants) {
    out.push('');
    out.push(color.bold(v.variant) + `  ${v.consistent ? color.green('consistent') : color.red('NOT consistent')}`);
    const table = new Table({
      head: ['metric', `simulated (${v.simulatedRuns} runs)`, `real (${v.realRuns} runs)`, ''],
      style: { head: [], border: [] },
      colAligns: ['left', 'right', 'right', 'left'],
    });
    for (const row of v.rows) {
      const word = agreementWord(row);
      table.push([row.metric, formatEstimate(row.metric, row.simulated), formatEstimate(row.metric, row.real), row.consistent === false ? color.red(word) : word]);
    }
    out.push(table.toString());
  }
  out.push('');
  out.push(
    'stuck and orphan time of real runs come from keyspace notifications, read to about 20 ms: the real interval is widened by that before the overlap test. ' +
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
      metrics: v.rows.map((r) => ({ metric: r.metric, simulated: r.simulated, real: r.real, consistent: r.consistent })),
    })),
  };
}
