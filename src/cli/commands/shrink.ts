/** `lock-sim shrink`: a failing run -> a locally minimal scenario that fails the same way. */
import type { Command } from 'commander';
import { formatMicros } from '../../engine/time.js';
import { scenarioToYaml } from '../../scenario/to-yaml.js';
import { FAILURE_KINDS } from '../../shrink/failure.js';
import { NothingToShrink, shrink, type ScenarioSize } from '../../shrink/shrink.js';
import { EXIT_OK } from '../exit-codes.js';
import { budgetOf, checkOutputs, checkWritable, MAX_REQUESTS_HELP, parseMaxRequests, parseSeed, UsageError, writeOutput } from '../option-parsers.js';
import { shellQuote } from '../../sweep/shell-quote.js';
import { inputsOf, loadScenarioArg } from '../builtin-scenarios.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';
import { checkVariantNames } from '../variant-names.js';

const SIZE_ROWS: Array<[string, (s: ScenarioSize) => string]> = [
  ['faults', (s) => String(s.faults)],
  ['clients', (s) => String(s.clients)],
  ['workers per client', (s) => String(s.workersPerClient)],
  ['SKUs', (s) => String(s.skus)],
  ['requests', (s) => String(s.requests)],
  ['duration', (s) => formatMicros(s.durationUs)],
  ['history operations', (s) => String(s.historyOps)],
];

export function registerShrink(program: Command, ctx: CommandContext): void {
  program
    .command('shrink')
    .description(summaryOf('shrink'))
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .requiredOption('--seed <n>', 'the seed of the failing run', parseSeed)
    .requiredOption('--variant <name>', 'the variant that fails')
    .option('--failure <kind>', `which failure to keep: ${FAILURE_KINDS.join(', ')} (default: the run's most severe)`)
    .option('--output <file>', 'write the minimal scenario here (default: print it)')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .action((file: string, options: { seed: number; variant: string; failure?: string; output?: string; maxRequests?: number }) => {
      checkWritable('--output', options.output);
      const scenario = loadScenarioArg(file, noteTo(ctx), { budget: budgetOf(options.maxRequests) });
      checkVariantNames(scenario, [options.variant]);
      checkOutputs([['--output', options.output]], inputsOf(file, scenario));
      if (options.failure !== undefined && !FAILURE_KINDS.includes(options.failure)) {
        throw new UsageError(`unknown failure "${options.failure}"; failures are ${FAILURE_KINDS.join(', ')}`);
      }
      let result;
      try {
        result = shrink(scenario, { seed: options.seed, variant: options.variant, failure: options.failure });
      } catch (err) {
        if (err instanceof NothingToShrink) throw new UsageError(err.message);
        throw err;
      }
      const minimal = { ...result.minimal, name: `${scenario.name}-min`, description: `shrunk from ${file} (seed ${result.seed}, variant ${result.variant}): ${result.failure.kind}` };
      const yaml = scenarioToYaml(minimal, [
        `Shrunk by lock-sim shrink from ${file} --seed ${result.seed} --variant ${result.variant}.`,
        `It still shows the failure "${result.failure.kind}" (expect: ${result.failure.metric} == 0 fails), and every fault`,
        'left is needed: without any one of them the run passes. The fault schedule is fixed data.',
      ]);
      const report = [
        `${result.failure.kind} in ${file} (seed ${result.seed}, variant ${result.variant}), shrunk in ${result.attempts} runs:`,
        ...SIZE_ROWS.map(([label, read]) => `  ${label.padEnd(20)} ${read(result.before).padStart(10)} -> ${read(result.after)}`),
        'steps kept:',
        ...result.steps.map((s) => `  - ${s}`),
      ];
      if (options.output) {
        writeOutput(options.output, yaml);
        ctx.io.out([...report, `written to ${options.output}; replay: npx lock-sim run ${shellQuote(options.output)}`].join('\n'));
      } else {
        noteTo(ctx)(report.join('\n'));
        ctx.io.out(yaml.trimEnd());
      }
      ctx.setExitCode(EXIT_OK);
    });
}
