/**
 * Explore on scenarios nobody wrote for it: every lock of the registry on every topology, each
 * with a guard of the registry in turn, no faults listed (so the default set for the topology
 * is placed), a small budget. Each search ends within its budget with a witness or a statement
 * (never an exception), and the same search gives the same result twice.
 */
import { describe, expect, it } from 'vitest';
import { exploreScenario, type ExploreOptions } from '../../src/explore/explore-scenario.js';
import { parseScenario } from '../../src/scenario/load.js';
import { optionApplies } from '../../src/scenario/resolve-variants.js';
import { GUARDS, LOCKS } from '../../src/variants/registry.js';

const TOPOLOGIES: Record<string, string> = {
  standalone: 'topology: standalone',
  sentinel: 'topology: sentinel\n  replicas: 1\n  down-after: 1s',
  cluster: 'topology: cluster\n  replicas: 1\n  node-timeout: 1s',
  independent: 'topology: independent\n  masters: 3',
};
// fenced-write needs a fencing lock's tokens: the fenced locks get it, the others the rest in turn.
const guards = [...GUARDS.keys()].filter((g) => g !== 'fenced-write');
const BUDGET = 3;

function scenarioText(topology: string, lock: string, guard: string): string {
  return [
    `name: every-lock-${topology}-${lock}`,
    'seed: 7',
    'duration: 6s',
    'drain: 5s',
    'stock: { sku: 1, available: 10 }',
    'workload:',
    '  clients: 2',
    '  workers: 1',
    '  requests:',
    '    - { at: 1s, sku: 1, client: 1 }',
    '    - { at: 1s, sku: 1, client: 2 }',
    '    - { at: 3s, sku: 1, client: 2 }',
    'redis:',
    `  ${TOPOLOGIES[topology]}`,
    'variants:',
    // A lease only where the lock takes one (none takes nothing; an RSemaphore permit has no lease).
    `  v: { lock: ${lock}, guard: ${guard}${optionApplies('lease', lock, guard) ? ', lease: 2s' : ''} }`,
    '',
  ].join('\n');
}

const options: ExploreOptions = { variants: [], maxFaults: 1, budget: BUDGET, kinds: [], conditions: [], pct: { depth: 2, rounds: 1, seed: 1 }, merge: true, all: false, jobs: 1, wholeHistory: false };

// Redlock runs on independent masters only (the loader says so).
const cases = Object.keys(TOPOLOGIES).flatMap((topology, t) =>
  [...LOCKS.keys()]
    .filter((lock) => lock !== 'redlock' || topology === 'independent')
    .map((lock, l) => ({ topology, lock, guard: lock === 'fenced' || lock === 'redisson-fenced' ? 'fenced-write' : guards[(t + l) % guards.length] })),
);

describe('explore on every lock and topology', () => {
  it.each(cases)('$lock on $topology (guard $guard): a witness or a statement within the budget, the same twice', async ({ topology, lock, guard }) => {
    const scenario = parseScenario(scenarioText(topology, lock, guard), `${topology}-${lock}.yaml`);
    const first = await exploreScenario(scenario, options);
    const r = first.variants[0].result;
    expect(r.schedules).toBeGreaterThan(0);
    expect(r.schedules).toBeLessThanOrEqual(BUDGET);
    expect(r.templates.length).toBeGreaterThan(0);
    expect(['violation', 'budget', 'complete']).toContain(r.stoppedBy);
    if (r.stoppedBy === 'violation') expect(first.variants[0].witnesses).toHaveLength(1);
    const again = await exploreScenario(scenario, options);
    expect(JSON.stringify(again.variants[0].result)).toBe(JSON.stringify(r));
  });
});
