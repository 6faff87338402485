/**
 * Inputs that used to crash, hang or mislead (issue "Scale and robustness", found by
 * fuzzing): each is refused with file:line:col and a field path, next to the closest input
 * that must still load.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { DEFAULT_MAX_REQUESTS, estimateCost } from '../../src/scenario/cost.js';

const file = (workload: string, extra = '', variants = '  v: { lock: lua-unlock }', stock = '{ sku: 1, available: 10 }', duration = '20s') => `name: t
duration: ${duration}
stock: ${stock}
workload: ${workload}
${extra}
variants:
${variants}
`;

function errorOf(text: string, options = {}): string {
  try {
    parseScenario(text, 'f.yaml', options);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('closed-loop think time', () => {
  it('refuses think: 0 and a missing think, where a turned-away user would ask again at the same instant forever', () => {
    expect(errorOf(file('{ workers: 1, queue-limit: 0, users: 2, think: 0 }'))).toBe(
      'f.yaml:4:58: workload.think: closed-loop users need a think time above 0 (e.g. think: uniform(50ms, 150ms)): a user turned away asks again after it, and with none would ask again at the same instant forever',
    );
    expect(errorOf(file('{ users: 1100 }'))).toMatch(/^f\.yaml:4:20: workload\.users: closed-loop users need a think time above 0/);
    expect(errorOf(file('{ users: 2, think: "uniform(0us, 0us)" }'))).toContain('workload.think: closed-loop users need a think time above 0');
  });

  it('accepts a think time that may draw 0 but not always', () => {
    expect(parseScenario(file('{ users: 2, think: "uniform(0ms, 2s)" }'), 'f.yaml').workload.arrival.kind).toBe('closed');
    expect(parseScenario(file('{ users: 2, think: 1ms }'), 'f.yaml').workload.arrival.kind).toBe('closed');
  });
});

describe('the cost of a run, before it runs', () => {
  it('refuses a run expected to make more requests than the budget, naming --max-requests', () => {
    const msg = errorOf(file('{ arrival: 1000000/s }'));
    expect(msg).toMatch(/^f\.yaml:4:22: workload\.arrival: about 20,000,000 requests per run \(1000000\/s for 20s\) is over the budget of 250,000: /);
    expect(msg).toContain('raise the budget with --max-requests N');
    expect(errorOf(file('{ users: 100000, think: 1s }'))).toMatch(/^f\.yaml:4:20: workload\.users: about 2,000,000 requests per run \(100000 users for 20s/);
  });

  it('loads a run at the budget, and one over it when the budget is raised', () => {
    const at = parseScenario(file('{ arrival: 12500/s }'), 'f.yaml');
    expect(estimateCost(at).requests).toBe(DEFAULT_MAX_REQUESTS);
    expect(errorOf(file('{ arrival: 12501/s }'))).toContain('about 250,020 requests per run');
    expect(parseScenario(file('{ arrival: 1000000/s }'), 'f.yaml', { budget: { maxRequests: 20_000_000 } }).durationUs).toBe(20_000_000);
  });

  it('counts the runs held at once together: run keeps every variant until it prints (twice with --check-determinism)', () => {
    const two = file('{ arrival: 10000/s }', '', '  a: { lock: lua-unlock }\n  b: { lock: none }');
    expect(parseScenario(two, 'f.yaml', { budget: { maxRequests: 250_000, runsHeld: 1 } }).variants).toHaveLength(2);
    expect(errorOf(two, { budget: { maxRequests: 250_000, runsHeld: 'all' } })).toMatch(/^f\.yaml:4:22: workload\.arrival: about 200,000 requests per run x 2 runs held together \(10000\/s for 20s\) is over the budget of 250,000/);
    expect(parseScenario(two, 'f.yaml', { budget: { maxRequests: 400_000, runsHeld: 'all' } }).variants).toHaveLength(2);
    expect(errorOf(two, { budget: { maxRequests: 400_000, runsHeld: 'all', repeats: 2 } })).toContain('about 200,000 requests per run x 4 runs held together');
  });

  it('counts resubmitted copies and scripted requests', () => {
    expect(estimateCost(parseScenario(file('{ arrival: 10/s, resubmit: 0.5 }'), 'f.yaml')).requests).toBe(300);
    expect(estimateCost(parseScenario(file('{ requests: [{ at: 1s, sku: 1 }, { at: 2s, sku: 1 }] }'), 'f.yaml')).requests).toBe(2);
  });

  it('refuses more than 100,000 worker threads in all, and loads 100,000', () => {
    expect(errorOf(file('{ clients: 1000, workers: 10000, arrival: 1/s }'))).toBe(
      'f.yaml:4:37: workload.workers: 1000 clients x 10000 workers is 10000000 worker threads, over the limit of 100000',
    );
    expect(parseScenario(file('{ clients: 1000, workers: 100, arrival: 1/s }'), 'f.yaml').workload.workersPerClient).toBe(100);
  });

  it('refuses a random fault expected to strike more than 100,000 times, and loads one at the limit', () => {
    expect(errorOf(file('{ arrival: 1/s }', 'faults: [{ kind: gc-pause, client: 1, rate: 1000000/s, duration: 1ms }]', undefined, undefined, '24h'))).toBe(
      'f.yaml:5:45: faults[0].rate: 1000000/s for 86400s is about 86400000000 occurrences, over the limit of 100000 per fault',
    );
    const s = parseScenario(file('{ arrival: 1/s }', 'faults: [{ kind: gc-pause, client: 1, rate: 5000/s, duration: 1us }]'), 'f.yaml');
    expect(s.randomFaults).toHaveLength(1);
  });

  it('counts SKUs before building their rows: 10,000 rows of 10,000 are refused at once', () => {
    const rows = `[${Array.from({ length: 10_000 }, (_, i) => `{ sku: ${i * 10_000}, available: 1, count: 10000 }`).join(', ')}]`;
    expect(errorOf(file('{ arrival: 1/s }', '', undefined, rows))).toBe('f.yaml:3:8: stock: 100000000 SKUs is over the limit of 10000');
    expect(parseScenario(file('{ arrival: 1/s }', '', undefined, '{ sku: 1, available: 1, count: 10000 }'), 'f.yaml').stock).toHaveLength(10_000);
  });
});

describe('YAML', () => {
  const faults = (n: number) => `faults:\n  - &f { kind: gc-pause, client: 1, at: 1s, duration: 1ms }\n${'  - *f\n'.repeat(n - 1)}`;

  it('locates an alias that names no anchor', () => {
    expect(errorOf(file('{ arrival: 1/s }').replace('duration: 20s', 'duration: *nope'))).toBe(
      'f.yaml:2:11: (top level): YAML: alias *nope names no anchor defined before it (&nope)',
    );
  });

  it('allows an anchor shared by 120 faults, and refuses an alias bomb with a position', () => {
    expect(parseScenario(file('{ arrival: 1/s }', faults(120)), 'f.yaml').faults).toHaveLength(120);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefg'.split('').map((c, i) => `${c}: &${c} [${Array(10).fill(`*${'abcdefg'[i]}`).join(', ')}]`)].join('\n');
    expect(errorOf(`${bomb}\n${file('{ arrival: 1/s }')}`)).toMatch(/^f\.yaml:2:8: \(top level\): YAML: aliases expand to too much data/);
  });

  it('reads CR-only line ends like LF', () => {
    const lf = file('{ arrival: 1/s }');
    const cr = parseScenario(lf.replace(/\n/g, '\r'), 'f.yaml');
    expect({ ...cr, workloadLocation: '' }).toEqual({ ...parseScenario(lf, 'f.yaml'), workloadLocation: '' });
    expect(cr.workloadLocation).toBe('f.yaml:4:11');
    expect(parseScenario(lf.replace(/\n/g, '\r\n'), 'f.yaml').durationUs).toBe(20_000_000);
  });

  it('says a file holds one document, without naming a library call', () => {
    const msg = errorOf(`${file('{ arrival: 1/s }')}---\nname: second\n`);
    expect(msg).toBe('f.yaml:8:1: (top level): YAML: a scenario file holds one YAML document; remove the "---" that starts a second one');
  });
});

describe('options of another lock', () => {
  it('refuses lease, wait, retry-interval and unlock-always where the lock has no use for them', () => {
    const msg = errorOf(file('{ arrival: 1/s }', '', '  n: { lock: none, lease: 1ms, wait: forever, unlock-always: true }\n  r: { lock: redisson, retry-interval: 1ms }'));
    expect(msg).toContain('f.yaml:7:27: variants.n.lease: lease applies to lock setnx-expire or set-nx-px or token-get-del or lua-unlock or delex-unlock or delifeq-unlock or lua-extend or ifeq-extend or fenced or redisson or redisson-fenced or redisson-multi or redisson-fair or redisson-read-write or redlock or module or redisson-permit-expirable-semaphore, not to this variant (lock none, guard none)');
    expect(msg).toContain('variants.n.wait: wait applies to lock setnx-expire or set-nx-px or token-get-del or lua-unlock or delex-unlock or delifeq-unlock or lua-extend or ifeq-extend or fenced or redisson or redisson-fenced or redisson-multi or redisson-fair or redisson-read-write or module or redisson-semaphore or redisson-permit-expirable-semaphore, not to this variant (lock none, guard none)');
    expect(msg).toContain('variants.n.unlock-always: unlock-always applies to lock');
    expect(msg).toContain('variants.r.retry-interval: retry-interval applies to lock setnx-expire or set-nx-px or token-get-del or lua-unlock or delex-unlock or delifeq-unlock or lua-extend or ifeq-extend or fenced or module, not to this variant (lock redisson, guard none)');
  });

  it('accepts them on the locks that use them', () => {
    const s = parseScenario(
      file('{ arrival: 1/s }', '', '  l: { lock: lua-unlock, lease: 1s, wait: 1s, retry-interval: 1ms, unlock-always: true }\n  r: { lock: redisson, lease: 1s, wait: forever }\n  n: { lock: none, order-key: unique }'),
      'f.yaml',
    );
    expect(s.variants.map((v) => [v.name, v.retryIntervalMs, v.waitMs])).toEqual([['l', 1, 1000], ['r', 50, Number.POSITIVE_INFINITY], ['n', 50, 0]]);
  });
});

describe('expectations on times', () => {
  it('refuses a bare number on a time metric, which would be read as microseconds', () => {
    expect(errorOf(file('{ arrival: 1/s }', 'expect: { v: { p99: 30 } }'))).toBe(
      'f.yaml:5:21: expect.v.p99: this metric is a time: write it with a unit, e.g. "30s" or "30ms"; found number 30',
    );
    expect(errorOf(file('{ arrival: 1/s }', 'expect: { v: { stuck-time: [1, "<= 5s"] } }'))).toContain('expect.v.stuck-time[0]: this metric is a time');
  });

  it('takes a time with a unit, 0, -1 for "never", and bare numbers on counts', () => {
    const s = parseScenario(file('{ arrival: 1/s }', 'expect: { v: { p99: "30s", stuck-time: 0, first-double-holder-at: -1, oversold: 30 } }'), 'f.yaml');
    expect(s.expectations.map((e) => e.value)).toEqual([30_000_000, 0, -1, 30]);
  });
});

describe('names', () => {
  it('refuses a name longer than 100 characters at its key', () => {
    expect(errorOf(file('{ arrival: 1/s }', '', `  ${'a'.repeat(101)}: { lock: none }`))).toBe(`f.yaml:7:3: variants.${'a'.repeat(101)}: a name of 1 to 100 characters, found 101`);
    expect(errorOf(file('{ arrival: 1/s }').replace('name: t', `name: ${'n'.repeat(101)}`))).toContain('f.yaml:1:7: name: expected at most 100');
  });

  it('accepts 100 characters', () => {
    expect(parseScenario(file('{ arrival: 1/s }', '', `  ${'a'.repeat(100)}: { lock: none }`), 'f.yaml').variants[0].name).toHaveLength(100);
  });
});
