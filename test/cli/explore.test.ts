/** lock-sim explore through the built bin: the same bytes with any --jobs, replay, the witness file, bad input. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lock-sim.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const FILE = 'scenarios/explore/failover-backlog-window.yaml';
// Random arrivals: another seed has other critical instants.
const SEEDED = 'scenarios/setnx-crash-deadlock.yaml';
const SEEDED_VARIANT = 'setnx-expire';
const dir = mkdtempSync(join(tmpdir(), 'lock-sim-explore-'));

describe('lock-sim explore', () => {
  it('prints the same JSON with 1 and 2 worker threads, a witness for one variant and the bound for the other', () => {
    const one = cli('explore', FILE, '--jobs', '1', '--json', '--pct-rounds', '2');
    const two = cli('explore', FILE, '--jobs', '2', '--json', '--pct-rounds', '2');
    expect(one.code).toBe(0);
    expect(two.out).toBe(one.out);
    const j = JSON.parse(one.out);
    expect(j.kind).toBe('explore');
    const [lua, guarded] = j.variants;
    expect(lua.result).toBe('violation');
    expect(lua.violations[0].replay).toBe('1@2001001');
    expect(guarded.result).toBe('bound');
    expect(guarded.statement).toMatch(/^no violation with at most 1 fault of kinds primary-crash \(restart after 30s\) at the \d+ critical instants of this run \(\d+ schedules, \d+ distinct states; orderings: PCT depth 1, probability >= 1\/\d+ \(/);
    expect(guarded.pct.schedules).toBeGreaterThan(0);
  });

  it('replays the witness it printed, and writes it as a scenario that run replays', () => {
    const text = cli('explore', FILE, '--variant', 'lua', '--jobs', '1', '--output', join(dir, 'w.yaml'));
    expect(text.code).toBe(0);
    const replay = /replay: npx lock-sim (explore .*)$/m.exec(text.out)?.[1];
    expect(replay).toBeDefined();
    // Shell words: single-quoted ones keep their spaces.
    const words = ((replay as string).match(/'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^'(.*)'$/, '$1'));
    const again = cli(...words);
    expect(again.code).toBe(0);
    expect(again.out).toContain('this schedule breaks lost-updates > 0');
    const written = readFileSync(join(dir, 'w.yaml'), 'utf8');
    expect(written).toContain('at: 2001001us');
    const run = cli('run', join(dir, 'w.yaml'), '--json');
    expect(JSON.parse(run.out).variants[0].metrics.lostUpdates).toBeGreaterThan(0);
  });

  it('searches another seed with --seed, and its replay command names that seed', () => {
    const j = JSON.parse(cli('explore', SEEDED, '--seed', '4', '--variant', SEEDED_VARIANT, '--budget', '10', '--json').out);
    expect(j.scenario.seed).toBe(4);
    const w = j.variants[0].violations[0];
    expect(w.replayCommand).toBe(`npx lock-sim explore ${SEEDED} --seed 4 --variant ${SEEDED_VARIANT} --replay ${w.replay}`);
    // The file's own seed (1) has other instants: its first witness is elsewhere.
    const own = JSON.parse(cli('explore', SEEDED, '--variant', SEEDED_VARIANT, '--budget', '10', '--json').out);
    expect(own.variants[0].violations[0].replay).not.toBe(w.replay);
    const words = (w.replayCommand as string).split(' ').slice(2);
    const again = cli(...words);
    expect(again.code).toBe(0);
    expect(again.out).toContain('this schedule breaks');
  });

  it("leaves the scenario's own explore: violation out of the replay command, and keeps one given on the command line", () => {
    const own = cli('explore', 'scenarios/explore/setnx-crash-window.yaml', '--variant', 'setnx-expire');
    expect(own.out).toMatch(/replay: npx lock-sim explore scenarios\/explore\/setnx-crash-window.yaml --seed 1 --variant setnx-expire --replay \S+$/m);
    const given = cli('explore', 'scenarios/explore/setnx-crash-window.yaml', '--variant', 'setnx-expire', '--violation', 'stuck-time > 5s');
    expect(given.out).toMatch(/replay: .* --violation 'stuck-time > 5s' --replay \S+$/m);
  });

  it('prints Markdown, writes the HTML report with the witness and the bound, and draws the witness with --timeline', () => {
    const report = join(dir, 'explore.html');
    const md = cli('explore', FILE, '--format', 'markdown', '--report', report);
    expect(md.code).toBe(0);
    expect(md.out).toContain('- **lua: violation** at schedule 4: lost-updates > 0');
    expect(md.out).toMatch(/- \*\*lua\+guard\*\*: no violation with at most 1 fault of kinds primary-crash/);
    const html = readFileSync(report, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('1@2001001');
    expect(html).toContain('no violation with at most 1 fault');
    const timeline = cli('explore', FILE, '--variant', 'lua', '--timeline');
    expect(timeline.out).toContain('timeline of lock:stock:1');
  });

  it('refuses bad input with exit 2 and the reason', () => {
    const kinds = cli('explore', FILE, '--kinds', 'gc-pause');
    expect(kinds.code).toBe(2);
    expect(kinds.err).toContain('--kinds: the scenario has no gc-pause fault to place; it has primary-crash');
    const typo = cli('explore', FILE, '--kinds', 'primary-crsh');
    expect(typo.err).toContain('did you mean "primary-crash"');
    const violation = cli('explore', FILE, '--violation', 'sold-out-att > 1s');
    expect(violation.code).toBe(2);
    expect(violation.err).toContain('--violation: unknown metric "sold-out-att"');
    const replay = cli('explore', FILE, '--replay', '1@5');
    expect(replay.code).toBe(2);
    expect(replay.err).toContain('--replay needs exactly one --variant');
    const spec = cli('explore', FILE, '--variant', 'lua', '--replay', '7@5');
    expect(spec.err).toContain('no fault template #7');
  });
});
