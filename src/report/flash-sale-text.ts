/** The flash-sale lines under the tables of `run` and `compare` (checker/observers/flash-sale.ts). */
import type { RunMetrics } from '../checker/check-history.js';
import type { LatencySplit } from '../checker/observers/flash-sale.js';
import { formatMicros } from '../engine/time.js';
import type { VariantSummary } from '../sweep/compare-variants.js';

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const p99 = (s: LatencySplit): string => (s.count === 0 ? '- (0)' : `${formatMicros(s.p99Us)} (${s.count})`);

/** One run: when it sold out, arrivals, the busy share, p99 by outcome (with counts), sold-out and unknown answers. */
export function flashSaleRunLine(m: RunMetrics): string {
  const f = m.flashSale;
  return [
    f.soldOutUs >= 0 ? `sold out at ${formatMicros(f.soldOutUs)}` : 'not sold out',
    `${f.arrivalsPerS.toFixed(2)} requests/s arrived, ${pct(f.busyShare)} of answers "lock busy"`,
    `p99 by outcome: ordered ${p99(f.latency.ordered)}, refused ${p99(f.latency.refused)}, error ${p99(f.latency.error)}`,
    `sold-out ${m.outcomes['sold-out']}, unknown ${m.outcomes.unknown}`,
  ].join('; ');
}

/** Many runs: how many sold out and when on average, mean arrivals, busy share and p99 by outcome. */
export function flashSaleCompareLine(v: VariantSummary): string {
  return flashSaleCompareParts(v).join('; ');
}

/** The parts of flashSaleCompareLine: sold out, arrivals and busy share, p99 by outcome. */
export function flashSaleCompareParts(v: VariantSummary): string[] {
  const f = v.flashSale;
  // A mean p99 of 0: no request of that outcome in any run.
  const ms = (us: number): string => (us === 0 ? '-' : formatMicros(us));
  return [
    f.soldOutRuns > 0 ? `sold out in ${f.soldOutRuns}/${v.runs} runs, at ${ms(f.soldOutMeanUs)} on average` : `sold out in 0/${v.runs} runs`,
    `${f.arrivalsMean.toFixed(2)} requests/s, ${pct(f.busyShareMean)} "lock busy"`,
    `p99 by outcome: ordered ${ms(f.p99MeanUs.ordered)}, refused ${ms(f.p99MeanUs.refused)}, error ${ms(f.p99MeanUs.error)} (means)`,
  ];
}
