/** compare, merge, check, list, schema and run --check-determinism through the built bin. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { sweepWorld } from '../helpers.js';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lock-sim-sweep-'));
/** Small and quick: a 1s lease against 0.5-1.5s of work, so some seeds double-hold. */
const file = join(dir, 'sweep.yaml');
writeFileSync(
  file,
  sweepWorld(
    ['  short: { lock: lua-unlock, lease: 1s, wait: 3s, retry-interval: 10ms }', '  long:  { lock: lua-unlock, lease: 5s, wait: 3s, retry-interval: 10ms }'].join('\n'),
    ['  long:  { double-holders: 0, "p(orders > 0)": 1 }', '  short: { double-holders: 0, "mean(double-holders)": "< 100" }'].join('\n'),
  ),
);

describe('lock-sim compare', () => {
  it('prints the same JSON with 1 and 2 worker threads', () => {
    const one = cli('compare', file, '--seeds', '1..40', '--jobs', '1', '--json', '--baseline', 'long');
    const two = cli('compare', file, '--seeds', '1..40', '--jobs', '2', '--json', '--baseline', 'long');
    expect(one.code).toBe(0);
    expect(two.out).toBe(one.out);
    const j = JSON.parse(one.out);
    expect(j.variants.map((v: { variant: string }) => v.variant)).toEqual(['short', 'long']);
    expect(j.runsPerVariant).toBe(40);
    expect(j.variants[0].worst.replay).toBe(`npx lock-sim run ${file} --seed ${j.variants[0].worst.seed} --variant short`);
    expect(j.paired[0]).toMatchObject({ variant: 'short', baseline: 'long', runs: 40 });
  });

  it('prints the same JSON whatever the threads when seeds are few (this thread runs seeds too; workers hold chunks ahead)', () => {
    const one = cli('compare', file, '--seeds', '1..5', '--jobs', '1', '--json', '--baseline', 'long');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.out).runsPerVariant).toBe(5);
    for (const jobs of ['2', '3', '5']) {
      const r = cli('compare', file, '--seeds', '1..5', '--jobs', jobs, '--json', '--baseline', 'long');
      expect(r.code).toBe(0);
      expect(r.out).toBe(one.out);
    }
  });

  it('shards and merges into the unsharded result', () => {
    const whole = cli('compare', file, '--seeds', '1..40', '--json', '--baseline', 'long', '--jobs', '2');
    const shards = [1, 2, 3].map((k) => {
      const out = join(dir, `shard${k}.json`);
      const r = cli('compare', file, '--seeds', '1..40', '--baseline', 'long', '--shard', `${k}/3`, '--output', out, '--jobs', '1');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`shard ${k}/3: 1[34] seeds run`));
      return out;
    });
    const merged = cli('merge', shards[2], shards[0], shards[1], '--json');
    expect(merged.code).toBe(0);
    expect(merged.out).toBe(whole.out);
    const text = cli('merge', ...shards);
    expect(text.out).toContain('P(oversell) %');
    const markdown = cli('merge', ...shards, '--format', 'markdown');
    expect(markdown.out).toContain('| variant | worst verdict (its runs) | P(oversell) % [95% CI] |');
    const missing = cli('merge', shards[0], shards[1]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing 3/3');
  });

  it('prints a table with intervals, worst runs and paired differences', () => {
    const r = cli('compare', file, '--seeds', '20', '--baseline', 'long', '--jobs', '1');
    expect(r.code).toBe(0);
    expect(r.out).toContain('seeds 1..20 (20 runs per variant)');
    expect(r.out).toMatch(/short\s+(SAFE|DEGRADED|STALLED|UNAVAILABLE|LEAKY|UNSAFE) \(\d+\)\s+0\.0 \[0\.0, 16\.1\]/);
    expect(r.out).toContain('worst runs');
    expect(r.out).toContain('paired differences against long');
    expect(r.err).toBe(''); // no progress bar when stderr is not a terminal
    expect(Math.max(...r.out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(120);
  });

  it('prints Markdown with --format markdown and the chosen columns with --columns; refuses unknown ones', () => {
    const r = cli('compare', file, '--seeds', '5', '--jobs', '1', '--format', 'markdown', '--columns', 'oversell,p99');
    expect(r.code).toBe(0);
    expect(r.out).toContain('| variant | P(oversell) % [95% CI] | p99 of all answers, mean |\n|---|---:|---:|');
    const typo = cli('compare', file, '--seeds', '5', '--columns', 'oversel');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('no column "oversel" (did you mean "oversell"?)');
    const format = cli('compare', file, '--seeds', '5', '--format', 'markdwn');
    expect(format.code).toBe(2);
    expect(format.err).toContain('did you mean "markdown"?');
    expect(cli('compare', file, '--seeds', '5', '--json', '--format', 'markdown').code).toBe(2);
  });

  it('rejects bad seeds, shards, jobs, variants and a shard without output with exit 2', () => {
    expect(cli('compare', file, '--seeds', '9..1').code).toBe(2);
    expect(cli('compare', file, '--seeds', '1..2000000').code).toBe(2);
    expect(cli('compare', file, '--shard', '4/3', '--output', join(dir, 'x.json')).code).toBe(2);
    expect(cli('compare', file, '--jobs', '0').code).toBe(2);
    expect(cli('compare', file, '--variants', 'nope').code).toBe(2);
    const noOutput = cli('compare', file, '--shard', '1/2');
    expect(noOutput.code).toBe(2);
    expect(noOutput.err).toContain('needs --output <file>: shards are combined with lock-sim merge');
  });
});

