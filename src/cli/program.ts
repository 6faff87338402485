/**
 * The commander program. It parses, dispatches, prints and sets exit codes; nothing else in
 * lock-sim prints or exits. Each command lives in commands/.
 */
import { Command, CommanderError } from 'commander';
import { boundedReport, ScenarioError } from '../scenario/errors.js';
import { VERSION } from '../version.js';
import { registerAgree } from './commands/agree.js';
import { registerCatalogue } from './commands/catalogue.js';
import { registerCheck } from './commands/check.js';
import { registerCompare } from './commands/compare.js';
import type { CommandContext, Io } from './commands/context.js';
import { registerExplain } from './commands/explain.js';
import { registerExplore } from './commands/explore.js';
import { registerInit } from './commands/init.js';
import { registerRun } from './commands/run.js';
import { registerShrink } from './commands/shrink.js';
import { registerSweep } from './commands/sweep.js';
import { EXIT_INTERNAL_ERROR, EXIT_INVALID_INPUT, EXIT_OK } from './exit-codes.js';
import { UsageError } from './options.js';
import { RealBackendError } from '../real/errors.js';

export type { Io } from './commands/context.js';

export function buildProgram(ctx: CommandContext): Command {
  const program = new Command('lock-sim')
    .description('Deterministic fault-injection simulator for Redis distributed locks')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s.replace(/\n$/, '')), writeErr: (s) => ctx.io.err(boundedReport(s.replace(/\n$/, ''))) });
  registerRun(program, ctx);
  registerCompare(program, ctx);
  registerCheck(program, ctx);
  registerCatalogue(program, ctx);
  registerShrink(program, ctx);
  registerInit(program, ctx);
  registerSweep(program, ctx);
  registerExplain(program, ctx);
  registerAgree(program, ctx);
  registerExplore(program, ctx);
  return program;
}

/** Runs the CLI; resolves to the exit code. Errors become messages, never stack traces. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let code = EXIT_OK;
  const program = buildProgram({ io, setExitCode: (c) => (code = c) });
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT_OK;
      return EXIT_INVALID_INPUT;
    }
    if (err instanceof ScenarioError || err instanceof UsageError || err instanceof RealBackendError) {
      // Bounded: a value echoed in a message, or a file with a million bad lines, is cut (errors.ts).
      io.err(boundedReport((err instanceof UsageError && !err.raw) || err instanceof RealBackendError ? `lock-sim: ${err.message}` : err.message));
      return EXIT_INVALID_INPUT;
    }
    io.err(boundedReport(`lock-sim: internal error: ${err instanceof Error ? err.message : String(err)}`));
    if (process.env.LOCK_SIM_DEBUG) io.err(err instanceof Error ? String(err.stack) : '');
    return EXIT_INTERNAL_ERROR;
  }
}
