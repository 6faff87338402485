/**
 * The smallest world for a test of a lock module in test/own-code/modules: one client, one
 * worker, one request at 1 s, a 1 ms network, run for 2 s; the module and its options vary.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/spec/scenario.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** A scenario named `name` whose one variant `v` is `./modules/<module>` with `options` (YAML). */
export function oneRequestScenario(name: string, module: string, options: string): Scenario {
  return parseScenario(
    `
name: ${name}
seed: 1
duration: 2s
stock: { sku: 1, available: 10 }
workload: { clients: 1, workers: 1, requests: [{ at: 1s, sku: 1, client: 1 }] }
network: { redis-latency: 1ms }
variants:
  v: { lock: { module: ./modules/${module}, options: ${options} } }
`,
    join(HERE, `${name}.yaml`),
  );
}
