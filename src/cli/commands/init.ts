/**
 * `lock-sim init`: writes a scenario file to start from. Today its one source is a built-in
 * scenario (`--from failover`); the options that describe a new scenario (a topology, a lock)
 * are meant to be further sources of the same text, chosen in `initSource`, while writing the
 * file (the --output default, the refusal to overwrite) stays shared.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { closest } from '../../scenario/suggest.js';
import { builtinScenario, builtinScenarios } from '../builtin-scenarios.js';
import { EXIT_OK } from '../exit-codes.js';
import { UsageError, writeOutput } from '../options.js';
import type { CommandContext } from './context.js';

export interface InitOptions {
  from?: string;
  output?: string;
  force?: boolean;
}

/** The scenario text to write, where it goes unless --output says otherwise, and what it came from. */
interface InitSource {
  text: string;
  defaultOutput: string;
  what: string;
}

function initSource(options: InitOptions): InitSource {
  const names = builtinScenarios().map((s) => s.name);
  if (options.from === undefined) {
    throw new UsageError(`init needs --from <built-in scenario>; built-in scenarios: ${names.join(', ')} (lock-sim list describes them)`);
  }
  const found = builtinScenario(options.from);
  if (!found) {
    const near = closest(options.from, names);
    throw new UsageError(`--from: no built-in scenario "${options.from}"${near ? ` (did you mean "${near}"?)` : ''}; built-in scenarios: ${names.join(', ')}`);
  }
  // The file byte for byte: its opening comment says what it shows and where it comes from.
  return { text: readFileSync(found.file, 'utf8'), defaultOutput: `${found.name}.yaml`, what: `the built-in scenario ${found.name}` };
}

export function registerInit(program: Command, ctx: CommandContext): void {
  program
    .command('init')
    .description('write a scenario file to edit: a copy of a built-in scenario (lock-sim list shows them)')
    .option('--from <name>', 'the built-in scenario to copy')
    .option('--output <file>', 'where to write it (default: <name>.yaml in the current folder)')
    .option('--force', 'overwrite the output file if it exists')
    .action((options: InitOptions) => {
      const source = initSource(options);
      const output = options.output ?? source.defaultOutput;
      if (existsSync(output) && !options.force) {
        throw new UsageError(`${output} already exists; pass --force to overwrite it, or --output <file> to write elsewhere`);
      }
      writeOutput(output, source.text);
      ctx.io.out(`wrote ${output} (${source.what}); run it with: npx lock-sim run ${output}`);
      ctx.setExitCode(EXIT_OK);
    });
}
