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
  | { kind: 'lognormal'; medianUs: Micros; p99Us: Micros };

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
  }
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
  }
}
