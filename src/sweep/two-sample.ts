/**
 * Two-sample tests for `agree` (model runs against real runs), written out here rather than
 * taken from a package: what agree needs is three small, exactly specified procedures, and the
 * npm statistics packages either lack Fisher's exact test (simple-statistics 7) or pull in a
 * large tree for it (@stdlib/stats, hundreds of packages), while these fit in one file whose
 * results the tests check against published values.
 *
 * - Fisher's exact test for two proportions (two-sided: the probability, under equal
 *   proportions with the margins fixed, of every table no more likely than the one seen;
 *   Agresti, "Categorical Data Analysis", 3rd ed., 3.5.1), for P(oversold), P(double holders).
 * - The Mann-Whitney U test for a shift between two samples of a time or a rate (two-sided;
 *   the exact null distribution of U when there are no ties and both samples are small, the
 *   normal approximation with the tie correction and a continuity correction otherwise;
 *   Hollander, Wolfe and Chicken, "Nonparametric Statistical Methods", 3rd ed., 4.1).
 * - Holm's step-down correction of p-values across metrics and variants (Holm 1979, "A
 *   simple sequentially rejective multiple test procedure").
 * - The smallest difference each test could detect at alpha 0.05 with power 0.8 for the
 *   sample sizes it had (Cohen's h for proportions; for a shift, the two-sample normal
 *   formula divided by the square root of the Mann-Whitney test's asymptotic relative
 *   efficiency 3/pi).
 */

/** z for two-sided alpha 0.05 and for power 0.8. */
const Z_ALPHA = 1.959963984540054;
const Z_POWER = 0.8416212335729143;

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials[i] = logFactorials[i - 1] + Math.log(i);
  return logFactorials[n];
}

const logChoose = (n: number, k: number): number => logFactorial(n) - logFactorial(k) - logFactorial(n - k);

/** Fisher's exact test, two-sided: k1 of n1 against k2 of n2. 1 when either sample is empty. */
export function fisherExact(k1: number, n1: number, k2: number, n2: number): number {
  if (n1 === 0 || n2 === 0) return 1;
  const successes = k1 + k2;
  const lo = Math.max(0, successes - n2);
  const hi = Math.min(n1, successes);
  const logTotal = logChoose(n1 + n2, successes);
  const prob = (a: number): number => Math.exp(logChoose(n1, a) + logChoose(n2, successes - a) - logTotal);
  const observed = prob(k1);
  let p = 0;
  // Tables as likely as the observed one count too (a relative tolerance for rounding).
  for (let a = lo; a <= hi; a++) {
    const q = prob(a);
    if (q <= observed * (1 + 1e-7)) p += q;
  }
  return Math.min(1, p);
}

/** The standard normal's upper tail. */
function normalUpperTail(z: number): number {
  // Abramowitz and Stegun 7.1.26 through erfc, |error| < 1.5e-7.
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** The exact samples up to this size (no ties): counts of U fit easily. */
const EXACT_MAX = 40;

/** How many arrangements of m x's and n y's give each U (U = pairs with x above y), by recursion on the largest value. */
function exactCounts(m: number, n: number): number[] {
  // counts[i][j][u]: rolling over i; f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u).
  let previous: number[][] = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i++) {
    const current: number[][] = [];
    current[0] = [1];
    for (let j = 1; j <= n; j++) {
      const size = i * j + 1;
      const row = new Array<number>(size).fill(0);
      const left = current[j - 1];
      const up = previous[j];
      for (let u = 0; u < size; u++) {
        const a = u - j >= 0 && u - j < up.length ? up[u - j] : 0;
        const b = u < left.length ? left[u] : 0;
        row[u] = a + b;
      }
      current[j] = row;
    }
    previous = current;
  }
  return previous[n];
}

export interface MannWhitney {
  /** U of the first sample: pairs (x, y) with x > y, ties counting a half. */
  u: number;
  p: number;
  exact: boolean;
}

