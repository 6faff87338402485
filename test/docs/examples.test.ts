/**
 * Every command in the documentation runs: each example (a code block that starts with
 * `$ npx lock-sim ...`) prints what the page shows, each command of a block of commands to
 * type runs without an input error, and each `npx lock-sim ...` named in the text parses (its
 * command and options exist). `npm run generate` writes the examples' output again.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain ES module of the repository's scripts, without types
import { codeBlocks, docPages, findCommands, findExamples, findFileBlocks, fits, runCommand, runExample, exampleFolder, selectLines, shows } from '../../scripts/doc-examples.mjs';
import { parses } from '../cli/parse-line.js';
import { rmSync } from 'node:fs';

interface Step { command: string; expected: string[] }
interface Example { page: string; line: number; steps: Step[]; block: { select: string | null } }
interface TypedCommand { page: string; line: number; command: string }

const examples = findExamples() as Example[];
/**
 * The lock-sim commands `npm test` itself runs (its script ends with `lock-sim check
 * scenarios/`) are not run a second time here.
 */
const testScript = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { test: string } }).scripts.test;
const runByNpmTest = (command: string) => testScript.includes(command.replace(/^npx lock-sim /, 'node bin/lock-sim.js '));
const commands = (findCommands() as TypedCommand[]).filter((c) => !runByNpmTest(c.command));

describe('documentation examples', () => {
  it('there are examples to run', () => {
    expect(examples.length).toBeGreaterThan(5);
  });

  // A one-command example runs in a new folder, so the same command prints the same bytes
  // (determinism): pages that show one command's output in two places run it once.
  const outputs = new Map<string, Array<{ status: number; lines: string[]; stderr: string }>>();
  const run = (example: Example) => {
    const key = example.steps.length === 1 ? example.steps[0].command : null;
    const cached = key === null ? undefined : outputs.get(key);
    if (cached) return cached;
    const results = runExample(example) as Array<{ status: number; lines: string[]; stderr: string }>;
    if (key !== null) outputs.set(key, results);
    return results;
  };

  it.each(examples.map((e) => ({ ...e, name: `${e.page}:${e.line}` })))('$name prints what the page shows', (example) => {
    const results = run(example);
    example.steps.forEach((step, n) => {
      const r = results[n];
      // Exit 1 is an expectation that failed, which an example may show; 2 and up never.
      expect(r.status, `${step.command}\n${r.stderr}`).toBeLessThan(2);
      if (!shows(example.block, step.expected, r.lines)) {
        expect(r.lines.join('\n'), `${example.page}:${example.line}: "${step.command}" prints something else now; run npm run generate`).toBe(step.expected.join('\n'));
      }
    });
  });

  it('a changed output is caught: a shown line that the command does not print fails the fit', () => {
    expect(fits(['a', '...', 'z'], ['a', 'b', 'c', 'z'])).toBe(true);
    expect(fits(['a', '...', 'z'], ['a', 'z'])).toBe(false);
    expect(fits(['a', 'b'], ['a', 'b', 'c'])).toBe(false);
    expect(fits(['a', 'x'], ['a', 'b'])).toBe(false);
    expect(selectLines(['1', '2', '3', '4', '5'], '2-3,5')).toEqual(['...', '2', '3', '...', '5']);
    expect(selectLines(['1', '2', '3'], '1-')).toEqual(['1', '2', '3']);
    expect(shows({ select: '1-2' }, ['a', 'b', '...'], ['a', 'b', 'c'])).toBe(true);
    expect(shows({ select: '1-2' }, ['a', 'x', '...'], ['a', 'b', 'c'])).toBe(false);
  });
});

describe('files shown whole', () => {
  const shown = findFileBlocks() as Array<{ page: string; line: number; file: string; lines: string[] }>;
  it.each(shown.map((b) => ({ ...b, name: `${b.page}:${b.line} ${b.file}` })))('$name is the file as it is', (b) => {
    expect(b.lines.join('\n')).toBe(readFileSync(b.file, 'utf8').replace(/\n$/, ''));
  });
});

describe('commands to type', () => {
  it('the casebook check is among the commands npm test runs', () => expect(runByNpmTest('npx lock-sim check scenarios/')).toBe(true));

  it.each(commands.map((c) => ({ ...c, name: `${c.page}:${c.line} ${c.command}` })))('$name runs without an input error', (c) => {
    const dir = exampleFolder();
    try {
      const r = runCommand(c.command, dir) as { status: number; stderr: string };
      expect(r.status, r.stderr).toBeLessThan(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `npx lock-sim ...` in the prose of every page (inline code), without placeholders such as `<file>`. */
function inlineCommands(): TypedCommand[] {
  return (docPages() as string[]).flatMap((page) => {
    let text = readFileSync(page, 'utf8');
    for (const block of codeBlocks(text) as Array<{ lines: string[] }>) text = text.replace(block.lines.join('\n'), '');
    return [...text.matchAll(/`(npx lock-sim [^`]*)`/g)]
      .map((m) => ({ page, line: text.slice(0, m.index).split('\n').length, command: m[1].replace(/\s+/g, ' ').replace(/\s*>>.*$/, '') }))
      .filter((c) => !/[<]|\.\.\.$/.test(c.command));
  });
}

describe('commands named in the text', () => {
  const named = inlineCommands();
  it('there are some', () => expect(named.length).toBeGreaterThan(10));
  it.each(named.map((c) => ({ ...c, name: `${c.page}:${c.line} ${c.command}` })))('$name names a command and options that exist', async (c) => {
    expect(await parses(c.command, 2)).toBeNull();
  });

  it('a misspelt option is caught', async () => {
    expect(await parses('npx lock-sim run scenarios/failover.yaml --sed 4', 2)).not.toBeNull();
    expect(await parses('npx lock-sim run scenarios/failover.yaml --seed 4', 2)).toBeNull();
  });
});
