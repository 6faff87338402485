/**
 * `sweep`: a grid over one or two scenario values. Each cell is a compare of the file with
 * those values set, over the same seeds as every other cell (common random numbers: a cell
 * differs from its neighbour by the value alone), tallied exactly as compare tallies, so a
 * cell equals `compare` of that file, any --jobs gives the same bytes and shards add up.
 */
import type { LoadOptions } from '../scenario/load.js';
import type { Scenario } from '../spec/scenario.js';
import { compare, mergeCompareResults, replayCommand, summarise, type CompareResult, type VariantSummary } from './compare-variants.js';
import { identityProblems, LOCK_SIM_VERSION, scenarioIdentity, seedsIdentity, type ScenarioIdentity, type SeedsIdentity } from './tally-identity.js';
import { shellQuote } from './shell-quote.js';
import { addOutcome, emptyTally } from './compare-tally.js';
import { runCells } from './cell-pool.js';
import { shardSeeds } from '../scenario/seeds.js';
import type { ParamValue } from './param-values.js';
import { loadCell, type ScenarioText, type SweepParam } from './params.js';

/** More cells than this is a typo; 200 x 200 would take days. */
export const MAX_SWEEP_CELLS = 2_500;

export interface SweepAxis {
  path: string;
  kind: 'list' | 'linear' | 'log';
  labels: string[];
  /** Numbers for plots (microseconds for durations, per second for rates); null in a list of other values. */
  numeric: Array<number | null>;
  /** What each cell sets, as the file would write it. */
  raw: Array<string | number>;
}

interface SweepCell {
  /** Index into each axis. */
  at: number[];
  result: CompareResult;
}

export interface SweepResult {
  /** The lock-sim version that ran it; with scenario and seeds, what merge checks (tally-identity.ts). */
  version: string;
  scenario: ScenarioIdentity;
  axes: SweepAxis[];
  seeds: SeedsIdentity;
  shard: { k: number; n: number } | null;
  variants: string[];
  cells: SweepCell[];
}

interface SweepOptions {
  seeds: readonly number[];
  variants?: readonly string[];
  jobs?: number;
  shard?: { k: number; n: number } | null;
  load?: LoadOptions;
  onProgress?(doneCells: number, totalCells: number): void;
}

function axisOf(param: SweepParam): SweepAxis {
  return {
    path: param.path,
    kind: param.spec.kind,
    labels: param.spec.values.map((v) => v.label),
    numeric: param.spec.values.map((v) => v.numeric),
    raw: param.spec.values.map((v) => v.raw),
  };
}

/** Every combination of indices, the first axis slowest. */
export function gridIndices(sizes: readonly number[]): number[][] {
  let out: number[][] = [[]];
  for (const size of sizes) out = out.flatMap((prefix) => Array.from({ length: size }, (_, i) => [...prefix, i]));
  return out;
}

/**
 * Cells' scenarios a sweep keeps loaded at once. Every cell is loaded up front to check it
 * (a value the format refuses stops the sweep before anything runs) and dropped; its seeds
 * run in cell order, so a cell is loaded again when they start and a few recent ones are
 * kept: 2,500 cells of a scenario with 10,000 stock rows are never held together.
 */
const CELLS_KEPT = 4;

/** A sweep's cells: checked up front, loaded again as their seeds run. */
export class SweepGrid {
  readonly axes: SweepAxis[];
  private readonly recent = new Map<string, Scenario>();
  private readonly identities = new Map<string, ScenarioIdentity>();

  constructor(
    readonly base: Scenario,
    readonly source: ScenarioText,
    readonly params: readonly SweepParam[],
    private readonly load: LoadOptions = {},
  ) {
    this.axes = params.map(axisOf);
    const cells = params.reduce((n, p) => n * p.spec.values.length, 1);
    if (cells > MAX_SWEEP_CELLS) throw new RangeError(`${cells} cells, over the limit of ${MAX_SWEEP_CELLS}; use fewer values`);
  }

  /** The scenario of one cell (the last CELLS_KEPT are kept). */
  scenarioAt(at: readonly number[]): Scenario {
    const key = at.join(',');
    let s = this.recent.get(key);
    if (s) return s;
    const values: ParamValue[] = this.params.map((p, i) => p.spec.values[at[i]]);
    s = loadCell(this.source, this.params, values, this.load);
    this.recent.set(key, s);
    if (this.recent.size > CELLS_KEPT) this.recent.delete(this.recent.keys().next().value as string);
    if (!this.identities.has(key)) this.identities.set(key, scenarioIdentity(s));
    return s;
  }

  /** A cell's name, content hash and module code (tally-identity.ts), kept from when it was first loaded. */
  identityAt(at: readonly number[]): ScenarioIdentity {
    const key = at.join(',');
    if (!this.identities.has(key)) this.scenarioAt(at);
    return this.identities.get(key) as ScenarioIdentity;
  }

  /** Loads every cell once (a bad value is found before the first run). */
  loadAll(): void {
    for (const at of gridIndices(this.axes.map((a) => a.labels.length))) this.scenarioAt(at);
  }
}

