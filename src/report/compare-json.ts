/** `compare --json`: the summary as data (stable key order; times in microseconds). */
import type { CompareSummary } from '../sweep/compare-variants.js';

export function compareToJson(summary: CompareSummary): unknown {
  return { format: 1, kind: 'compare', ...summary };
}
