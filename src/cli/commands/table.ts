/**
 * Every command's name, arguments and one-line summary, and the module that defines it,
 * loaded only when that command runs (or its help is asked for). This file imports nothing
 * heavy: `lock-sim --version` and `lock-sim --help` read only this table, so they start
 * without the simulator, the Redis client or the Lua VM (the bench's "cli start" lines
 * measure it). The names, summaries and examples are in summaries.ts, which each command's module reads
 * for its description (this table loads those modules: they must not import it).
 */
import type { Command } from 'commander';
import type { CommandContext } from './context.js';
import { COMMAND_LINES, type CommandLine } from './summaries.js';

type Register = (program: Command, ctx: CommandContext) => void;

export interface CommandEntry extends CommandLine {
  /** The module registering it (with any other command of the same module). */
  load(): Promise<Register>;
}

const run = async (): Promise<Register> => (await import('./run.js')).registerRun;
const compare = async (): Promise<Register> => (await import('./compare.js')).registerCompare;
const check = async (): Promise<Register> => (await import('./check.js')).registerCheck;
const catalogue = async (): Promise<Register> => (await import('./list.js')).registerCatalogue;
const shrink = async (): Promise<Register> => (await import('./shrink.js')).registerShrink;
const init = async (): Promise<Register> => (await import('./init.js')).registerInit;
const sweep = async (): Promise<Register> => (await import('./sweep.js')).registerSweep;
const explain = async (): Promise<Register> => (await import('./explain.js')).registerExplain;
const agree = async (): Promise<Register> => (await import('./agree.js')).registerAgree;
const explore = async (): Promise<Register> => (await import('./explore.js')).registerExplore;

/** The module of each command (a module may register more than one). */
const LOADERS: Record<string, () => Promise<Register>> = {
  run,
  compare,
  merge: compare,
  check,
  list: catalogue,
  schema: catalogue,
  shrink,
  init,
  sweep,
  explain,
  agree,
  explore,
};

/** In the order `lock-sim --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = COMMAND_LINES.map((line) => {
  const load = LOADERS[line.name];
  if (load === undefined) throw new Error(`no module for command ${line.name} in the command table`);
  return { ...line, load };
});