/** The Mann-Whitney U test, two-sided. p = 1 when either sample is empty or every value is equal. */
export function mannWhitney(xs: readonly number[], ys: readonly number[]): MannWhitney {
  const m = xs.length;
  const n = ys.length;
  if (m === 0 || n === 0) return { u: 0, p: 1, exact: true };
  const all = [...xs.map((v) => ({ v, x: true })), ...ys.map((v) => ({ v, x: false }))].sort((a, b) => a.v - b.v);
  let rankSumX = 0;
  let tieTerm = 0;
  let ties = false;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    const size = j - i + 1;
    const midrank = (i + j + 2) / 2;
    if (size > 1) {
      ties = true;
      tieTerm += size ** 3 - size;
    }
    for (let k = i; k <= j; k++) if (all[k].x) rankSumX += midrank;
    i = j + 1;
  }
  const u = rankSumX - (m * (m + 1)) / 2;
  const mean = (m * n) / 2;
  if (!ties && m <= EXACT_MAX && n <= EXACT_MAX) {
    const counts = exactCounts(m, n);
    const total = counts.reduce((s, c) => s + c, 0);
    const distance = Math.abs(u - mean);
    let tail = 0;
    for (let k = 0; k < counts.length; k++) if (Math.abs(k - mean) >= distance - 1e-9) tail += counts[k];
    return { u, p: Math.min(1, tail / total), exact: true };
  }
  const total = m + n;
  const variance = ((m * n) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
  if (variance <= 0) return { u, p: 1, exact: false };
  const z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return { u, p: Math.min(1, 2 * normalUpperTail(z)), exact: false };
}

/** Holm's step-down adjusted p-values, in the order given. */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/**
 * The smallest change from proportion `p0` a two-sided test of n1 against n2 runs detects at
 * alpha 0.05 with power 0.8 (Cohen's h = 2 asin sqrt p1 - 2 asin sqrt p0 = (z_a + z_b)
 * sqrt(1/n1 + 1/n2)), towards the side with room: from 0 up, from 1 down.
 */
export function detectableProportionChange(p0: number, n1: number, n2: number): number {
  if (n1 === 0 || n2 === 0) return 1;
  const h = (Z_ALPHA + Z_POWER) * Math.sqrt(1 / n1 + 1 / n2);
  const phi = Math.asin(Math.sqrt(Math.min(1, Math.max(0, p0))));
  const up = phi + h / 2 <= Math.PI / 2 ? Math.sin(phi + h / 2) ** 2 - p0 : Infinity;
  const down = phi - h / 2 >= 0 ? p0 - Math.sin(phi - h / 2) ** 2 : Infinity;
  return Math.min(1, up, down);
}

/**
 * The smallest shift a two-sided Mann-Whitney test of n1 against n2 runs detects at alpha 0.05
 * with power 0.8 when the values spread with standard deviation `sd`: the normal two-sample
 * formula over sqrt(3/pi), the test's efficiency relative to the t test for normal data.
 */
export function detectableShift(sd: number, n1: number, n2: number): number {
  if (n1 === 0 || n2 === 0) return Infinity;
  return ((Z_ALPHA + Z_POWER) * sd * Math.sqrt(1 / n1 + 1 / n2)) / Math.sqrt(3 / Math.PI);
}

/** The pooled standard deviation of two samples (0 with fewer than two values in all). */
export function pooledSd(xs: readonly number[], ys: readonly number[]): number {
  const ss = (v: readonly number[]): number => {
    if (v.length === 0) return 0;
    const mean = v.reduce((s, x) => s + x, 0) / v.length;
    return v.reduce((s, x) => s + (x - mean) ** 2, 0);
  };
  const df = xs.length + ys.length - 2;
  return df <= 0 ? 0 : Math.sqrt((ss(xs) + ss(ys)) / df);
}
