/** Interval estimates for sweeps: Wilson for proportions, Student's t for means. */

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

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

/** Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 95% critical value for a mean of n runs: t with n-1 degrees of freedom, z beyond 30. */
function critical95(n: number): number {
  return n - 1 <= T95.length ? T95[Math.max(1, n - 1) - 1] : Z95;
}

/**
 * Mean with a 95% interval from a count, a sum and a sum of squares (Student's t for up to
 * 31 runs, the normal approximation beyond).
 */
export function meanInterval(n: number, sum: number, sumOfSquares: number): Interval {
  if (n === 0) return { estimate: 0, low: 0, high: 0 };
  const mean = sum / n;
  if (n === 1) return { estimate: mean, low: mean, high: mean };
  const variance = Math.max(0, (sumOfSquares - (sum * sum) / n) / (n - 1));
  const half = critical95(n) * Math.sqrt(variance / n);
  return { estimate: mean, low: mean - half, high: mean + half };
}
