/** `lock-sim explain <scenario>`: every value the scenario runs with, and where each default comes from. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parse } from 'yaml';
import { explainScenario, renderExplain } from '../../scenario/explain.js';
import { loadScenarioArg, resolveScenarioArg } from '../builtin-scenarios.js';
import { EXIT_OK } from '../exit-codes.js';
import type { CommandContext } from './context.js';

export function registerExplain(program: Command, ctx: CommandContext): void {
  program
    .command('explain')
    .description('print every value a scenario runs with: from the file, or a default and where that default comes from')
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .option('--json', 'print the fields as JSON: field, value, origin (file or default), source (and a client field\'s model)')
    .action((file: string, options: { json?: boolean }) => {
      // Loading first: an invalid file is refused with its located errors, as run refuses it.
      const scenario = loadScenarioArg(file, (note) => ctx.io.err(note));
      const raw: unknown = parse(readFileSync(resolveScenarioArg(file).file, 'utf8'));
      const fields = explainScenario(scenario, raw);
      ctx.io.out(options.json ? JSON.stringify(fields, null, 2) : renderExplain(scenario, fields));
      ctx.setExitCode(EXIT_OK);
    });
}
