/**
 * Own-code scenarios are byte-identical for a seed: run --json twice in one process (the
 * user module is loaded afresh for every run), and compare --json with the runs spread over
 * two worker threads (each loading the module in a user-code thread of its own) in another
 * time zone and locale against one thread in UTC.
 * The compiled CLI is used, as `npm test` builds it first.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resultToJson } from '../../src/report/json.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';

const files = readdirSync('scenarios/own-code').filter((f) => f.endsWith('.yaml'));
const cliIn = (env: Record<string, string>, ...args: string[]): string => execFileSync('node', ['bin/lock-sim.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });

describe.each(files)('scenarios/own-code/%s', (file) => {
  it('gives byte-identical JSON when run twice in one process, and another result for another seed', () => {
    const scenario = loadScenario(`scenarios/own-code/${file}`);
    const a = JSON.stringify(resultToJson(runScenario(scenario)));
    const b = JSON.stringify(resultToJson(runScenario(scenario)));
    expect(a).toBe(b);
    const c = JSON.stringify(resultToJson(runScenario(scenario, { seed: scenario.seed + 1 })));
    expect(c).not.toBe(a);
  });
});

/**
 * One pair of runs checks both: compare --jobs 1 under TZ=UTC and LANG=C against --jobs 2
 * under TZ=Asia/Shanghai and de_DE.UTF-8 (a module reading the host's zone, or state leaking
 * between a worker's runs, changes the second). Each pair costs two compares of every file,
 * the slowest test of the suite, so the two checks share it.
 */
describe('own-code output does not depend on worker threads, the host time zone or locale', () => {
  it.each(files)('compare --json of %s: --jobs 2 under TZ=Asia/Shanghai and LANG=de_DE.UTF-8 is --jobs 1 under TZ=UTC and LANG=C', (file) => {
    const one = cliIn({ TZ: 'UTC', LANG: 'C', LC_ALL: 'C' }, 'compare', `scenarios/own-code/${file}`, '--seeds', '1..2', '--json', '--jobs', '1');
    const two = cliIn({ TZ: 'Asia/Shanghai', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' }, 'compare', `scenarios/own-code/${file}`, '--seeds', '1..2', '--json', '--jobs', '2');
    expect(two).toBe(one);
    expect(JSON.parse(one).runsPerVariant).toBe(2);
  });
});
