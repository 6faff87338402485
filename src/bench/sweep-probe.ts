/**
 * One sweep measured in a fresh process (so that peak memory is this sweep's alone):
 * `node dist/bench/sweep-probe.js <scenario.yaml | memory> <seeds> <jobs>` prints
 * {runs, wallMs, peakRssBytes} as JSON. Wall-clock reads are fine here: this measures the
 * simulator from outside.
 */
import { loadScenario, parseScenario } from '../scenario/load.js';
import { compare } from '../sweep/compare-variants.js';

/** A small world for the memory sweep: 10,000 seeds of it take a minute, not an hour. */
const MEMORY_SCENARIO = `
name: bench-memory
duration: 2s
drain: 5s
stock: { sku: 1, available: 100, count: 4 }
workload: { clients: 2, workers: 4, arrival: 20/s, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "uniform(50ms, 400ms)" }
faults:
  - { kind: gc-pause, client: 1, at: 1s, duration: 600ms }
variants:
  lease:     { lock: lua-unlock, lease: 300ms }
  lease+cond: { lock: lua-unlock, lease: 300ms, guard: conditional }
`;

const [target, seedsText, jobsText] = process.argv.slice(2);
const scenario = target === 'memory' ? parseScenario(MEMORY_SCENARIO, 'bench-memory.yaml') : loadScenario(target);
const seeds = Array.from({ length: Number(seedsText) }, (_, i) => i + 1);
let peakRssBytes = process.memoryUsage().rss;
const t0 = performance.now(); // lock-sim: wall-clock ok
const result = await compare(scenario, {
  seeds,
  jobs: Number(jobsText),
  onProgress: () => {
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
  },
});
const wallMs = performance.now() - t0; // lock-sim: wall-clock ok
const runs = result.tally.variants.reduce((n, v) => n + v.runs, 0);
process.stdout.write(`${JSON.stringify({ runs, seeds: seeds.length, wallMs, peakRssBytes })}\n`);
