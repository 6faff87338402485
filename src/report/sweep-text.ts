/**
 * The human report of `sweep`: a table per metric (one parameter: its values down, the
 * variants across; two: a grid per variant), and of `sweep --find`: each variant's boundary.
 */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { formatMicros } from '../engine/time.js';
import type { VariantSummary } from '../sweep/compare-variants.js';
import type { FindResult } from '../sweep/find.js';
import { summariseCells, type SweepResult } from '../sweep/sweep-grid.js';

const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The metrics a sweep tabulates: a name, and how one variant of one cell prints it. */
const SWEEP_METRICS: ReadonlyArray<{ key: string; title: string; cell(v: VariantSummary, wide: boolean): string }> = [
  { key: 'oversell', title: 'P(oversell)', cell: (v, wide) => (wide ? `${percent(v.oversell.estimate)} [${percent(v.oversell.low)}, ${percent(v.oversell.high)}]` : percent(v.oversell.estimate)) },
  { key: 'double-holders', title: 'P(double holders)', cell: (v, wide) => (wide ? `${percent(v.doubleHolders.estimate)} [${percent(v.doubleHolders.low)}, ${percent(v.doubleHolders.high)}]` : percent(v.doubleHolders.estimate)) },
  { key: 'stuck-orphan', title: 'stuck / orphan mean', cell: (v) => `${formatMicros(v.stuckMeanUs)} / ${formatMicros(v.orphanMeanUs)}` },
  { key: 'orders-per-s', title: 'orders/s', cell: (v) => v.throughputMean.toFixed(2) },
  { key: 'sold-out-at', title: 'sold out at (mean of the runs that sold out)', cell: (v) => (v.flashSale.soldOutRuns === 0 ? '-' : formatMicros(v.flashSale.soldOutMeanUs)) },
];

/** Compact: no rule between rows, so a grid reads as a grid. */
const table = (head: string[]): Table.Table =>
  new Table({
    head,
    style: { head: [], border: [] },
    colAligns: head.map((_, i) => (i === 0 ? 'left' : 'right')),
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });

/** The last name of a path, for a table's corner: `variants.a.lease` -> `lease`. */
const shortName = (path: string): string => path.split('.').filter((s) => !/^\d+$/.test(s)).pop() ?? path;

export function renderSweep(result: SweepResult, color: ChalkInstance): string {
  const out: string[] = [];
  const cells = summariseCells(result);
  const runs = cells[0]?.variants[0]?.runs ?? 0;
  out.push(`${color.bold(result.scenario.name)}  sweep of ${result.axes.map((a) => `${a.path} (${a.labels.length} values)`).join(' x ')}, seeds ${result.seeds.label} (${runs} runs per variant and cell), ${result.scenario.file}`);
  const [rows, cols] = result.axes;
  for (const metric of SWEEP_METRICS) {
    if (cols === undefined) {
      out.push('');
      out.push(color.bold(metric.title) + (metric.key === 'oversell' || metric.key === 'double-holders' ? color.dim(' [Wilson 95% CI]') : ''));
      const t = table([rows.path, ...result.variants]);
      cells.forEach((c) => t.push([rows.labels[c.at[0]], ...c.variants.map((v) => metric.cell(v, true))]));
      out.push(t.toString());
      continue;
    }
    result.variants.forEach((variant, vi) => {
      out.push('');
      out.push(`${color.bold(metric.title)} of ${color.bold(variant)}` + color.dim(`  (${rows.path} down, ${cols.path} across)`));
      const t = table([`${shortName(rows.path)} \\ ${shortName(cols.path)}`, ...cols.labels]);
      rows.labels.forEach((label, r) => {
        const line = cells.filter((c) => c.at[0] === r).map((c) => metric.cell(c.variants[vi], false));
        t.push([label, ...line]);
      });
      out.push(t.toString());
    });
  }
  return out.join('\n');
}

export function renderFind(find: FindResult, runsPerCell: number, color: ChalkInstance): string {
  const out: string[] = [];
  out.push(`${color.bold(find.condition)} along ${find.path}: ${find.cellsRun.length} cells run, ${runsPerCell} runs each`);
  const show = (p: { label: string; value: { estimate: number; low: number; high: number }; holds: boolean }): string =>
    `${find.path}=${p.label} (${p.holds ? 'holds' : 'fails'}: ${describe(p.value)})`;
  const probability = /^p\(/.test(find.condition);
  function describe(i: { estimate: number; low: number; high: number }): string {
    return probability ? `${percent(i.estimate)} [${percent(i.low)}, ${percent(i.high)}]` : `${Number(i.estimate.toFixed(3))}`;
  }
  for (const v of find.variants) {
    out.push('');
    if (v.boundary === null) {
      const [a, b] = v.ends;
      out.push(`  ${color.bold(v.variant)}: no boundary inside the range: ${a.holds ? 'holds' : 'fails'} at both ends, ${show(a)} and ${show(b)}`);
      continue;
    }
    out.push(`  ${color.bold(v.variant)}: boundary between ${show(v.boundary.before)} and ${show(v.boundary.after)}`);
    const first = v.ends[0].label;
    const last = v.ends[1].label;
    out.push(`    the seeds allow a boundary from ${v.uncertainty.from ?? `below ${first}`} to ${v.uncertainty.to ?? `beyond ${last}`} (by the 95% interval of each cell)`);
    if (v.worst) out.push(`    worst run on the failing side: seed ${v.worst.seed} (oversold ${v.worst.oversold}, double holders ${v.worst.doubleHolders})  ${v.worst.replay}`);
  }
  return out.join('\n');
}
