/** What the real-backend tests share: one real run of a variant, and the GC-pause scenario the user-module tests run. */
import { runVariantReal } from '../../../src/backends/real/real-run.js';
import { parseScenario } from '../../../src/scenario/load.js';
import type { Scenario } from '../../../src/spec/scenario.js';
import { REDIS_SERVER } from './redis-available.js';

/** One run of `variant` (by name; the first when none is named) on real Redis, at the scenario's seed. */
export function runReal(scenario: Scenario, variant?: string): ReturnType<typeof runVariantReal> {
  const spec = variant === undefined ? scenario.variants[0] : scenario.variants.find((v) => v.name === variant);
  if (!spec) throw new Error(`no variant ${variant}`);
  return runVariantReal(scenario, spec, scenario.seed, { redisServer: REDIS_SERVER });
}

/**
 * Two clients with one worker each, one SKU: client 1 asks at 1 s, client 2 at 2 s, each
 * locking around a call to `work` (`workS` seconds); `faults` is the YAML of the faults list
 * (empty: none), `variant` the YAML of the one variant, `name: {...}`.
 */
export function twoClientsYaml(name: string, o: { workS: number; drainS: number; faults: string; variant: string }): string {
  return `name: ${name}
duration: 8s
drain: ${o.drainS}s
stock: { sku: 1, available: 10 }
workload:
  clients: 2
  workers: 1
  requests:
    - { at: 1s, sku: 1, client: 1 }
    - { at: 2s, sku: 1, client: 2 }
  steps: [lock, read, work, deduct, order, unlock]
dependencies:
  work: ${o.workS}s
network:
  redis-latency: 1ms
${o.faults ? `faults:\n  - ${o.faults}\n` : ''}variants:
  ${o.variant}
`;
}

/** twoClientsYaml where client 1 takes the lock and is paused (GC) for 4 s at 1.5 s. */
export function gcPauseScenario(name: string, file: string, variant: string): Scenario {
  return parseScenario(twoClientsYaml(name, { workS: 1, drainS: 5, faults: '{ kind: gc-pause, client: 1, at: 1500ms, duration: 4s }', variant }), file);
}
