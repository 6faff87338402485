/** The semaphores' options as the resolver fills and checks them: each refusal next to what it accepts. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';
import { factoryOptions } from '../../src/own-code/module-options.js';

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

describe('semaphore variants', () => {
  it('fills one permit and Redisson\'s client and version, and keeps permits off every mutex', () => {
    const s = parseScenario(file('  s: { lock: redisson-semaphore }\n  e: { lock: redisson-permit-expirable-semaphore, permits: 3, lease: 5s }\n  m: { lock: lua-unlock }'), 'f.yaml');
    expect(s.variants.map((v) => [v.name, v.permits, v.client, v.redissonVersion, v.leaseMs])).toEqual([
      ['s', 1, 'redisson', '4.7.0', null],
      ['e', 3, 'redisson', '4.7.0', 5000],
      ['m', undefined, 'jedis', '4.7.0', null],
    ]);
    expect('permits' in s.variants[2]).toBe(false);
  });

  it('refuses permits on a mutex, and a number of permits below one', () => {
    expect(errorOf(file('  m: { lock: lua-unlock, permits: 3 }'))).toBe('f.yaml:6:35: variants.m.permits: permits applies to lock redisson-semaphore or redisson-permit-expirable-semaphore or module, not to this variant (lock lua-unlock, guard none)');
    expect(errorOf(file('  s: { lock: redisson-semaphore, permits: 0 }'))).toBe('f.yaml:6:43: variants.s.permits: expected at least 1, found number 0');
  });

  it('refuses a lease on RSemaphore, whose permits have none, and takes it on the expirable one', () => {
    expect(errorOf(file('  s: { lock: redisson-semaphore, lease: 5s }'))).toMatch(/^f\.yaml:6:41: variants\.s\.lease: an RSemaphore permit has no lease: RedissonSemaphore\.tryAcquire takes none/);
    expect(parseScenario(file('  e: { lock: redisson-permit-expirable-semaphore, lease: 5s }'), 'f.yaml').variants[0].leaseMs).toBe(5000);
  });

  it('refuses another client for the semaphores, which run on Redisson\'s own', () => {
    expect(errorOf(file('  s: { lock: redisson-semaphore, client: jedis }'))).toMatch(/variants\.s\.client: Redisson runs on its own client, redisson/);
  });

  it('gives a lock module its permits as a semaphore\'s limit, and none to a module without them', () => {
    const s = parseScenario(file('  sem: { lock: { module: ./scenarios/own-code/locks/semaphore.mjs }, permits: 3 }\n  mutex: { lock: { module: ./scenarios/own-code/locks/semaphore-mutex.mjs } }'), 'f.yaml');
    expect(s.variants.map((v) => v.permits)).toEqual([3, undefined]);
    expect(factoryOptions(s.variants[0], 1_000_000).permits).toBe(3);
    expect(factoryOptions(s.variants[1], 1_000_000).permits).toBeNull();
    expect(parseScenario(scenarioToYaml(s), 'again.yaml').variants).toEqual(s.variants);
  });

  it('refuses lock.keys on a semaphore module (its key names no holder), and takes them on a mutex module', () => {
    expect(errorOf(file("  sem: { lock: { module: ./scenarios/own-code/locks/semaphore.mjs, keys: 'semaphore:{key}' }, permits: 3 }"))).toMatch(/^f\.yaml:6:\d+: variants\.sem\.lock\.keys: a semaphore module's key counts its holders and names none/);
    expect(parseScenario(file("  mutex: { lock: { module: ./scenarios/own-code/locks/semaphore-mutex.mjs, keys: 'mutex:{key}' } }"), 'f.yaml').variants[0].lockModule?.keys).toEqual(['mutex:{key}']);
  });

  it('writes permits and the Redisson options back, and no watchdog option', () => {
    const s = parseScenario(file('  s: { lock: redisson-semaphore, permits: 2, redisson-version: "3.20.1" }'), 'f.yaml');
    const yaml = scenarioToYaml(s);
    expect(yaml).toMatch(/permits: 2/);
    expect(yaml).toMatch(/redisson-version: 3\.20\.1/);
    expect(yaml).not.toMatch(/watchdog-on-error/);
    expect(parseScenario(yaml, 'again.yaml').variants).toEqual(s.variants);
  });
});
