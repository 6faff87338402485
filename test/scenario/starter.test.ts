/** `lock-sim init --topology --lock`: every starter is valid by construction, and runs. */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/runner/run-scenario.js';
import { DEFAULTS } from '../../src/scenario/resolve.js';
import { parseScenario } from '../../src/scenario/load.js';
import { STARTER_TOPOLOGIES, starterScenario } from '../../src/scenario/starter.js';
import { GUARD_NAMES, LOCK_NAMES } from '../../src/variants/registry.js';

const combinations = STARTER_TOPOLOGIES.flatMap((topology) =>
  // Redlock runs on independent masters only (init refuses it elsewhere); any other lock uses the first of them.
  LOCK_NAMES.filter((lock) => lock !== 'redlock' || topology === 'independent').map((lock) => ({ topology, lock })),
);

describe('starterScenario', () => {
  it.each(combinations)('$lock on $topology: loads, runs every variant to the end, and starts with a comment', ({ topology, lock }) => {
    const { text, scenario } = starterScenario({ topology, lock });
    expect(text.startsWith('# A starter scenario')).toBe(true);
    expect(scenario.redis.topology).toBe(topology);
    expect(scenario.variants.map((v) => v.lock)).toEqual([lock, lock]);
    const result = runScenario(scenario);
    expect(result.runs).toHaveLength(2);
    for (const run of result.runs) expect(run.metrics.requests).toBeGreaterThan(0);
  });

  it.each(GUARD_NAMES.map((guard) => ({ guard, lock: guard === 'fenced-write' ? 'fenced' : 'lua-unlock' })))('guard $guard (on $lock): one variant with that guard, and it runs', ({ guard, lock }) => {
    const { scenario } = starterScenario({ topology: 'standalone', lock, guard });
    expect(scenario.variants.map((v) => [v.lock, v.guard])).toEqual([[lock, guard]]);
    expect(runScenario(scenario).runs[0].metrics.requests).toBeGreaterThan(0);
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
