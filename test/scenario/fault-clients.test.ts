/** client: all and client lists on client faults: one fault per client, located errors. */
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/spec/errors.js';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';
import { runYaml } from '../helpers.js';

const world = (fault: string): string => `name: f
duration: 10s
stock: { sku: 1, available: 100 }
workload: { clients: 3, arrival: 4/s, steps: [lock, read, deduct, order, unlock] }
faults:
  - ${fault}
variants:
  a: { lock: lua-unlock, lease: 5s }
`;

const refusal = (fault: string): string => {
  try {
    parseScenario(world(fault), 'f.yaml');
  } catch (err) {
    if (err instanceof ScenarioError) return err.message;
  }
  return 'loaded';
};

describe('client faults on several clients', () => {
  it('client: all is one fault per client, the same as writing each', () => {
    const all = parseScenario(world('{ kind: gc-pause, client: all, at: 2s, duration: 1s }'), 'f.yaml');
    expect(all.faults).toEqual([1, 2, 3].map((client) => ({ kind: 'gc-pause', client, atUs: 2_000_000, durationUs: 1_000_000 })));
    const each = runYaml(world('{ kind: gc-pause, client: 1, at: 2s, duration: 1s }').replace('faults:\n', 'faults:\n  - { kind: gc-pause, client: 2, at: 2s, duration: 1s }\n  - { kind: gc-pause, client: 3, at: 2s, duration: 1s }\n'));
    expect(runYaml(world('{ kind: gc-pause, client: all, at: 2s, duration: 1s }')).metrics).toEqual(each.metrics);
  });

  it('a list names the clients, for crashes and random pauses too', () => {
    expect(parseScenario(world('{ kind: crash, client: [1, 3], at: 2s }'), 'f.yaml').faults.map((f) => ('client' in f ? f.client : 0))).toEqual([1, 3]);
    const random = parseScenario(world('{ kind: gc-pause, client: [2, 3], rate: 6/m, duration: "uniform(100ms, 1s)" }'), 'f.yaml');
    expect(random.randomFaults.map((r) => ('client' in r.template ? r.template.client : 0))).toEqual([2, 3]);
    // Written back, each client's fault stands alone and reads the same.
    expect(parseScenario(scenarioToYaml(random, []), 'f.yaml').randomFaults).toEqual(random.randomFaults);
  });

  it('refuses a client that does not exist, an empty list, a repeated client and other words, at the field', () => {
    expect(refusal('{ kind: gc-pause, client: [1, 4], at: 2s, duration: 1s }')).toMatch(/f\.yaml:6:\d+: faults\[0\]\.client: client 4 does not exist: the workload has 3 client/);
    expect(refusal('{ kind: gc-pause, client: [1, 3], at: 2s, duration: 1s }')).toBe('loaded');
    expect(refusal('{ kind: gc-pause, client: [], at: 2s, duration: 1s }')).toMatch(/faults\[0\]\.client: an empty list of clients/);
    expect(refusal('{ kind: gc-pause, client: [2, 2], at: 2s, duration: 1s }')).toMatch(/client 2 is in the list twice/);
    expect(refusal('{ kind: crash, client: every, at: 2s }')).toMatch(/faults\[0\]\.client: expected a client number from 1 to 1000, all, or a list/);
    expect(refusal('{ kind: crash, client: 0, at: 2s }')).toMatch(/faults\[0\]\.client: expected a client number/);
  });
});
