/**
 * The commander program. It parses, dispatches, prints and sets exit codes; nothing else in
 * lock-sim prints or exits. Parsing is separate from running so tests can check it alone.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ScenarioError } from '../scenario/errors.js';
import { loadScenario } from '../scenario/load.js';
import { runScenario } from '../runner/run-scenario.js';
import { resultToJson } from '../report/json.js';
import { renderRun } from '../report/text.js';
import { colorFor } from './color.js';
import { EXIT_EXPECTATION_FAILED, EXIT_INTERNAL_ERROR, EXIT_INVALID_INPUT, EXIT_OK } from './exit-codes.js';
import { VERSION } from '../version.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) {
    throw new InvalidArgumentError('expected a whole number from 0 to 4294967295');
  }
  return Number(value);
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function buildProgram(io: Io, setExitCode: (code: number) => void): Command {
  const program = new Command('lock-sim')
    .description('Deterministic fault-injection simulator for Redis distributed locks')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });

  program
    .command('run')
    .description('run every variant of a scenario on one seed; print verdicts, stories and expectations')
    .argument('<scenario>', 'scenario file (YAML)')
    .option('--seed <n>', 'seed (default: the scenario\'s)', parseSeed)
    .option('--variant <name>', 'run only this variant (repeatable)', collect, [])
    .option('--json', 'print the result as JSON')
    .action((file: string, options: { seed?: number; variant: string[]; json?: boolean }) => {
      const scenario = loadScenario(file);
      const unknown = options.variant.filter((v) => !scenario.variants.some((s) => s.name === v));
      if (unknown.length > 0) {
        throw new ScenarioError(file, [{ path: ['variants'], message: `no variant named ${unknown.map((u) => `"${u}"`).join(', ')}; variants are ${scenario.variants.map((v) => v.name).join(', ')}` }]);
      }
      const result = runScenario(scenario, { seed: options.seed, variants: options.variant });
      if (options.json) io.out(JSON.stringify(resultToJson(result), null, 2));
      else io.out(renderRun(result, colorFor(process.stdout)));
      setExitCode(result.passed ? EXIT_OK : EXIT_EXPECTATION_FAILED);
    });

  return program;
}

/** Runs the CLI; returns the exit code. Errors become messages, never stack traces. */
export function main(argv: readonly string[], io: Io): number {
  let code = EXIT_OK;
  const program = buildProgram(io, (c) => (code = c));
  try {
    program.parse(argv as string[], { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT_OK;
      return EXIT_INVALID_INPUT;
    }
    if (err instanceof ScenarioError) {
      io.err(err.message);
      return EXIT_INVALID_INPUT;
    }
    io.err(`lock-sim: internal error: ${err instanceof Error ? err.message : String(err)}`);
    if (process.env.LOCK_SIM_DEBUG) io.err(err instanceof Error ? String(err.stack) : '');
    return EXIT_INTERNAL_ERROR;
  }
}
