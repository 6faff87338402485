/** `run --format markdown`: the verdict table, the stories in closed code blocks, the expectations. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRunMarkdown } from '../../src/report/markdown.js';
import { runScenario } from '../../src/backends/run-scenario.js';
import { loadScenario } from '../../src/scenario/load.js';

const file = join(__dirname, '..', '..', 'scenarios', 'trylock-lease-disables-watchdog.yaml');

describe('renderRunMarkdown', () => {
  const md = renderRunMarkdown(runScenario(loadScenario(file)));

  it('writes one table row per variant, with its verdict', () => {
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    expect(rows[0]).toBe('| variant | verdict | oversold | double holders | lock lost | stuck / orphan (sum of keys) | orders | orders/s | p99 of all answers |');
    expect(rows.slice(1).map((r) => r.split(' | ')[1])).toEqual(['**UNSAFE**', '**SAFE**']);
  });

  it('tells the story of the variant that broke, in a collapsed code block that closes, and none for the safe one', () => {
    expect(md).toMatch(/<details><summary>lease-10s: double-holder at [\d.]+s; broken: [^<]+<\/summary>\n\n```\n[^`]+lock expired[^`]+\n```\n\n<\/details>/);
    expect(md).not.toContain('<summary>watchdog');
  });

  it('lists the expectations and their tally', () => {
    expect(md).toMatch(/- pass lease-10s: `[^`]+` \(measured [^)]+\)/);
    expect(md).toMatch(/All \d+ expectations held\.$/);
  });
});
