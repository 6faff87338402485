/** `lock-sim explain <scenario>`: every value the scenario runs with, and where each default comes from. */
import type { Command } from 'commander';
import { explainScenario, renderExplain } from '../../scenario/explain.js';
import { readScenarioSource } from '../../scenario/load.js';
import { MAX_ALIAS_EXPANSIONS, readYaml } from '../../scenario/yaml-document.js';
import { loadScenarioArg, resolveScenarioArg } from '../builtin-scenarios.js';
import { EXIT_OK } from '../exit-codes.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';

export function registerExplain(program: Command, ctx: CommandContext): void {
  program
    .command('explain')
    .description(summaryOf('explain'))
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .option('--json', 'print the fields as JSON: field, value, origin (file or default), source (and a client field\'s model)')
    .action((file: string, options: { json?: boolean }) => {
      // Loading first: an invalid file is refused with its located errors, as run refuses it.
      const scenario = loadScenarioArg(file, noteTo(ctx));
      // The file's own data, read with the loader's limits (it loaded, so it is within them).
      const yaml = readYaml(readScenarioSource(resolveScenarioArg(file).file, file));
      const raw: unknown = yaml.ok ? yaml.doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS }) : null;
      const fields = explainScenario(scenario, raw);
      ctx.io.out(options.json ? JSON.stringify(fields, null, 2) : renderExplain(scenario, fields));
      ctx.setExitCode(EXIT_OK);
    });
}
