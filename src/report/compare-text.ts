/** The human report of `compare` and `merge`: one table, the worst runs, paired differences. */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { formatMicros } from '../engine/time.js';
import type { CompareSummary } from '../sweep/compare.js';
import type { Interval } from '../sweep/stats.js';
import { flashSaleCompareLine } from './flash-sale-text.js';

const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;
const probability = (i: Interval): string => `${percent(i.estimate)} [${percent(i.low)}, ${percent(i.high)}]`;
const signed = (x: number, digits: number): string => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
const difference = (i: Interval, digits: number, asPercent = false): string =>
  asPercent
    ? `${signed(i.estimate * 100, 1)} pp [${signed(i.low * 100, 1)}, ${signed(i.high * 100, 1)}]`
    : `${signed(i.estimate, digits)} [${signed(i.low, digits)}, ${signed(i.high, digits)}]`;

export function renderCompare(s: CompareSummary, color: ChalkInstance): string {
  const out: string[] = [];
  out.push(`${color.bold(s.scenario)}  seeds ${s.seeds} (${s.runsPerVariant} runs per variant), ${s.file}`);
  out.push('');
  const table = new Table({
    head: ['variant', 'P(oversell) [95% CI]', 'oversold mean/max', 'P(double holders) [95% CI]', 'stuck / orphan mean', 'orders/s', 'p99 mean', 'worst seed'],
    style: { head: [], border: [] },
    colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  });
  for (const v of s.variants) {
    table.push([
      v.variant,
      probability(v.oversell),
      `${v.oversoldMean.toFixed(2)} / ${v.oversoldMax}`,
      probability(v.doubleHolders),
      `${formatMicros(v.stuckMeanUs)} / ${formatMicros(v.orphanMeanUs)}`,
      v.throughputMean.toFixed(2),
      formatMicros(v.p99MeanUs),
      v.worst ? String(v.worst.seed) : '-',
    ]);
  }
  out.push(table.toString());
  out.push(color.dim('Intervals: Wilson 95% for probabilities; the worst run has the most oversold units, then double holders.'));
  out.push('');
  out.push(color.bold('flash sale') + color.dim(' (means per run)'));
  for (const v of s.variants) out.push(`  ${v.variant}: ${flashSaleCompareLine(v)}`);
  const worst = s.variants.filter((v) => v.worst && (v.worst.oversold > 0 || v.worst.doubleHolders > 0));
  if (worst.length > 0) {
    out.push('');
    out.push(color.bold('worst runs'));
    for (const v of worst) {
      const w = v.worst as NonNullable<typeof v.worst>;
      out.push(`  ${v.variant}: seed ${w.seed} (oversold ${w.oversold}, double holders ${w.doubleHolders})  ${w.replay}`);
    }
  }
  if (s.paired.length > 0) {
    out.push('');
    out.push(color.bold(`paired differences against ${s.paired[0].baseline}`) + color.dim(' (same seeds; mean per run [95% CI])'));
    for (const p of s.paired) {
      out.push(
        `  ${p.variant}: oversold ${difference(p.oversold, 2)}, P(oversell) ${difference(p.oversell, 1, true)}, orders/s ${difference(p.throughput, 2)}`,
      );
    }
  }
  return out.join('\n');
}
