/**
 * Simulated time is an integer number of microseconds since the start of a run.
 * Integers keep runs byte-identical across machines (no float drift in sums), and
 * microseconds are fine enough for replication lag and network latency while a
 * double still counts exactly to 2^53 us (about 285 years).
 */
export type Micros = number;

const US_PER_MS = 1_000;
const US_PER_S = 1_000_000;

/** Human form used in stories and tables: 20.431s, 812ms, 35us. */
export function formatMicros(us: Micros): string {
  const sign = us < 0 ? '-' : '';
  const a = Math.abs(us);
  if (a >= US_PER_S) return `${sign}${trimDecimals(a / US_PER_S, 3)}s`;
  if (a >= US_PER_MS) return `${sign}${trimDecimals(a / US_PER_MS, 1)}ms`;
  return `${sign}${a}us`;
}

function trimDecimals(value: number, digits: number): string {
  return value.toFixed(digits).replace(/\.?0+$/, '');
}
