/** The own-code guide stays true: its three adapters are the modules the scenarios run, and every own-code scenario is in the casebook. */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const guide = readFileSync('docs/guides/own-code.md', 'utf8');
const casebook = readFileSync('docs/casebook.md', 'utf8');

describe('docs/guides/own-code.md', () => {
  it.each(['token-lock.mjs', 'redlock-v4.mjs', 'semaphore-mutex.mjs'])('shows scenarios/own-code/locks/%s as it is', (file) => {
    const code = readFileSync(`scenarios/own-code/locks/${file}`, 'utf8').trim();
    expect(guide).toContain(`\`\`\`js\n${code}\n\`\`\``);
  });

  it('lists every own-code scenario in the casebook', () => {
    const files = readdirSync('scenarios/own-code').filter((f) => f.endsWith('.yaml'));
    expect(files.filter((f) => !casebook.includes(`| \`own-code/${f}\``))).toEqual([]);
  });
});
