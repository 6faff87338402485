/**
 * The commander program. It parses, dispatches, prints and sets exit codes; nothing else in
 * lock-sim prints or exits. Each command lives in commands/; the table there names them, and
 * only the module of the command being run is loaded (commands/table.ts).
 */
import { Command, CommanderError, Option } from 'commander';
import { boundedReport, ScenarioError } from '../spec/errors.js';
import { VERSION } from '../version.js';
import type { CommandContext, Io } from './commands/context.js';
import { COMMANDS, type CommandEntry } from './commands/table.js';
import { EXIT_INTERNAL_ERROR, EXIT_INVALID_INPUT, EXIT_OK } from './exit-codes.js';
import { UsageError } from './option-parsers.js';
import { RealBackendError } from '../backends/real/errors.js';


/** Options of every command, given before or after its name. */
interface GlobalOptions {
  color?: boolean;
  quiet?: boolean;
}

/** The program with every command defined (the docs' reference and tests read them all). */
export async function buildProgram(ctx: CommandContext): Promise<Command> {
  return programWith(ctx, COMMANDS);
}

/**
 * The program with `loaded` commands defined by their modules and the others as their table
 * entries (name, arguments, summary): enough for `--help`, `--version` and "unknown command,
 * did you mean" without loading the simulator.
 */
async function programWith(ctx: CommandContext, loaded: readonly CommandEntry[]): Promise<Command> {
  const program = new Command('lock-sim')
    .description('Deterministic fault-injection simulator for Redis distributed locks')
    .version(VERSION)
    .option('--color', 'colour the output even off a terminal (default: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it)')
    .option('--no-color', 'never colour the output')
    .option('-q, --quiet', 'print no progress and no notes on stderr: only results and errors')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s.replace(/\n$/, '')), writeErr: (s) => ctx.io.err(boundedReport(s.replace(/\n$/, ''))) })
    .addHelpText('after', examplesText(PROGRAM_EXAMPLES));
  program.hook('preAction', (_program, action) => applyGlobalOptions(ctx, action.optsWithGlobals<GlobalOptions>()));
  const registers = new Set(await Promise.all(loaded.map((c) => c.load())));
  for (const register of registers) register(program, ctx);
  for (const command of program.commands) {
    const entry = COMMANDS.find((c) => c.name === command.name());
    if (entry !== undefined) command.addHelpText('after', examplesText(entry.examples));
  }
  const defined = new Set(program.commands.map((c) => c.name()));
  const sorted = COMMANDS.map((entry) => (defined.has(entry.name) ? program.commands.find((c) => c.name() === entry.name)! : tableStub(entry)));
  // In the table's order, whichever module defined them.
  (program.commands as Command[]).splice(0, program.commands.length, ...sorted);
  return program;
}

export const PROGRAM_EXAMPLES = ['lock-sim run scenarios/failover.yaml', 'lock-sim compare scenarios/failover.yaml --seeds 1..200', 'lock-sim check scenarios/', 'lock-sim help run'];

const examplesText = (lines: readonly string[]): string => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;

/** A command as the table describes it: listed by --help, loaded before it can run. */
function tableStub(entry: CommandEntry): Command {
  const stub = new Command(entry.name).description(entry.summary).allowUnknownOption().allowExcessArguments();
  if (entry.args !== '') stub.arguments(entry.args);
  // Every command has options: --help lists it as "name [options] ..." like the real one.
  stub.addOption(new Option('--table-stub').hideHelp());
  stub.action(() => {
    throw new Error(`command ${entry.name} ran before its module was loaded`);
  });
  return stub;
}

function applyGlobalOptions(ctx: CommandContext, options: GlobalOptions): void {
  // --color then --no-color: one option, the last one given wins; neither leaves it undefined
  // (commander: a --no-foo defined after --foo keeps foo's default).
  if (options.color !== undefined) ctx.io.color = options.color;
  if (options.quiet) {
    ctx.io.quiet = true;
    ctx.io.progress = null;
  }
}

/** The entries whose modules `argv` needs: the command it names (`help <command>` too), or none. */
function commandsNamedBy(argv: readonly string[]): CommandEntry[] {
  const words = argv.filter((a) => !a.startsWith('-'));
  const first = words[0] === 'help' ? words[1] : words[0];
  const entry = COMMANDS.find((c) => c.name === first);
  return entry === undefined ? [] : [entry];
}

/** Runs the CLI; resolves to the exit code. Errors become messages, never stack traces. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let code = EXIT_OK;
  const ctx: CommandContext = { io: { ...io }, setExitCode: (c) => (code = c) };
  try {
    const program = await programWith(ctx, commandsNamedBy(argv));
    await program.parseAsync(argv as string[], { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT_OK;
      return EXIT_INVALID_INPUT;
    }
    if (err instanceof ScenarioError || err instanceof UsageError || err instanceof RealBackendError) {
      // Bounded: a value echoed in a message, or a file with a million bad lines, is cut (spec/errors.ts).
      io.err(boundedReport((err instanceof UsageError && !err.raw) || err instanceof RealBackendError ? `lock-sim: ${err.message}` : err.message));
      return EXIT_INVALID_INPUT;
    }
    io.err(boundedReport(`lock-sim: internal error: ${err instanceof Error ? err.message : String(err)}`));
    if (process.env.LOCK_SIM_DEBUG) io.err(err instanceof Error ? String(err.stack) : '');
    return EXIT_INTERNAL_ERROR;
  }
}
