/**
 * The human report of `compare` and `merge`: one table, the worst runs, paired differences,
 * as text (fits 120 columns with the default columns, variant names up to 20 characters and
 * seeds below 10 million)
 * or as Markdown (pull-request comments, CI job summaries).
 */
import type { ChalkInstance } from 'chalk';
import { formatMicros } from '../engine/time.js';
import type { CompareSummary, VariantSummary } from '../sweep/compare.js';
import type { Interval } from '../sweep/stats.js';
import { flashSaleCompareLine, flashSaleCompareParts } from './flash-sale-text.js';
import { markdownCell, renderMarkdownTable, renderTextTable, selectColumns, type Column } from './columns.js';

const percent = (x: number): string => (x * 100).toFixed(1);
/** "83.0 [74.5, 89.1]": percent, with the Wilson interval. */
const probability = (i: Interval): string => `${percent(i.estimate)} [${percent(i.low)}, ${percent(i.high)}]`;
const signed = (x: number, digits: number): string => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
/** "+0.42 [+0.10, +0.74]", or in percentage points: a paired difference with its interval. */
export const difference = (i: Interval, digits: number, asPercent = false): string =>
  asPercent
    ? `${signed(i.estimate * 100, 1)} pp [${signed(i.low * 100, 1)}, ${signed(i.high * 100, 1)}]`
    : `${signed(i.estimate, digits)} [${signed(i.low, digits)}, ${signed(i.high, digits)}]`;

/** Whether a variant's worst run broke anything: only then is it worth naming (and replaying). */
export const failedWorst = (v: VariantSummary): boolean => v.worst !== null && (v.worst.oversold > 0 || v.worst.doubleHolders > 0);

/**
 * The columns of the compare table, in order; `compare --columns` picks among them by id.
 * New metrics append a column here; one that would take the default table past 120
 * characters is marked `extra: true` (shown only when --columns names it).
 */
export const COMPARE_COLUMNS: readonly Column<VariantSummary>[] = [
  { id: 'variant', head: 'variant', align: 'left', cell: (v) => v.variant },
  { id: 'oversell', head: 'P(oversell) %\n[95% CI]', align: 'right', cell: (v) => probability(v.oversell) },
  { id: 'oversold', head: 'oversold\nmean/max', align: 'right', cell: (v) => `${v.oversoldMean.toFixed(2)}/${v.oversoldMax}` },
  { id: 'double-holders', head: 'P(2 holders) %\n[95% CI]', align: 'right', cell: (v) => probability(v.doubleHolders) },
  { id: 'stuck-orphan', head: 'stuck/orphan\nmean', align: 'right', cell: (v) => `${formatMicros(v.stuckMeanUs)}/${formatMicros(v.orphanMeanUs)}` },
  { id: 'orders-per-s', head: 'orders/s\nmean', align: 'right', cell: (v) => v.throughputMean.toFixed(2) },
  { id: 'p99', head: 'p99\nmean', align: 'right', cell: (v) => formatMicros(v.p99MeanUs) },
  { id: 'worst-seed', head: 'worst\nseed', align: 'right', cell: (v) => (failedWorst(v) ? String(v.worst?.seed) : '-') },
];

export const COMPARE_COLUMN_IDS = COMPARE_COLUMNS.map((c) => c.id);

const LEGEND = 'Intervals: Wilson 95% for probabilities. The worst run has the most oversold units, then double holders;\nit is named only when it broke something.';

export function renderCompare(s: CompareSummary, color: ChalkInstance, columns?: readonly string[]): string {
  const out: string[] = [];
  out.push(`${color.bold(s.scenario)}  seeds ${s.seeds} (${s.runsPerVariant} runs per variant), ${s.file}`);
  out.push('');
  out.push(renderTextTable(selectColumns(COMPARE_COLUMNS, columns), s.variants));
  out.push(color.dim(LEGEND));
  out.push('');
  out.push(color.bold('flash sale') + color.dim(' (means per run)'));
  // Two lines per variant, so the block fits 120 columns like the table.
  for (const v of s.variants) {
    const [soldOut, arrivals, p99] = flashSaleCompareParts(v);
    out.push(`  ${v.variant}: ${soldOut}; ${arrivals}`, `    ${p99}`);
  }
  const worst = s.variants.filter(failedWorst);
  if (worst.length > 0) {
    out.push('');
    out.push(color.bold('worst runs'));
    for (const v of worst) {
      const w = v.worst as NonNullable<typeof v.worst>;
      out.push(`  ${v.variant}: seed ${w.seed} (oversold ${w.oversold}, double holders ${w.doubleHolders})`, `    ${w.replay}`);
    }
  }
  if (s.paired.length > 0) {
    out.push('');
    out.push(color.bold(`paired differences against ${s.paired[0].baseline}`) + color.dim(' (same seeds; mean per run [95% CI])'));
    for (const p of s.paired) {
      out.push(`  ${p.variant}: oversold ${difference(p.oversold, 2)}, P(oversell) ${difference(p.oversell, 1, true)}, orders/s ${difference(p.throughput, 2)}`);
    }
  }
  return out.join('\n');
}

export function renderCompareMarkdown(s: CompareSummary, columns?: readonly string[]): string {
  const out: string[] = [];
  out.push(`### ${markdownCell(s.scenario)}: seeds ${s.seeds} (${s.runsPerVariant} runs per variant)`);
  out.push('');
  out.push(renderMarkdownTable(selectColumns(COMPARE_COLUMNS, columns), s.variants));
  out.push('');
  out.push(`_${LEGEND.replace('\n', ' ')}_`);
  out.push('');
  out.push('**Flash sale** (means per run)');
  out.push('');
  for (const v of s.variants) out.push(`- ${markdownCell(v.variant)}: ${flashSaleCompareLine(v)}`);
  const worst = s.variants.filter(failedWorst);
  if (worst.length > 0) {
    out.push('');
    out.push('**Worst runs**');
    out.push('');
    for (const v of worst) {
      const w = v.worst as NonNullable<typeof v.worst>;
      out.push(`- ${markdownCell(v.variant)}: seed ${w.seed} (oversold ${w.oversold}, double holders ${w.doubleHolders}): \`${w.replay}\``);
    }
  }
  if (s.paired.length > 0) {
    out.push('');
    out.push(`**Paired differences against ${markdownCell(s.paired[0].baseline)}** (same seeds; mean per run [95% CI])`);
    out.push('');
    for (const p of s.paired) {
      out.push(`- ${markdownCell(p.variant)}: oversold ${difference(p.oversold, 2)}, P(oversell) ${difference(p.oversell, 1, true)}, orders/s ${difference(p.throughput, 2)}`);
    }
  }
  return out.join('\n');
}
