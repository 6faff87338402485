/** Printed replay commands are read back by a shell exactly as the names were written. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/sweep/compare-variants.js';
import { shellQuote } from '../../src/sweep/shell-quote.js';

/** What sh hands a program for each word of `args`. */
function shellWords(args: string): string[] {
  const r = spawnSync('sh', ['-c', `printf '%s\\n' ${args}`], { encoding: 'utf8' });
  return r.stdout.split('\n').slice(0, -1);
}

describe('shellQuote', () => {
  it('quotes names with spaces, quotes and command substitutions, and sh reads them back unchanged', () => {
    const names = ['lease 10s', "it's", '$(echo pwned)', '`id`', 'a"b', 'tab\there', '*', ''];
    expect(shellWords(names.map(shellQuote).join(' '))).toEqual(names);
    expect(shellQuote('lease 10s')).toBe("'lease 10s'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it('leaves plain names and paths as they are', () => {
    expect(['lua+guard', 'scenarios/failover.yaml', 'watchdog-nosync', 'v1.2_x@host:3'].map(shellQuote)).toEqual(['lua+guard', 'scenarios/failover.yaml', 'watchdog-nosync', 'v1.2_x@host:3']);
  });

  it('prints replay commands that name the variant exactly', () => {
    const cmd = replayCommand('my scenarios/x.yaml', 7, '$(rm -rf ~)');
    expect(cmd).toBe("npx lock-sim run 'my scenarios/x.yaml' --seed 7 --variant '$(rm -rf ~)'");
    expect(shellWords(cmd.replace('npx lock-sim run ', ''))).toEqual(['my scenarios/x.yaml', '--seed', '7', '--variant', '$(rm -rf ~)']);
    expect(replayCommand('scenarios/failover.yaml', 44, 'lua')).toBe('npx lock-sim run scenarios/failover.yaml --seed 44 --variant lua');
  });
});
