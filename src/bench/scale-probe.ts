/**
 * One long run measured in a fresh process (so that its peak memory is its own): a standalone
 * world at 1000 requests/s, the load the scale targets are set on (1 hour under 500 MiB, flat in duration).
 * `node dist/bench/scale-probe.js <seconds>` prints {requests, simulatedS, cpuMs, peakRssBytes}
 * as JSON. CPU time and the peak RSS are read from the process (resourceUsage), never in the
 * simulation.
 */
import { parseScenario } from '../scenario/load.js';
import { runSimulated } from '../backends/default-backend.js';

/** Four application processes of 16 threads, 100 SKUs with ample stock, a Lua-unlock lease. */
function scaleScenario(seconds: number): string {
  return `
name: bench-scale
duration: ${seconds}s
drain: 10s
stock: { sku: 1, available: 1000000, count: 100 }
workload: { clients: 4, workers: 16, arrival: 1000/s, steps: [lock, read, deduct, order, unlock] }
redis: { topology: standalone }
variants:
  lua: { lock: lua-unlock, lease: 10s }
`;
}

const seconds = Number(process.argv[2] ?? 60);
// A long run is over the default request budget, which guards against histories kept whole.
const scenario = parseScenario(scaleScenario(seconds), 'bench-scale.yaml', { budget: { maxRequests: 1000 * seconds * 2 } });
const before = process.cpuUsage();
const result = runSimulated(scenario, scenario.variants[0], scenario.seed, { history: 'none' });
const cpu = process.cpuUsage(before);
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ requests: result.metrics.requests, simulatedS: seconds, cpuMs: (cpu.user + cpu.system) / 1000, peakRssBytes: usage.maxRSS * 1024 })}\n`,
);