export async function runCell(grid: SweepGrid, at: readonly number[], options: SweepOptions): Promise<CompareResult> {
  return compare(grid.scenarioAt(at), { seeds: options.seeds, variants: options.variants, jobs: options.jobs ?? 1, shard: options.shard ?? null });
}

/** An empty compare result of one cell, to be filled seed by seed (what compare() returns, tallied elsewhere). */
function cellShell(grid: SweepGrid, at: readonly number[], seeds: SeedsIdentity, variants: string[], shard: SweepOptions['shard']): CompareResult {
  return {
    version: LOCK_SIM_VERSION,
    scenario: { ...grid.identityAt(at), file: grid.source.display },
    seeds,
    shard: shard ?? null,
    variants,
    baseline: null,
    tally: emptyTally(variants, null),
  };
}

export async function sweep(grid: SweepGrid, options: SweepOptions): Promise<SweepResult> {
  const all = gridIndices(grid.axes.map((a) => a.labels.length));
  const variants = options.variants && options.variants.length > 0 ? [...options.variants] : grid.base.variants.map((v) => v.name);
  const seeds = shardSeeds(options.seeds, options.shard ?? null);
  const seedsId = seedsIdentity(options.seeds);
  const cells: SweepCell[] = all.map((at) => ({ at, result: cellShell(grid, at, seedsId, variants, options.shard) }));
  // One pool of threads for every cell (cell-pool.ts); each cell's tally is compare's.
  const perCell = new Array<number>(cells.length).fill(0);
  let done = 0;
  await runCells(
    (cell) => grid.scenarioAt(all[cell]),
    variants,
    cells.map((c, i) => ({
      cell: i,
      seeds,
      onOutcome: (o) => {
        addOutcome(c.result.tally, o);
        if (++perCell[i] === seeds.length) options.onProgress?.(++done, cells.length);
      },
    })),
    options.jobs ?? 1,
  );
  return {
    version: LOCK_SIM_VERSION,
    scenario: { ...scenarioIdentity(grid.base), file: grid.source.display },
    axes: grid.axes,
    seeds: seedsId,
    shard: options.shard ?? null,
    variants,
    cells,
  };
}

/**
 * The cells a one-parameter search (`--find`) ran, as a sweep of those values in order: what
 * its HTML report draws. The axis is a list of the values run, not the range searched.
 */
export function sweepOfCells(grid: SweepGrid, ran: ReadonlyMap<number, CompareResult>, seeds: readonly number[], variants: string[]): SweepResult {
  const axis = grid.axes[0];
  const indices = [...ran.keys()].sort((a, b) => a - b);
  const pick = <T>(xs: readonly T[]): T[] => indices.map((i) => xs[i]);
  return {
    version: LOCK_SIM_VERSION,
    scenario: { ...scenarioIdentity(grid.base), file: grid.source.display },
    axes: [{ path: axis.path, kind: 'list', labels: pick(axis.labels), numeric: pick(axis.numeric), raw: pick(axis.raw) }],
    seeds: seedsIdentity(seeds),
    shard: null,
    variants,
    cells: indices.map((index, j) => ({ at: [j], result: ran.get(index) as CompareResult })),
  };
}

/**
 * Combines the shards of one sweep, cell by cell, with compare's own merge: the same
 * identity as compare's (tally-identity.ts) and the same parameters. `files` names them.
 */
export function mergeSweepResults(parts: readonly SweepResult[], files: readonly string[] = parts.map((_, i) => `part ${i + 1}`)): SweepResult {
  if (parts.length === 0) throw new Error('nothing to merge');
  const first = parts[0];
  const problems = identityProblems(files, parts, 'sweep');
  const axesKey = (r: SweepResult): string => JSON.stringify(r.axes);
  parts.forEach((p, i) => {
    if (axesKey(p) !== axesKey(first) || p.cells.length !== first.cells.length) problems.push(`${files[i]}: axes: other parameters (${p.axes.map((a) => a.path).join(', ')}: ${p.cells.length} cells) than ${files[0]} (${first.axes.map((a) => a.path).join(', ')}: ${first.cells.length} cells)`);
  });
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const cells = first.cells.map((c, i) => ({ at: c.at, result: mergeCompareResults(parts.map((p) => p.cells[i].result), files.map((f) => `${f} cells[${i}]`)) }));
  return { ...first, shard: null, cells };
}

/** The figures a sweep reports per cell and variant. */
export interface CellSummary {
  at: number[];
  variants: VariantSummary[];
}

export const summariseCells = (result: SweepResult): CellSummary[] =>
  result.cells.map((c) => ({
    at: c.at,
    variants: summarise(c.result).variants.map((v) => ({
      ...v,
      worst: v.worst ? { ...v.worst, replay: sweepReplay(result.scenario.file, result.axes, c.at, v.worst.seed, v.variant) } : null,
    })),
  }));

/** The command that replays one run of one cell: run with each parameter set to the cell's value. */
function sweepReplay(file: string, axes: readonly SweepAxis[], at: readonly number[], seed: number, variant: string): string {
  return `${replayCommand(file, seed, variant)}${axes.map((a, i) => ` --param ${shellQuote(`${a.path}=${a.raw[at[i]]}`)}`).join('')}`;
}
