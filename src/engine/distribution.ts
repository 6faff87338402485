/**
 * Latency and duration distributions, sampled into integer microseconds.
 * Plain data so a scenario can state them (`uniform(1ms, 20ms)`) and a report can print them.
 */
import type { Micros } from './time.js';
import type { RandomStream } from './random.js';
import { formatMicros } from './time.js';

export type Distribution =
  | { kind: 'constant'; valueUs: Micros }
  | { kind: 'uniform'; minUs: Micros; maxUs: Micros }
  | { kind: 'exponential'; meanUs: Micros }
  | { kind: 'normal'; meanUs: Micros; sdUs: Micros }
  /** Log-normal given by its median and 99th percentile: how latency SLOs are usually quoted. */
  | { kind: 'lognormal'; medianUs: Micros; p99Us: Micros }
  /**
   * One of several distributions, picked by weight for each draw: "usually 200 ms, sometimes
   * 5-8 s". Weights are kept as written (percentages, or relative numbers when `percent` is
   * false) so the scenario writes back as it was given.
   */
  | { kind: 'mixture'; percent: boolean; parts: Array<{ weight: number; distribution: Distribution }> }
  /** Draws one of measured samples, each equally likely (a bootstrap of the file's lines). */
  | { kind: 'empirical'; file: string; unitUs: Micros | null; samplesUs: Micros[] }
  /**
   * A Prometheus histogram: upper bounds (`le`) with cumulative counts, and the count of the
   * +Inf bucket (every observation). Drawn by inverting it the way histogram_quantile reads
   * it (see sampleHistogram). `file` is where it was read from, or null when written inline.
   */
  | { kind: 'histogram'; file: string | null; buckets: Array<{ leUs: Micros; count: number }>; total: number };

const Z99 = 2.3263478740408408;

export function constant(valueUs: Micros): Distribution {
  return { kind: 'constant', valueUs };
}

export function sample(d: Distribution, rng: RandomStream): Micros {
  switch (d.kind) {
    case 'constant':
      return d.valueUs;
    case 'uniform':
      return d.minUs + Math.floor(rng.next() * (d.maxUs - d.minUs + 1));
    case 'exponential':
      return Math.round(rng.exponential(d.meanUs));
    case 'normal':
      return Math.max(0, Math.round(d.meanUs + d.sdUs * rng.normal()));
    case 'lognormal': {
      const mu = Math.log(d.medianUs);
      const sigma = Math.log(d.p99Us / d.medianUs) / Z99;
      return Math.round(Math.exp(mu + sigma * rng.normal()));
    }
    case 'mixture': {
      // One draw picks the part, then the part draws from the same stream: a scenario that
      // uses no mixture draws exactly as before.
      const sum = d.parts.reduce((a, p) => a + p.weight, 0);
      let u = rng.next() * sum;
      for (const p of d.parts) {
        if (u < p.weight) return sample(p.distribution, rng);
        u -= p.weight;
      }
      return sample(d.parts[d.parts.length - 1].distribution, rng);
    }
    case 'empirical':
      return d.samplesUs[Math.min(d.samplesUs.length - 1, Math.floor(rng.next() * d.samplesUs.length))];
    case 'histogram':
      return Math.round(histogramQuantile(d, rng.next()));
  }
}

/**
 * The q-quantile of a histogram as Prometheus's histogram_quantile computes it (prometheus
 * v3.5.0 promql/quantile.go BucketQuantile; https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile):
 * rank = q x observations; the first bucket whose cumulative count reaches the rank; linear
 * interpolation inside it, from the bucket below's upper bound (0 below the first bucket);
 * a rank in the +Inf bucket returns the highest finite upper bound; a first bucket whose
 * upper bound is <= 0 returns that bound. Drawing q uniformly makes samples whose quantiles
 * are what histogram_quantile reports for the same buckets.
 */
