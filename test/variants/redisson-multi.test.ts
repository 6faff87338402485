/**
 * RedissonMultiLock on the model, each failure next to its must-not-fail neighbour: carts in
 * opposite orders under tryLock without a wait (each gives back at once) and with one (each
 * waits the whole budget holding a SKU), the same carts sorted; a lease set on every lock once
 * all are taken; unlock() stopping at the first lock that fails; the scenario checks of carts.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { runYaml } from '../helpers.js';

const world = (variant: string, carts: string[] = ['[1, 2]', '[2, 1]'], o: { work?: string } = {}) => `
name: multi
duration: 10s
stock:
  - { sku: 1, available: 100 }
  - { sku: 2, available: 100 }
workload:
  clients: 2
  workers: 1
  steps: [lock, read, work, deduct, order, unlock]
  requests:
${carts.map((c, i) => `    - { at: 1s, skus: ${c}, client: ${(i % 2) + 1} }`).join('\n')}
dependencies: { work: "${o.work ?? '100ms'}" }
variants:
  v: { ${variant}, guard: conditional }
`;

describe('redisson-multi', () => {
  it('without a wait: the second lock busy, the first given back at once; both requests refused', () => {
    const r = runYaml(world('lock: redisson-multi'));
    expect(r.metrics.outcomes['lock-busy']).toBe(2);
    expect(r.metrics.givenBackHoldUs!).toBeLessThan(10_000);
    const refused = r.history.filter((op) => op.f === 'acquire' && op.type === 'fail').map((op) => (op as { detail?: string }).detail);
    expect(refused[0]).toMatch(/^lock:stock:[12] not taken \(.*\); gave back lock:stock:[12]$/);
  });

  it('with a wait: each holds a SKU for the whole wait; the same carts sorted both get through', () => {
    const opposite = runYaml(world('lock: redisson-multi, wait: 1s'));
    const sorted = runYaml(world('lock: redisson-multi, wait: 1s, lock-order: sorted'));
    expect(opposite.metrics).toMatchObject({ orders: 0, partialHoldsGivenBack: 2 });
    expect(opposite.metrics.givenBackHoldUs!).toBeGreaterThanOrEqual(2 * 990_000);
    expect(sorted.metrics).toMatchObject({ orders: 2, partialHoldsGivenBack: 0 });
  });

  it('a lease: each lock taken for 2 x wait, then set to the lease once all are held (expireAsync)', () => {
    const r = runYaml(world('lock: redisson-multi, wait: 1s, lease: 5s, lock-order: sorted', ['[1, 2]']));
    expect(r.metrics.orders).toBe(1);
    const ttls = r.history.filter((op) => op.f === 'key-state' && op.cause === 'ttl').map((op) => (op as { expiresAtUs: number | null; timeUs: number }));
    // First 2 s (2 x the 1 s wait), then 5 s from the PEXPIRE.
    expect(ttls.slice(0, 2).every((op) => Math.abs((op.expiresAtUs as number) - op.timeUs - 2_000_000) < 5_000)).toBe(true);
    expect(ttls.slice(2).every((op) => Math.abs((op.expiresAtUs as number) - op.timeUs - 5_000_000) < 5_000)).toBe(true);
    expect(ttls.length).toBe(4);
    expect(r.metrics.renewals).toBe(0);
  });

  it('unlock() stops at the first RLock that throws: a lease run out under the holder fails at the cart\'s first key', () => {
    const lapsed = runYaml(world('lock: redisson-multi, wait: 1s, lease: 200ms', ['[1, 2]'], { work: '500ms' }));
    const kept = runYaml(world('lock: redisson-multi, wait: 1s, lease: 2s', ['[1, 2]'], { work: '500ms' }));
    const failed = lapsed.history.filter((op) => op.f === 'release' && op.type === 'fail').map((op) => (op as { detail?: string }).detail);
    expect(failed).toEqual(['lock:stock:1: IllegalMonitorStateException: not locked by current thread']);
    expect(kept.history.filter((op) => op.f === 'release' && op.type === 'fail')).toEqual([]);
  });

  it('without a lease: the watchdog renews every lock of the cart', () => {
    const r = runYaml(world('lock: redisson-multi, lock-watchdog-timeout: 150ms', ['[1, 2]'], { work: '400ms' }));
    expect(r.metrics.orders).toBe(1);
    expect(r.metrics.renewals).toBeGreaterThanOrEqual(2);
  });
});

describe('carts and redisson-multi options', () => {
  const load = (variant: string, carts?: string[]) => () => parseScenario(world(variant, carts), 'multi.yaml');
  it('refuses a cart of several SKUs under another lock, a repeated or unknown SKU, sku with skus', () => {
    expect(load('lock: redisson')).toThrow(/multi\.yaml:\d+:\d+: workload\.requests\[0\]\.skus: a cart of several SKUs is locked by lock: redisson-multi; variant v \(lock redisson\) takes one lock per request/);
    expect(load('lock: redisson', ['[1]', '[2]'])).not.toThrow();
    expect(load('lock: redisson-multi', ['[1, 1]'])).toThrow(/workload\.requests\[0\]\.skus\[1\]: sku 1 appears twice in the cart/);
    expect(load('lock: redisson-multi', ['[1, 3]'])).toThrow(/workload\.requests\[0\]\.skus\[1\]: no sku 3 in stock/);
    expect(() => parseScenario(world('lock: redisson-multi').replace('skus: [1, 2]', 'sku: 1, skus: [1, 2]'), 'multi.yaml')).toThrow(/give sku or skus, not both/);
  });
  it('takes lock-order on redisson-multi only, and refuses 3.11.0\'s tryLock(-1, lease)', () => {
    expect(load('lock: redisson, lock-order: sorted', ['[1]'])).toThrow(/lock-order applies to lock redisson-multi/);
    expect(load('lock: redisson-multi, lease: 5s, redisson-version: "3.11.0"')).toThrow(/redisson#2172/);
    expect(load('lock: redisson-multi, lease: 5s, wait: 1s, redisson-version: "3.11.0"')).not.toThrow();
    expect(load('lock: redisson-multi, lease: 5s, redisson-version: "3.11.1"')).not.toThrow();
  });
});