describe('lock-sim check', () => {
  it('exits 1 on a false expectation and prints the replay command, which reproduces the failure', () => {
    const r = cli('check', file, '--jobs', '2');
    expect(r.code).toBe(1);
    const fail = /FAIL {2}short: double-holders == 0 {2}\(measured (\d+); failed in (\d+) of 30 runs\) {2}at (\S+)\n\s+replay: (.+)/.exec(r.out);
    expect(fail).not.toBeNull();
    const [, measured, , location, replay] = fail as RegExpExecArray;
    expect(location).toBe(`${file}:13:28`);
    expect(r.out).toMatch(/pass {2}long: double-holders == 0 {2}\(held in all 30 runs\)/);
    const args = replay.replace(/^npx lock-sim /, '').split(' ');
    const again = cli(...args);
    expect(again.code).toBe(1);
    expect(again.out).toContain(`FAIL  short: double-holders == 0  (measured ${measured})`);
  });

  // The project's own scenarios folder passing (exit 0) is the last step of `npm test`
  // (`lock-sim check scenarios/` after vitest), not a test here: running it twice doubled the
  // longest part of the run for nothing.

  it('writes JUnit XML that parses, with the right counts and the failure text', () => {
    const out = join(dir, 'report.xml');
    const r = cli('check', file, '--reporter', 'junit', '--output', out, '--jobs', '1');
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL'); // the text summary still goes to stdout
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(out, 'utf8'));
    const suites = xml.testsuites;
    // Four written, and each variant's implicit live == 1.
    expect(suites.tests).toBe('6');
    expect(suites.failures).toBe('1');
    const cases = [suites.testsuite.testcase].flat();
    expect(cases).toHaveLength(6);
    expect(cases.filter((c: { name: string }) => c.name.endsWith('live == 1 (implicit)'))).toHaveLength(2);
    const failed = cases.filter((c: { failure?: unknown }) => c.failure !== undefined);
    expect(failed).toHaveLength(1);
    expect(failed[0].name).toBe('short: double-holders == 0');
    expect(failed[0].failure['#text']).toContain('replay: npx lock-sim run');
  });

  it('prints a Markdown table of the expectations with --reporter markdown (or --format markdown)', () => {
    const r = cli('check', file, '--format', 'markdown', '--jobs', '1');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^### 1 of 6 expectations failed in 1 of 1 scenarios \(2 of the 6 the implicit live == 1\)\n/);
    expect(r.out).toContain('| scenario | variant | expectation | result | measured |');
    expect(r.out).toMatch(/\| short \| `double-holders == 0` \| \*\*FAIL\*\* \| \d+; failed in \d+ of 30 runs \|/);
    expect(r.out).toContain('**Replay the failures**');
  });

  it('prints JSON with --reporter json, and rejects unknown reporters and bad files with exit 2', () => {
    const r = cli('check', file, '--reporter', 'json', '--jobs', '1');
    const j = JSON.parse(r.out);
    expect(j.passed).toBe(false);
    expect(j.scenarios[0].expectations.map((e: { passed: boolean; implicit: boolean }) => [e.passed, e.implicit])).toEqual([[true, false], [true, false], [false, false], [true, false], [true, true], [true, true]]);
    expect(cli('check', file, '--reporter', 'tap').code).toBe(2);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'name: x\nduration: 5s\nstock: { available: 1 }\nworkload: { arrival: 1/s }\nvariants: { v: { lock: nope } }\n');
    const b = cli('check', bad, file);
    expect(b.code).toBe(2);
    expect(b.err).toContain(`${bad}:5:24: variants.v.lock: unknown lock "nope" (did you mean "none"?)`);
    expect(cli('check', join(dir, 'missing-folder')).code).toBe(2);
  });

  // A file without expectations checks nothing: it fails, as vitest fails a file without tests.
  const bare = join(dir, 'bare', 'no-expect.yaml');
  mkdirSync(join(dir, 'bare'));
  writeFileSync(bare, 'name: bare\nduration: 1s\nstock: { available: 1 }\nworkload: { arrival: 1/s }\nvariants: { v: { lock: lua-unlock } }\n');
  it('fails a file with no expectations, unless --pass-with-no-expectations', () => {
    const r = cli('check', bare);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL  no expectations: nothing was checked (add an expect: block, or pass --pass-with-no-expectations)');
    expect(r.out).toContain('0 of 0 expectations failed in 1 of 1 scenarios; 1 scenario has no expectations');
    const passed = cli('check', bare, '--pass-with-no-expectations', '--reporter', 'junit');
    expect(passed.code).toBe(0);
    expect(passed.out).toContain('<skipped/>');
  });
});

describe('lock-sim list, schema and run --check-determinism', () => {
  it('lists locks, guards and faults with options and defaults', () => {
    const r = cli('list');
    expect(r.code).toBe(0);
    for (const name of ['redlock', 'fenced', 'version-cas', 'partition', 'clock-jump', 'retry-count (default 10)', 'sync-replicas (default true)']) {
      expect(r.out).toContain(name);
    }
    const j = JSON.parse(cli('list', '--json').out);
    expect(j.faults.find((f: { kind: string }) => f.kind === 'partition').fields).toEqual(['at', 'rate', 'duration', 'isolate', 'from']);
    expect(j.redisFields).toEqual(expect.arrayContaining(['sentinels', 'quorum', 'failover-timeout', 'rediscover', 'masters']));
    expect(j.redisFields).not.toContain('promotion');
  });

  it('prints a JSON Schema', () => {
    const j = JSON.parse(cli('schema').out);
    expect(j.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(j.properties.variants).toBeDefined();
  });

  it('reports a deterministic run twice identical', () => {
    const r = cli('run', file, '--check-determinism');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^short: deterministic \(\d+ operations, \d+ events, identical twice\)$/m);
  });
});
