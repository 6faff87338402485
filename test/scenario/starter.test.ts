/** `lock-sim init --topology --lock`: every starter is valid by construction, runs, and its header tells what its run shows. */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/backends/run-scenario.js';
import { DEFAULTS } from '../../src/scenario/resolve.js';
import { parseScenario } from '../../src/scenario/load.js';
import { STARTER_TOPOLOGIES, guardedVariantName, starterScenario, withRunFacts } from '../../src/scenario/starter.js';
import { starterFactLines, starterFacts } from '../../src/report/starter-facts.js';
import { verdictOf } from '../../src/report/verdict-paint.js';
import { formatMicros } from '../../src/engine/time.js';
import type { StarterOptions } from '../../src/scenario/starter.js';
import { GUARD_NAMES, LOCK_NAMES } from '../../src/variants/registry.js';

const combinations = STARTER_TOPOLOGIES.flatMap((topology) =>
  // Redlock runs on independent masters only (init refuses it elsewhere); any other lock uses the first of them.
  LOCK_NAMES.filter((lock) => lock !== 'redlock' || topology === 'independent').map((lock) => ({ topology, lock })),
);

describe('starterScenario', () => {
  it.each(combinations)('$lock on $topology: loads, runs, and its header tells what its run shows', ({ topology, lock }) => {
    const { text, scenario } = starterScenario({ topology, lock });
    expect(text.startsWith('# A starter scenario')).toBe(true);
    expect(scenario.redis.topology).toBe(topology);
    expect(scenario.variants.map((v) => v.lock)).toEqual([lock, lock]);
    expect(scenario.variants.map((v) => v.guard)).toEqual(['none', 'conditional']);
    headerTellsTheTruth({ topology, lock });
  });

  it.each(GUARD_NAMES.map((guard) => ({ guard, lock: guard === 'fenced-write' ? 'fenced' : 'lua-unlock' })))('guard $guard (on $lock): a variant with that guard beside the conditional one, and its header is true', ({ guard, lock }) => {
    const { scenario } = starterScenario({ topology: 'standalone', lock, guard });
    const expected: Array<[string, string]> = guard === 'conditional' ? [[lock, 'conditional']] : [[lock, guard], [lock, 'conditional']];
    expect(scenario.variants.map((v) => [v.lock, v.guard])).toEqual(expected);
    headerTellsTheTruth({ topology: 'standalone', lock, guard });
  });

  it('a header that no longer matches its run is caught: the check compares what the text says', () => {
    const { text, scenario } = starterScenario({ topology: 'sentinel', lock: 'lua-unlock' });
    const facts = starterFacts(scenario);
    const lying = withRunFacts(text, starterFactLines(scenario, { ...facts, outcomes: facts.outcomes.map((o) => ({ ...o, orders: o.orders + 1 })) }));
    expect(() => compareHeader(lying)).toThrow();
    expect(() => compareHeader(withRunFacts(text, starterFactLines(scenario, facts)))).not.toThrow();
  });

  it('refuses a guard the lock cannot serve, with the resolver\'s message (fenced-write needs a fencing lock)', () => {
    expect(() => starterScenario({ topology: 'standalone', lock: 'lua-unlock', guard: 'fenced-write' })).toThrow(/fenced-write needs a lock that hands out fencing tokens/);
  });

  it('writes the defaults it leaves out as comments that equal what runs: uncommenting them changes nothing', () => {
    const { text, scenario } = starterScenario({ topology: 'sentinel', lock: 'redisson' });
    expect(text).toContain(`  # down-after: ${DEFAULTS.downAfterUs / 1e6}s   # default: sentinel.conf down-after-milliseconds`);
    const uncommented = text.replace(/^ {2}# ([a-z-]+: .+?) {3}# default: .*$/gm, '  $1');
    expect(uncommented).not.toEqual(text);
    const again = parseScenario(uncommented, scenario.file);
    expect({ ...again, name: '' }).toEqual({ ...scenario, name: '' });
  });
});

/** The facts line of a written starter: failover instant (if any) and each variant's verdict and orders. */
function claimsOf(text: string): { failover: string | null; outcomes: string[] } {
  const header = text.split('\n').filter((l) => l.startsWith('#')).map((l) => l.slice(2)).join(' ');
  const line = /Its run on seed \d+ \(lock-sim run <this file>\): (.*?)\. `lock-sim explain/.exec(header);
  if (!line) throw new Error(`no facts line in the header:\n${header}`);
  const failover = /the failover promotes a replica at (\S+); /.exec(line[1]);
  const rest = failover ? line[1].slice(failover[0].length) : line[1];
  return { failover: failover ? failover[1] : null, outcomes: rest.split('; ') };
}

/** Runs the written text again, as `lock-sim run` would, and compares it with what its header claims. */
function compareHeader(text: string): void {
  const scenario = parseScenario(text, 'starter.yaml');
  const claims = claimsOf(text);
  const result = runScenario(scenario, { history: 'all' });
  const outcomes = result.runs.map((r) => `${r.variant.name}: ${verdictOf(r.metrics)}, ${r.metrics.orders} orders`);
  const promotion = result.runs[0].history.find((op) => op.f === 'fault' && op.fault === 'failover' && op.phase === 'event');
  expect(claims.outcomes).toEqual(outcomes);
  expect(claims.failover).toBe(promotion === undefined ? null : formatMicros(promotion.timeUs));
  // Every expectation the file makes holds on its own seed.
  expect(result.expectations.length).toBeGreaterThan(0);
  expect(result.expectations.filter((e) => !e.passed)).toEqual([]);
}

/**
 * What `lock-sim init` writes (the starter with its run's facts) says only what the file's run
 * shows: the verdicts and orders, the failover instant, a failover inside the run where the
 * topology has one, the stated run length and fault instant, and an expectation that holds.
 */
function headerTellsTheTruth(o: StarterOptions): void {
  const { text, scenario } = starterScenario(o);
  const written = withRunFacts(text, starterFactLines(scenario, starterFacts(scenario)));
  compareHeader(written);
  const claims = claimsOf(written);
  if (o.topology === 'sentinel' || o.topology === 'cluster') {
    expect(claims.failover).not.toBeNull();
  } else {
    expect(claims.failover).toBeNull();
  }
  const header = written.split('\n').filter((l) => l.startsWith('#')).join(' ');
  expect(header).toContain(`the run lasts ${scenario.durationUs / 1e6}s`);
  expect(header).toContain(`at ${scenario.faults[0].atUs / 1e6}s`);
  expect(written).toMatch(new RegExp(`^expect:[^\\n]*\\n  ${guardedVariantName(o).replace('+', '\\+')}: \\{ oversold: 0 \\}`, 'm'));
}
