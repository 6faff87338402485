/** `lock-sim agree`: per variant, the model over seeds against real Redis over repeats. */
import { InvalidArgumentError, type Command } from 'commander';
import { agree, AGREE_METRICS, type AgreeMetric } from '../../real/agree.js';
import { checkRedisServer } from '../../real/processes.js';
import { renderAgreeHtml } from '../../report/agree-html.js';
import { agreeToJson, renderAgree } from '../../report/agree-text.js';
import { loadScenarioArg } from '../builtin-scenarios.js';
import { colorFor } from '../color.js';
import { EXIT_EXPECTATION_FAILED, EXIT_OK } from '../exit-codes.js';
import { budgetOf, checkNoDuplicates, checkWritable, collectList, MAX_REQUESTS_HELP, parseMaxRequests, parseSeeds, writeOutput } from '../options.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './table.js';
import { checkVariantNames } from './run.js';

interface AgreeOptions {
  seeds?: number[];
  repeat: number;
  variants: string[];
  json?: boolean;
  report?: string;
  redisServer: string;
  maxRequests?: number;
  metrics: AgreeMetric[];
}

/** The default sizes: 20 seeds and 20 real runs (about 10 minutes for a 30 s scenario). */
const DEFAULT_SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const DEFAULT_REPEAT = 20;

function parseMetrics(value: string, previous: AgreeMetric[]): AgreeMetric[] {
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const n of names) {
    if (!(AGREE_METRICS as readonly string[]).includes(n)) throw new InvalidArgumentError(`unknown metric "${n}"; agree judges ${AGREE_METRICS.join(', ')}`);
  }
  return [...previous, ...(names as AgreeMetric[])];
}

function parseRepeat(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) throw new InvalidArgumentError('expected a number of real runs from 1 to 1000');
  return Number(value);
}

export function registerAgree(program: Command, ctx: CommandContext): void {
  program
    .command('agree')
    .description(summaryOf('agree'))
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .option('--seeds <spec>', 'seeds of the simulated runs; real run i uses seed i of the list (default: 1..20)', parseSeeds)
    .option('--repeat <n>', `real runs per variant (default: ${DEFAULT_REPEAT})`, parseRepeat, DEFAULT_REPEAT)
    .option('--variants <names>', 'comma-separated variants (default: all; repeatable)', collectList, [])
    .option('--metrics <names>', `the metrics that decide the exit code (default: all; ${AGREE_METRICS.join(', ')})`, parseMetrics, [])
    .option('--json', 'print the result as JSON')
    .option('--report <file>', 'also write a self-contained HTML report')
    .option('--redis-server <path>', 'the redis-server binary', 'redis-server')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .action(async (file: string, options: AgreeOptions) => {
      checkWritable('--report', options.report);
      const scenario = loadScenarioArg(file, noteTo(ctx), { budget: budgetOf(options.maxRequests) });
      checkVariantNames(scenario, options.variants);
      checkNoDuplicates('--variants', options.variants);
      const version = checkRedisServer(options.redisServer);
      const result = await agree(scenario, {
        seeds: options.seeds ?? DEFAULT_SEEDS,
        repeat: options.repeat,
        variants: options.variants,
        redisServer: options.redisServer,
        judged: options.metrics.length > 0 ? options.metrics : AGREE_METRICS,
        onRun: (side, variant, done, total) => {
          if (!options.json) noteTo(ctx)(`  ${variant}: ${side} ${done}/${total}`);
        },
      });
      ctx.io.out(options.json ? JSON.stringify(agreeToJson(result, version), null, 2) : renderAgree(result, colorFor(ctx.io)));
      if (options.report) {
        writeOutput(options.report, renderAgreeHtml(result, version));
        if (!options.json) ctx.io.out(`\nreport written to ${options.report}`);
      }
      ctx.setExitCode(result.consistent ? EXIT_OK : EXIT_EXPECTATION_FAILED);
    });
}
