/**
 * Every casebook story names the cause its scenario's header comment names: the fault or the
 * mechanism (an expiry, a foreign DEL, a failover, a restart, a crash), read off the causal
 * chain rather than the last events on the key; and the story a run keeps only what it needs
 * for (what `run` prints) is the story of the whole history.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';

const DIR = join(__dirname, '..', '..', 'scenarios');

/** What each header comment names as the cause; every pattern must appear in the story. */
const CAUSES: Record<string, RegExp[]> = {
  'cluster-split-brain': [/partition start/, /the cluster promoted redis-1/],
  'constant-value-del': [/r1's lock deleted by r2/],
  // delex: no DELEX on redis 7.0, every unlock refused, every lock orphaned until its lease runs out.
  'delex-on-redis-7': [/unknown command 'DELEX'/],
  // get-then-del, next to DELEX: the delayed GET-then-DEL deletes the next holder's lock.
  'delex-unlock': [/network-delay start/, /deleted by|foreign/],
  'duplicate-orders': [/slow-call start/, /lock expired/],
  // fair lock: the waiter dropped behind the 40 s holder asked after it began, and a later arrival got the lock.
  'fair-lock-waiters-dropped': [/slow-call start/, /asks for lock:stock:\d+ and joins its waiters/, /went to r\d+ .* while r\d+ .* still waited/],
  'failover-lag-race': [/primary-crash start/, /promoted redis-1/],
  'failover-wait-sync': [/primary-crash start/, /promoted/],
  failover: [/primary-crash start/, /promoted redis-1/],
  'fencing-counter-failover': [/primary-crash start/, /promoted redis-1/],
  'fencing-tokens': [/gc-pause start/, /lock expired/],
  'get-then-del': [/network-delay start/, /deleted by/],
  // ifeq-extend: the watchdog's SET IFEQ is a syntax error on redis 7.0; the slow holder's lease runs out.
  'ifeq-extend-on-redis-7': [/slow-call start/, /ERR syntax error; watchdog stops/, /lock expired/],
  'lease-vs-slow-risk-check': [/slow-call start/, /lock expired/],
  // as-given, try-2s: two carts in opposite orders, each holding one SKU and waiting for the other's.
  'multilock-opposite-order': [/each waits for the other/, /gave it back/],
  'orphaned-reentrant-hold': [/primary-crash/],
  'random-gc-pauses': [/gc-pause start/, /lock expired/],
  // 3.44-3.52: the ReadLockTask renews SKU 2's hash, not its readers' timeout keys.
  'read-lock-timeout-not-renewed': [/not its readers' timeout keys/],
  'redlock-clock-jump': [/clock-jump event/, /redis-2: lock:stock:\d+ gone: r\d+'s lock expired/],
  'redlock-gc-pause': [/gc-pause start/, /lock expired/],
  'redlock-master-down': [/redis-restart start/],
  'redlock-restart': [/redis-restart start/, /redis-2: lock:stock:\d+ gone/],
  'redlock-v4-hangs': [/clock-jump event/, /lock expired/],
  'retry-forever': [/crash start/],
  'sentinel-double-failover': [/promoted redis-2/, /promoted redis-1/],
  'sentinel-split-brain-min-replicas': [/partition start/, /promoted/],
  'semaphore-crash-permits-lost': [/crash start/, /never given back: its process died/],
  'setnx-crash-deadlock': [/crash start/],
  'short-watchdog-timeout': [/gc-pause start/, /lock expired/],
  'trylock-lease-disables-watchdog': [/lock expired/],
  'watchdog-vs-gc-and-kill': [/gc-pause start/, /lock expired/],
  // wait-1-of-2: the lock acknowledged by redis-2 alone, lost to redis-1's promotion; strict: refused for it.
  'wait-unacked-replica-promoted': [/redis-2: lock:stock:\d+ held by r\d+ \(sync/, /promoted redis-1|Only 1 of 2 slaves were synced/],
};

const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();

describe('casebook stories', () => {
  it.each(files)('%s: every violation story names the cause its header names', (file) => {
    const scenario = loadScenario(join(DIR, file));
    const result = runScenario(scenario);
    const told = result.runs.flatMap((run) => {
      const focus = focusViolation(run.violations);
      if (!focus) return [];
      const story = tellStory(focus, run.history);
      return [{ variant: run.variant.name, text: [story.headline, ...story.lines.map((l) => `${l.who}: ${l.what}`)].join('\n') }];
    });
    const causes = CAUSES[scenario.name];
    if (told.length === 0) {
      // A scenario whose variants all hold has no story, and so no cause listed for one.
      expect(causes).toBeUndefined();
      return;
    }
    expect(causes, `no cause listed for ${scenario.name}`).toBeDefined();
    for (const { variant, text } of told) {
      for (const cause of causes) expect(text, `${scenario.name}/${variant}`).toMatch(cause);
    }
    // What run prints: the run kept nothing and was re-run keeping only what its story reads
    // (runner/story-retention.ts). The story must be the one told from the whole history.
    const retained = runScenario(scenario, { history: 'story' });
    result.runs.forEach((run, i) => {
      const focus = focusViolation(run.violations);
      if (!focus) return;
      expect(tellStory(focus, retained.runs[i].history), `${scenario.name}/${run.variant.name}`).toEqual(tellStory(focus, run.history));
    });
  });

  it('tells redlock-clock-jump\'s first holder (client 2) on its three masters, the jump, and the second holder', () => {
    const result = runScenario(loadScenario(join(DIR, 'redlock-clock-jump.yaml')), { variants: ['redlock'] });
    const run = result.runs[0];
    const story = tellStory(focusViolation(run.violations)!, run.history);
    const lines = story.lines.map((l) => `${l.who}: ${l.what}`);
    const at = (pattern: RegExp): number => lines.findIndex((l) => pattern.test(l));
    const first = at(/client-2\/w\d+: r\d+ acquired/);
    const jump = at(/clock-jump event/);
    const second = at(/client-1\/w\d+: r\d+ acquired/);
    expect([first, jump, second].every((i) => i >= 0)).toBe(true);
    expect(first).toBeLessThan(jump);
    expect(jump).toBeLessThan(second);
    expect(lines.filter((l) => /^others:/.test(l))).toHaveLength(1);
    expect(lines.length).toBeLessThanOrEqual(16);
  });
});
