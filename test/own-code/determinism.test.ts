/**
 * Own-code scenarios are byte-identical for a seed: run --json twice in one process (the
 * user module is loaded afresh for every run), and compare --json with the runs spread over
 * two worker threads (each loading the module in a user-code thread of its own) against one.
 * The compiled CLI is used, as `npm test` builds it first.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resultToJson } from '../../src/report/json.js';
import { runScenario } from '../../src/runner/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';

const files = readdirSync('scenarios/own-code').filter((f) => f.endsWith('.yaml'));
const cli = (...args: string[]): string => execFileSync('node', ['bin/lock-sim.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
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

describe('own-code compare over worker threads', () => {
  it.each(files)('compare --json of %s is the same with --jobs 2 as with --jobs 1', (file) => {
    const one = cli('compare', `scenarios/own-code/${file}`, '--seeds', '1..2', '--json', '--jobs', '1');
    const two = cli('compare', `scenarios/own-code/${file}`, '--seeds', '1..2', '--json', '--jobs', '2');
    expect(two).toBe(one);
    expect(JSON.parse(one).runsPerVariant).toBe(2);
  });
});

describe('own-code output does not depend on the host time zone or locale', () => {
  it.each(files)('run --json of %s is the same under TZ=Asia/Shanghai and LANG=de_DE.UTF-8 as under TZ=UTC and LANG=C', (file) => {
    const utc = cliIn({ TZ: 'UTC', LANG: 'C', LC_ALL: 'C' }, 'run', `scenarios/own-code/${file}`, '--json');
    const shanghai = cliIn({ TZ: 'Asia/Shanghai', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' }, 'run', `scenarios/own-code/${file}`, '--json');
    expect(shanghai).toBe(utc);
  });
});
