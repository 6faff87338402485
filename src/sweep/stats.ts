/** Interval estimates for sweeps: Wilson for proportions, normal approximation for means. */

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

/**
 * Wilson score interval for k successes in n trials (better than the normal interval near
 * 0 and 1, which is where oversell probabilities live).
 */
export function wilson(k: number, n: number, z = Z95): Interval {
  if (n === 0) return { estimate: 0, low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { estimate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Mean with a 95% interval from a count, a sum and a sum of squares (normal approximation;
 * with few runs the interval is optimistic).
 */
export function meanInterval(n: number, sum: number, sumOfSquares: number, z = Z95): Interval {
  if (n === 0) return { estimate: 0, low: 0, high: 0 };
  const mean = sum / n;
  if (n === 1) return { estimate: mean, low: mean, high: mean };
  const variance = Math.max(0, (sumOfSquares - (sum * sum) / n) / (n - 1));
  const half = z * Math.sqrt(variance / n);
  return { estimate: mean, low: mean - half, high: mean + half };
}
