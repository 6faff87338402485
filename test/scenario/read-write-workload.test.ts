/**
 * The read-write lock's workload as the resolver checks it: readers (workload.read-share,
 * workload.requests[].mode) only beside a read-write lock, each refusal next to what it
 * accepts, and the YAML round trip.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';

const file = (workload: string, variants: string) => `name: t
duration: 60s
stock: { sku: 1, available: 10 }
workload: ${workload}
variants:
${variants}
`;

function errorOf(text: string): string {
  try {
    parseScenario(text, 'f.yaml');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the scenario to be rejected');
}

const SCRIPT = '{ requests: [{ at: 0s, sku: 1, mode: read }, { at: 1s, sku: 1 }] }';

describe('read-write workloads', () => {
  it('takes a read share and scripted modes beside a read-write lock, with its Redisson client and options', () => {
    const s = parseScenario(file('{ clients: 2, arrival: 10/s, read-share: 0.8 }', '  rw: { lock: redisson-read-write, redisson-version: "3.44.0", lock-watchdog-timeout: 9s }'), 'f.yaml');
    expect(s.workload.readShare).toBe(0.8);
    expect(s.variants[0]).toMatchObject({ lock: 'redisson-read-write', client: 'redisson', redissonVersion: '3.44.0', lockWatchdogTimeoutMs: 9000 });
    const scripted = parseScenario(file(SCRIPT, '  rw: { lock: redisson-read-write }'), 'f.yaml');
    expect(scripted.workload.arrival).toEqual({ kind: 'script', requests: [{ atUs: 0, sku: 1, client: 1, mode: 'read' }, { atUs: 1_000_000, sku: 1, client: 1 }] });
  });

  it('refuses readers when a variant has no read lock, naming it', () => {
    expect(errorOf(file('{ clients: 2, arrival: 10/s, read-share: 0.5 }', '  rw: { lock: redisson-read-write }\n  m: { lock: redisson }'))).toBe(
      'f.yaml:4:52: workload.read-share: readers need a read-write lock: variant m has no read lock (only redisson-read-write does)',
    );
    expect(errorOf(file(SCRIPT, '  m: { lock: lua-unlock }'))).toMatch(/^f\.yaml:4:\d+: workload\.requests\[0\]\.mode: mode read needs a read-write lock: variant m has no read lock/);
    // No reader, no read-write lock: nothing to refuse.
    expect(parseScenario(file('{ clients: 2, arrival: 10/s, read-share: 0 }', '  m: { lock: redisson }'), 'f.yaml').workload.readShare).toBe(0);
  });

  it('refuses a share outside 0..1 and a mode that is neither read nor write', () => {
    expect(errorOf(file('{ clients: 2, arrival: 10/s, read-share: 1.5 }', '  rw: { lock: redisson-read-write }'))).toMatch(/workload\.read-share: expected at most 1/);
    expect(errorOf(file('{ requests: [{ at: 0s, sku: 1, mode: peek }] }', '  rw: { lock: redisson-read-write }'))).toMatch(/workload\.requests\[0\]\.mode: expected one of "read", "write", found "peek"/);
  });

  it('writes the read share and the modes back, and no mode for a workload without readers', () => {
    const s = parseScenario(file('{ clients: 2, arrival: 10/s, read-share: 0.25 }', '  rw: { lock: redisson-read-write }'), 'f.yaml');
    const yaml = scenarioToYaml(s);
    expect(yaml).toMatch(/read-share: 0\.25/);
    expect(parseScenario(yaml, 'again.yaml').workload).toEqual(s.workload);
    const scripted = parseScenario(file(SCRIPT, '  rw: { lock: redisson-read-write }'), 'f.yaml');
    expect(parseScenario(scenarioToYaml(scripted), 'again.yaml').workload).toEqual(scripted.workload);
    const plain = scenarioToYaml(parseScenario(file('{ clients: 2, arrival: 10/s }', '  m: { lock: redisson }'), 'f.yaml'));
    expect(plain).toMatch(/read-share: 0\n/);
    expect(plain).not.toMatch(/mode:/);
  });
});
