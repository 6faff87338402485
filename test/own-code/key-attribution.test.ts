/**
 * `lock: { module, keys }`: the Redis keys a module's library keeps its lock under, attributed
 * to the request's key for the lock-key metrics; a pattern without {key} is a located error.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandKeys, isKeyArgument, lockKeyAttribution } from '../../src/own-code/key-attribution.js';
import { runSimulated } from '../../src/backends/default-backend.js';
import { ScenarioError } from '../../src/spec/errors.js';
import { parseScenario } from '../../src/scenario/load.js';

const HERE = dirname(fileURLToPath(import.meta.url));

describe('lockKeyAttribution', () => {
  it('maps a key that fits a pattern to the request key in its {key} place', () => {
    const of = lockKeyAttribution(['mutex:{key}', '{key}:fence']);
    expect(of('mutex:lock:7')).toBe('lock:7');
    expect(of('lock:7:fence')).toBe('lock:7');
  });

  it('... and nothing else: the key itself, other prefixes, a non-lock key inside the pattern', () => {
    const of = lockKeyAttribution(['mutex:{key}']);
    expect(of('lock:7')).toBeNull();
    expect(of('semaphore:lock:7')).toBeNull();
    expect(of('mutex:stock:7')).toBeNull();
  });

  it('without patterns, the lock keys are the request keys themselves', () => {
    const of = lockKeyAttribution(null);
    expect(of('lock:7')).toBe('lock:7');
    expect(of('mutex:lock:7')).toBeNull();
  });
});

function scenario(keys: string): string {
  return `
name: keys
seed: 1
duration: 30s
stock: { sku: 1, available: 1000 }
workload: { clients: 2, workers: 1, users: 2, think: 200ms, steps: [lock, read, work, deduct, order, unlock] }
dependencies: { work: "uniform(1s, 2s)" }
faults: [{ kind: gc-pause, client: 1, at: 5s, duration: 6s }]
variants:
  v: { lock: { module: ../../scenarios/own-code/locks/semaphore-mutex.mjs${keys} }, lease: 3s, wait: 20s, retry-interval: 100ms }
`;
}

describe('the keys a command names', () => {
  it('isKeyArgument names the arguments commandKeys lists, for every command form, in either case', () => {
    const names = ['EVAL', 'evalsha', 'EVAL_RO', 'FCALL', 'DEL', 'unlink', 'EXISTS', 'MGET', 'MSET', 'msetnx', 'BLPOP', 'BZPOPMAX', 'PUBLISH', 'PING', 'SCAN', 'SUBSCRIBE', 'SET', 'pexpire', 'HSET', 'GET', 'XADD'];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.array(fc.oneof(fc.integer({ min: -2, max: 5 }).map(String), fc.string({ minLength: 1, maxLength: 3 })), { maxLength: 7 }), (name, rest) => {
        // Distinct arguments (a suffix each), so a listed key names one position.
        const args = [name, ...rest.map((a, i) => (i === 1 && /^-?\d+$/.test(a) ? a : `${a}#${i}`))];
        const keys = commandKeys(args);
        for (let i = 1; i < args.length; i++) expect(isKeyArgument(args, i)).toBe(keys.includes(args[i]));
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});

describe('a redis-semaphore Mutex whose 3 s key expires in a 6 s GC pause', () => {
  it('with keys: mutex:{key}, the expiry counts as a lock lost', () => {
    const s = parseScenario(scenario(", keys: 'mutex:{key}'"), join(HERE, 'keys.yaml'));
    expect(runSimulated(s, s.variants[0]).metrics.lockLost).toBeGreaterThan(0);
  });

  it('without it, the servers hold no key named as the request key: no lock-key figure', () => {
    const s = parseScenario(scenario(''), join(HERE, 'keys.yaml'));
    const r = runSimulated(s, s.variants[0]);
    expect(r.metrics.lockLost).toBe(0);
    expect(r.metrics.doubleHolders).toBeGreaterThan(0); // the critical sections still show it
  });

  it('a pattern without {key} is refused with its location', () => {
    let err: unknown = null;
    try {
      parseScenario(scenario(", keys: 'mutex:'"), join(HERE, 'keys.yaml'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as Error).message).toMatch(/keys\.yaml:\d+:\d+: variants\.v\.lock\.keys: a key pattern holds \{key\} exactly once/);
  });
});
