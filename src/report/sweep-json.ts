/** `sweep --json` and `sweep --find --json`: the summary as data (times in microseconds). */
import type { FindResult } from '../sweep/find.js';
import { summariseCells, type SweepResult } from '../sweep/sweep-grid.js';

export function sweepToJson(result: SweepResult): unknown {
  return {
    format: 1,
    kind: 'sweep',
    scenario: result.scenario.name,
    file: result.scenario.file,
    seeds: result.seeds.label,
    axes: result.axes.map((a) => ({ path: a.path, kind: a.kind, values: a.labels, numeric: a.numeric })),
    variants: result.variants,
    cells: summariseCells(result).map((c) => ({
      at: c.at,
      values: c.at.map((i, k) => result.axes[k].labels[i]),
      variants: c.variants.map(({ oversoldHistogram: _h, ...v }) => v),
    })),
  };
}

export function findToJson(find: FindResult, scenario: { name: string; file: string }, seeds: string): unknown {
  return { format: 1, kind: 'sweep-find', scenario: scenario.name, file: scenario.file, seeds, ...find };
}
