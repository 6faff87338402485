/**
 * A two-parameter sweep measured in a fresh process: `node dist/bench/sweep-grid-probe.js
 * <seeds> <jobs>` sweeps scenarios/lease-vs-slow-risk-check.yaml's lease-5s variant over
 * 3 leases x 3 risk-check spike ceilings (the sweep example of docs/guides/compare-and-sweeps.md, smaller) and prints
 * {cells, runs, wallMs} as JSON. Wall-clock reads are fine here: this measures from outside.
 */
import { loadScenario } from '../scenario/load.js';
import { parseValueSpec } from '../sweep/param-values.js';
import { checkParam, readScenarioText } from '../sweep/params.js';
import { sweep, SweepGrid } from '../sweep/sweep-grid.js';

const FILE = 'scenarios/lease-vs-slow-risk-check.yaml';
const GRID: ReadonlyArray<[string, string]> = [
  ['variants.lease-5s.lease', '2s..10s/3'],
  ['faults.0.latency.max', '4s..10s/3'],
];

const [seedsText, jobsText] = process.argv.slice(2);
const source = readScenarioText(FILE);
const params = GRID.map(([path, values]) => {
  const spec = parseValueSpec(values);
  if (!spec.ok) throw new Error(spec.message);
  return checkParam(source, path, spec.value);
});
const grid = new SweepGrid(loadScenario(FILE), source, params);
grid.loadAll();
const seeds = Array.from({ length: Number(seedsText) }, (_, i) => i + 1);
const t0 = performance.now(); // lock-sim: wall-clock ok
const result = await sweep(grid, { seeds, variants: ['lease-5s'], jobs: Number(jobsText) });
const wallMs = performance.now() - t0; // lock-sim: wall-clock ok
const runs = result.cells.reduce((n, c) => n + c.result.tally.variants.reduce((m, v) => m + v.runs, 0), 0);
process.stdout.write(`${JSON.stringify({ cells: result.cells.length, runs, wallMs })}\n`);
