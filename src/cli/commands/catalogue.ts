/** `lock-sim list` and `lock-sim schema`: what scenario files may say. */
import type { Command } from 'commander';
import { catalogue, renderCatalogue } from '../../report/catalogue.js';
import { scenarioJsonSchema } from '../../scenario/json-schema.js';
import { EXIT_OK } from '../exit-codes.js';
import type { CommandContext } from './context.js';

export function registerCatalogue(program: Command, ctx: CommandContext): void {
  program
    .command('list')
    .description('list the locks, guards and faults with their options and defaults, the topologies and the metrics')
    .option('--json', 'print as JSON')
    .action((options: { json?: boolean }) => {
      const c = catalogue();
      ctx.io.out(options.json ? JSON.stringify(c, null, 2) : renderCatalogue(c));
      ctx.setExitCode(EXIT_OK);
    });

  program
    .command('schema')
    .description('print a JSON Schema for scenario files (for editor completion and validation)')
    .action(() => {
      ctx.io.out(JSON.stringify(scenarioJsonSchema(), null, 2));
      ctx.setExitCode(EXIT_OK);
    });
}
