/**
 * The sweep's work streams: the (cell, seed) pairs are handed out by a cursor, and cells are
 * loaded as their seeds start. `sweep` of 2,500 cells x 1..1000000 seeds built every pair up
 * front and died of a heap out of memory before the first seed ran.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { runCells, type CellTask } from '../../src/sweep/cell-pool.js';
import { parseValueSpec } from '../../src/sweep/param-values.js';
import { checkParam, scenarioText } from '../../src/sweep/params.js';
import { sweep, SweepGrid } from '../../src/sweep/sweep-grid.js';

const TEXT = `name: tiny
duration: 1s
stock: { sku: 1, available: 5 }
workload: { users: 1, think: 100ms }
variants:
  a: { lock: lua-unlock, lease: 1s }
`;
const scenario = parseScenario(TEXT, 'tiny.yaml');

function grid(values: string): SweepGrid {
  const source = scenarioText(TEXT, 'tiny.yaml');
  const spec = parseValueSpec(values);
  if (!spec.ok) throw new Error(spec.message);
  return new SweepGrid(scenario, source, [checkParam(source, 'variants.a.lease', spec.value)]);
}

describe('the pool of cells', () => {
  it('runs the first seed of 2,500 cells x 1,000,000 seeds at once, without building 2.5 billion pairs first', async () => {
    const seeds = Array.from({ length: 1_000_000 }, (_, i) => i + 1);
    let outcomes = 0;
    const tasks: CellTask[] = Array.from({ length: 2_500 }, (_, cell) => ({
      cell,
      seeds,
      onOutcome: () => {
        if (++outcomes === 3) throw new Error('enough');
      },
    }));
    await expect(runCells(() => scenario, ['a'], tasks, 1)).rejects.toThrow('enough');
    expect(outcomes).toBe(3);
  });

  it('hands out every (cell, seed) once, in cell order, skipping cells without seeds, asking for each cell as its seeds start', async () => {
    const seen: Array<[number, number]> = [];
    const asked: number[] = [];
    const seedLists = [[1, 2], [], [3], [], [], [4, 5, 6]];
    const tasks: CellTask[] = seedLists.map((list, cell) => ({ cell, seeds: list, onOutcome: (o) => seen.push([cell, o.seed]) }));
    await runCells(
      (cell) => {
        if (asked[asked.length - 1] !== cell) asked.push(cell);
        return scenario;
      },
      ['a'],
      tasks,
      1,
    );
    expect(seen).toEqual([[0, 1], [0, 2], [2, 3], [5, 4], [5, 5], [5, 6]]);
    expect(asked).toEqual([0, 2, 5]);
  });
});

describe('a sweep grid', () => {
  it('keeps a few recent cells loaded, loads an older one again, and keeps every cell\'s identity', () => {
    const g = grid('1s,2s,3s,4s,5s,6s');
    const zero = g.scenarioAt([0]);
    g.loadAll();
    const last = g.scenarioAt([5]);
    expect(g.scenarioAt([5])).toBe(last);
    // Cell 0 was dropped once five more were loaded, and is loaded again: another object, the same content.
    const again = g.scenarioAt([0]);
    expect(again).not.toBe(zero);
    expect(again).toEqual(zero);
    expect(g.identityAt([0]).fingerprint).toBe(grid('1s,2s,3s,4s,5s,6s').identityAt([0]).fingerprint);
    expect(g.identityAt([0]).fingerprint).not.toBe(g.identityAt([1]).fingerprint);
  });

  it('gives the same tallies as before the cells were loaded lazily: each cell equals its own sweep of one value', async () => {
    const whole = await sweep(grid('1s,2s,3s,4s,5s,6s'), { seeds: [1, 2, 3] });
    const alone = await sweep(grid('4s'), { seeds: [1, 2, 3] });
    expect(whole.cells[3].result.tally).toEqual(alone.cells[0].result.tally);
  });
});
