/**
 * Whether a command line names a command and options that exist: parsed with lock-sim's own
 * program (every command loaded), stopping before any command runs. Null when it parses, else
 * commander's message. Shared by the docs' inline commands and --help's examples.
 */
import { Command, CommanderError } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

/** Splits a command line as a POSIX shell would for these simple cases (quotes, no expansion); a trailing redirection or pipe is the shell's. */
export function words(line: string): string[] {
  return [...line.replace(/ [>|] [^"']*$/, '').matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** `line` starts with the program's name words (`npx lock-sim` is 2, `lock-sim` is 1). */
export async function parses(line: string, nameWords: number): Promise<string | null> {
  const program: Command = await buildProgram({ io: { out: () => {}, err: () => {}, progress: null, stdoutIsTTY: false }, setExitCode: () => {} });
  class Parsed extends Error {}
  program.hook('preAction', () => {
    throw new Parsed();
  });
  const stopAll = (c: Command): void => {
    c.exitOverride();
    c.configureOutput({ writeOut: () => {}, writeErr: () => {} });
    c.commands.forEach(stopAll);
  };
  stopAll(program);
  try {
    await program.parseAsync(words(line).slice(nameWords), { from: 'user' });
    return 'no command ran';
  } catch (err) {
    if (err instanceof Parsed) return null;
    if (err instanceof CommanderError && (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version')) return null;
    return err instanceof Error ? err.message : String(err);
  }
}
