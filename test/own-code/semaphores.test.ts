/**
 * npm redis-semaphore's Semaphore and MultiSemaphore as users' modules with `permits`
 * (scenarios/own-code/semaphore-clock-jump.yaml): the story of the failing variants names the
 * cause the header names (the clock step of client 2, whose acquire then removes client 1's
 * live members), and the neighbour with a lockTimeout longer than the step holds.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/backends/run-scenario.js';
import { tellStory } from '../../src/checker/story.js';
import { focusViolation } from '../../src/checker/violations.js';
import { loadScenario } from '../../src/scenario/load.js';

const scenario = loadScenario('scenarios/own-code/semaphore-clock-jump.yaml');
const result = runScenario(scenario);
const runOf = (name: string) => result.runs.find((r) => r.variant.name === name)!;

describe('redis-semaphore Semaphore and MultiSemaphore under a client clock step', () => {
  it.each(['semaphore-5s', 'multi-5s'])('%s: more than three holders right after client 2\'s clock jumps, and the story says so', (name) => {
    const run = runOf(name);
    expect(run.metrics.permitsExceeded).toBeGreaterThanOrEqual(1);
    expect(run.metrics.maxHolders).toBeGreaterThan(3);
    const focus = focusViolation(run.violations)!;
    expect(focus.kind).toBe('permits-exceeded');
    const story = tellStory(focus, run.history);
    const text = [story.headline, ...story.lines.map((l) => `${l.who}: ${l.what}`)].join('\n');
    expect(text).toMatch(/clock-jump event: clock jumps forward by 8s/);
    // After the jump, client 2 takes a permit (its acquire's clean-up removes client 1's live
    // members), and then a fourth request is let in.
    const lines = story.lines.map((l) => `${l.who}: ${l.what}`);
    const jump = lines.findIndex((l) => /clock-jump event/.test(l));
    const client2Takes = lines.findIndex((l, i) => i > jump && /^client-2\/w\d+: r\d+ took one of the 3 permits/.test(l));
    expect(jump).toBeGreaterThanOrEqual(0);
    expect(client2Takes).toBeGreaterThan(jump);
    expect(story.headline).toMatch(/while its 3 permits were all held .*: 4 holders$/);
    // Before the jump, never more than three.
    const jumpUs = 10_000_000;
    expect(run.violations.every((v) => v.timeUs >= jumpUs)).toBe(true);
  });

  it('semaphore-10s: the same step against a 10s lockTimeout removes nobody, never more than three inside', () => {
    const run = runOf('semaphore-10s');
    expect(run.metrics.permitsExceeded).toBe(0);
    expect(run.metrics.maxHolders).toBe(3);
    expect(run.violations).toEqual([]);
    expect(run.metrics.orders).toBeGreaterThan(100);
  });
});
