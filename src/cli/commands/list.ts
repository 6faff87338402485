/** `lock-sim list` and `lock-sim schema`: what scenario files may say. */
import type { Command } from 'commander';
import { catalogue, renderCatalogue } from '../../report/catalogue.js';
import { scenarioJsonSchema } from '../../scenario/json-schema.js';
import { describedBuiltinScenarios } from '../builtin-scenarios.js';
import { EXIT_OK } from '../exit-codes.js';
import { parseFormat, textOrJson, writeOutput, type Format } from '../option-parsers.js';
import { MODELINE_PREFIX, SCHEMA_FILE_NAME } from '../../scenario/schema-line.js';
import type { CommandContext } from './context.js';
import { summaryOf } from './summaries.js';

export function registerCatalogue(program: Command, ctx: CommandContext): void {
  program
    .command('list')
    .description(summaryOf('list'))
    .option('--json', 'print as JSON (same as --format json)')
    .option('--format <name>', 'text (default) or json', parseFormat)
    .action((options: { json?: boolean; format?: Format }) => {
      options.json = textOrJson(options, 'list') === 'json';
      const c = catalogue();
      const scenarios = describedBuiltinScenarios().map(({ name, description }) => ({ name, description }));
      ctx.io.out(options.json ? JSON.stringify({ ...c, scenarios }, null, 2) : `${renderCatalogue(c)}\n\n${renderBuiltins(scenarios)}`);
      ctx.setExitCode(EXIT_OK);
    });

  program
    .command('schema')
    .description(summaryOf('schema'))
    .option('--output <file>', `write it to this file (e.g. ${SCHEMA_FILE_NAME} next to your scenarios) instead of printing it`)
    .action((options: { output?: string }) => {
      const text = `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
      if (options.output === undefined) ctx.io.out(text.trimEnd());
      else {
        writeOutput(options.output, text);
        ctx.io.out(`wrote ${options.output}; point a scenario at it with a first line: ${MODELINE_PREFIX}./${SCHEMA_FILE_NAME}`);
      }
      ctx.setExitCode(EXIT_OK);
    });
}

/** The packaged scenarios, runnable by name from any folder. */
function renderBuiltins(scenarios: ReadonlyArray<{ name: string; description: string }>): string {
  const width = Math.max(0, ...scenarios.map((s) => s.name.length));
  return [
    'built-in scenarios (lock-sim run <name>; lock-sim init --from <name> copies one to edit)',
    ...scenarios.map((s) => `  ${s.name.padEnd(width)}  ${s.description}`),
  ].join('\n');
}
