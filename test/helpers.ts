/** Small hand-built worlds for tests: a scenario in YAML text, run through the real pipeline. */
import { parseScenario } from '../src/scenario/load.js';
import type { RunResult } from '../src/runner/run.js';
import { runSimulated } from '../src/backends/default-backend.js';

export function runYaml(yaml: string, variant?: string, seed?: number): RunResult {
  const scenario = parseScenario(yaml, 'test.yaml');
  const v = variant ? scenario.variants.find((x) => x.name === variant) : scenario.variants[0];
  if (!v) throw new Error(`no variant ${variant}`);
  return runSimulated(scenario, v, seed);
}

/**
 * A small world for sweep tests: a lease against 0.5-1.5s of work, so that short leases
 * double-hold on some seeds and not on others. `variants` and `expect` are YAML lines.
 */
export function sweepWorld(variants: string, expect: string, seeds = '1..30'): string {
  return `name: sweep
seeds: "${seeds}"
duration: 5s
drain: 10s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 1, users: 2, think: 300ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "uniform(500ms, 1500ms)" }
variants:
${variants}
expect:
${expect}
`;
}

/** Times (s) of the nemesis events of one kind in a run's history. */
export function faultTimesS(r: RunResult, fault: string): number[] {
  return r.history.filter((op) => op.f === 'fault' && op.fault === fault).map((op) => op.timeUs / 1e6);
}

/**
 * A small world on a failing-over Redis for the failover tests: two clients whose lua-unlock
 * requests hold the lock 100 ms each; `redis` is the scenario's redis: mapping, inside braces.
 */
export function failoverWorld(opts: { name: string; redis: string; faults: string[]; duration: string; seed?: number; clients?: number }): string {
  return `
name: ${opts.name}
seed: ${opts.seed ?? 1}
duration: ${opts.duration}
drain: 5s
stock: { sku: 1, available: 1000000 }
workload: { clients: ${opts.clients ?? 2}, workers: 2, users: 2, think: 200ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: 100ms }
redis: { ${opts.redis} }
faults:
${opts.faults.map((f) => `  - ${f}`).join('\n')}
variants:
  v: { lock: lua-unlock, lease: 5s, wait: 10s, retry-interval: 20ms }
`;
}

/** A Redis Cluster world (3 masters x 1 replica, node-timeout 15s) with the given faults, as YAML. */
export function clusterWorld(opts: { faults: string[]; duration?: string; seed?: number }): string {
  return failoverWorld({ ...opts, name: 'cluster-test', duration: opts.duration ?? '70s', redis: 'topology: cluster, replicas: 1, node-timeout: 15s, masters: 3' });
}
