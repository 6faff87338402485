/** The fair lock's options as the resolver fills and checks them: each refusal next to what it accepts. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';

const file = (variants: string) => `name: t
duration: 60s
stock: { sku: 1, available: 10 }
workload: { clients: 2, arrival: 10/s }
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

describe('redisson-fair variants', () => {
  it('fills threadWaitTime by version (5 s before 3.13.3, 5 minutes from it) and keeps it off every other lock', () => {
    const s = parseScenario(file('  a: { lock: redisson-fair }\n  b: { lock: redisson-fair, redisson-version: "3.12.5" }\n  c: { lock: redisson-fair, thread-wait-time: 7s }\n  r: { lock: redisson }'), 'f.yaml');
    expect(s.variants.map((v) => [v.name, v.threadWaitTimeMs, v.client, v.redissonVersion])).toEqual([
      ['a', 300_000, 'redisson', '4.7.0'],
      ['b', 5000, 'redisson', '3.12.5'],
      ['c', 7000, 'redisson', '4.7.0'],
      ['r', undefined, 'redisson', '4.7.0'],
    ]);
    expect('threadWaitTimeMs' in s.variants[3]).toBe(false);
  });

  it('refuses thread-wait-time on another lock, and on 3.11.0 where it is a final field', () => {
    expect(errorOf(file('  r: { lock: redisson, thread-wait-time: 5s }'))).toBe('f.yaml:6:42: variants.r.thread-wait-time: thread-wait-time applies to lock redisson-fair, not to this variant (lock redisson, guard none)');
    expect(errorOf(file('  f: { lock: redisson-fair, redisson-version: "3.11.0", thread-wait-time: 5s }'))).toMatch(/^f\.yaml:6:\d+: variants\.f\.thread-wait-time: Redisson 3\.11\.0's fair lock has threadWaitTime fixed at 5s/);
    expect(parseScenario(file('  f: { lock: redisson-fair, redisson-version: "3.11.1", thread-wait-time: 5s }'), 'f.yaml').variants[0].threadWaitTimeMs).toBe(5000);
  });

  it('answers Redisson\'s Config.fairLockWaitTimeout with the option that models it', () => {
    expect(errorOf(file('  f: { lock: redisson-fair, fairLockWaitTimeout: 5000 }'))).toMatch(/fairLockWaitTimeout is thread-wait-time here \(Config\.fairLockWaitTimeout/);
  });

  it('takes the watchdog options of RLock, whose watchdog it is', () => {
    const s = parseScenario(file('  f: { lock: redisson-fair, lock-watchdog-timeout: 10s, watchdog-on-error: continue, slaves-sync-timeout: 2s }'), 'f.yaml');
    expect(s.variants[0]).toMatchObject({ lockWatchdogTimeoutMs: 10_000, watchdogOnError: 'continue', slavesSyncTimeoutMs: 2000 });
    expect(errorOf(file('  f: { lock: redisson-fair, lease: 5s, lock-watchdog-timeout: 10s }'))).toMatch(/variants\.f\.lock-watchdog-timeout: lock-watchdog-timeout is the lease of a lock taken without one/);
  });

  it('writes thread-wait-time and the Redisson options back', () => {
    const s = parseScenario(file('  f: { lock: redisson-fair, wait: forever, redisson-version: "3.20.1" }'), 'f.yaml');
    const yaml = scenarioToYaml(s);
    expect(yaml).toMatch(/thread-wait-time: 5m|thread-wait-time: 300s/);
    expect(yaml).toMatch(/redisson-version: 3\.20\.1/);
    expect(yaml).toMatch(/watchdog-on-error/);
    expect(parseScenario(yaml, 'again.yaml').variants).toEqual(s.variants);
  });
});