export function histogramQuantile(d: Extract<Distribution, { kind: 'histogram' }>, q: number): number {
  const rank = q * d.total;
  const b = d.buckets.findIndex((x) => x.count >= rank);
  if (b < 0) return d.buckets[d.buckets.length - 1].leUs;
  if (b === 0 && d.buckets[0].leUs <= 0) return d.buckets[0].leUs;
  const start = b > 0 ? d.buckets[b - 1].leUs : 0;
  const below = b > 0 ? d.buckets[b - 1].count : 0;
  const inBucket = d.buckets[b].count - below;
  if (inBucket <= 0) return d.buckets[b].leUs;
  return start + (d.buckets[b].leUs - start) * ((rank - below) / inBucket);
}

/** Whether every draw is 0 (sample() never returns anything else). */
export function alwaysZero(d: Distribution): boolean {
  switch (d.kind) {
    case 'constant':
      return d.valueUs <= 0;
    case 'uniform':
      return d.maxUs <= 0;
    case 'exponential':
      return d.meanUs <= 0;
    case 'normal':
      return d.meanUs + 10 * d.sdUs < 0.5;
    case 'lognormal':
      return d.p99Us < 0.5;
    case 'mixture':
      return d.parts.every((p) => alwaysZero(p.distribution));
    case 'empirical':
      return d.samplesUs.every((x) => x <= 0);
    case 'histogram':
      return d.buckets[d.buckets.length - 1].leUs <= 0;
  }
}

export function meanOf(d: Distribution): number {
  switch (d.kind) {
    case 'constant':
      return d.valueUs;
    case 'uniform':
      return (d.minUs + d.maxUs) / 2;
    case 'exponential':
      return d.meanUs;
    case 'normal':
      return d.meanUs;
    case 'lognormal': {
      const sigma = Math.log(d.p99Us / d.medianUs) / Z99;
      return d.medianUs * Math.exp((sigma * sigma) / 2);
    }
    case 'mixture': {
      const sum = d.parts.reduce((a, p) => a + p.weight, 0);
      return d.parts.reduce((a, p) => a + (p.weight / sum) * meanOf(p.distribution), 0);
    }
    case 'empirical':
      return d.samplesUs.reduce((a, x) => a + x, 0) / Math.max(1, d.samplesUs.length);
    case 'histogram': {
      // Each bucket's observations at its middle; the +Inf bucket's at the highest bound, as drawn.
      let mean = 0;
      let below = 0;
      let start = 0;
      for (const b of d.buckets) {
        mean += ((b.count - below) * (start + b.leUs)) / 2;
        below = b.count;
        start = b.leUs;
      }
      mean += (d.total - below) * start;
      return d.total > 0 ? mean / d.total : 0;
    }
  }
}

/**
 * A distribution in the scenario syntax. `duration` writes each parameter: rounded for
 * people by default, exact when a file is written back (scenario/to-yaml.ts).
 */
export function describeDistribution(d: Distribution, duration: (us: number) => string = formatMicros): string {
  switch (d.kind) {
    case 'constant':
      return duration(d.valueUs);
    case 'uniform':
      return `uniform(${duration(d.minUs)}, ${duration(d.maxUs)})`;
    case 'exponential':
      return `exp(${duration(d.meanUs)})`;
    case 'normal':
      return `normal(${duration(d.meanUs)}, ${duration(d.sdUs)})`;
    case 'lognormal':
      return `lognormal(${duration(d.medianUs)}, ${duration(d.p99Us)})`;
    case 'mixture':
      return `mixture(${d.parts.map((p) => `${p.weight}${d.percent ? '%' : ''}: ${describeDistribution(p.distribution, duration)}`).join(', ')})`;
    case 'empirical':
      return `empirical(${d.file}${d.unitUs === null ? '' : `, ${duration(d.unitUs).replace(/^1(?=[a-z])/, '')}`})`;
    case 'histogram':
      return d.file !== null
        ? `histogram(${d.file})`
        : `histogram(${[...d.buckets.map((b) => `${duration(b.leUs)}: ${b.count}`), `+Inf: ${d.total}`].join(', ')})`;
  }
}
