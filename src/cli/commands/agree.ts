/** `lock-sim agree`: per variant, the model over seeds against real Redis over repeats. */
import { InvalidArgumentError, type Command } from 'commander';
import { AGREE_METRICS, checkRepeat, type AgreeMetric } from '../../agree/agree.js';
import { agreeWithModel } from '../../agree/agree.js';
import { checkRedisServer } from '../../backends/real/processes.js';
import { renderAgreeHtml } from '../../report/agree-html.js';
import { agreeToJson, renderAgree } from '../../report/agree-text.js';
import { loadScenarioArg } from '../builtin-scenarios.js';
import { colorFor } from '../color.js';
import { EXIT_EXPECTATION_FAILED, EXIT_OK } from '../exit-codes.js';
import { budgetOf, checkNoDuplicates, checkWritable, collectList, MAX_REQUESTS_HELP, parseMaxRequests, parseSeeds, writeOutput } from '../option-parsers.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';
import { generateScenarios } from '../../agree/generate.js';
import { parseScenario } from '../../scenario/load.js';
import { UsageError } from '../option-parsers.js';
import { checkVariantNames } from '../variant-names.js';

interface AgreeOptions {
  generate?: number;
  seed?: number;
  seeds?: number[];
  repeat?: number;
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
    .argument('[scenario]', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list); none with --generate')
    .option('--generate <n>', 'instead of a scenario: draw N small real-time scenarios from the generator\'s grammar and agree on each (safety metrics unless --metrics)', parseCount)
    .option('--seed <s>', 'the generator\'s seed with --generate (scenario i is drawn from seed S+i; default 1)', parseCount)
    .option('--seeds <spec>', 'seeds of the simulated runs; real run i replays seed i of the list (default: 1..20)', parseSeeds)
    .option('--repeat <n>', `real runs per variant, at most the number of seeds (default: ${DEFAULT_REPEAT} or the number of seeds if fewer; 5 with --generate)`, parseRepeat)
    .option('--variants <names>', 'comma-separated variants (default: all; repeatable)', collectList, [])
    .option('--metrics <names>', `the metrics that decide the exit code (default: all; ${AGREE_METRICS.join(', ')})`, parseMetrics, [])
    .option('--json', 'print the result as JSON')
    .option('--report <file>', 'also write a self-contained HTML report')
    .option('--redis-server <path>', 'the redis-server binary', 'redis-server')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .action(async (file: string | undefined, options: AgreeOptions) => {
      checkWritable('--report', options.report);
      if (options.generate !== undefined || options.seed !== undefined) {
        if (file !== undefined) throw new UsageError('--generate draws its own scenarios: give no scenario file with it');
        if (options.generate === undefined) throw new UsageError('--seed is the seed of --generate');
        return agreeGenerated(options, ctx);
      }
      if (file === undefined) throw new UsageError('name a scenario file, or --generate N');
      const scenario = loadScenarioArg(file, noteTo(ctx), { budget: budgetOf(options.maxRequests) });
      checkVariantNames(scenario, options.variants);
      checkNoDuplicates('--variants', options.variants);
      const seeds = options.seeds ?? DEFAULT_SEEDS;
      const repeat = options.repeat ?? Math.min(DEFAULT_REPEAT, seeds.length);
      checkRepeat(repeat, seeds);
      const version = checkRedisServer(options.redisServer);
      const result = await agreeWithModel(scenario, {
        seeds,
        repeat,
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

function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100_000) throw new InvalidArgumentError('expected a whole number from 1 to 100000');
  return Number(value);
}

/**
 * `agree --generate N`: each generated scenario agreed on as a file would be; the disagreements
 * with the command that replays each and its scenario text (save it as a regression case).
 */
async function agreeGenerated(options: AgreeOptions, ctx: CommandContext): Promise<void> {
  const seeds = options.seeds ?? DEFAULT_SEEDS.slice(0, 5);
  // 5 seeds and 5 real runs unless told; --seeds alone runs as many real runs as it names.
  const repeat = options.repeat ?? (options.seeds === undefined ? 5 : Math.min(DEFAULT_REPEAT, seeds.length));
  checkRepeat(repeat, seeds);
  const version = checkRedisServer(options.redisServer);
  const judged: AgreeMetric[] = options.metrics.length > 0 ? options.metrics : ['p(oversold)', 'p(double-holders)'];
  const generated = generateScenarios(options.generate as number, options.seed ?? 1);
  const results = [];
  let differing = 0;
  for (const g of generated) {
    const scenario = parseScenario(g.yaml, `${g.name}.yaml`);
    const result = await agreeWithModel(scenario, { seeds, repeat, redisServer: options.redisServer, judged });
    results.push({ seed: g.seed, yaml: g.yaml, result });
    const replay = `lock-sim agree --generate 1 --seed ${g.seed} --seeds ${seeds[0]}..${seeds[seeds.length - 1]} --repeat ${repeat}`;
    if (!result.consistent) differing++;
    if (!options.json) {
      const rows = result.variants.flatMap((v) => v.rows.filter((r) => r.consistent === false).map((r) => `${r.metric} ${r.simulated.estimate.toFixed(2)} vs ${r.real?.estimate.toFixed(2)} (Holm p ${r.adjustedP.toFixed(3)})`));
      ctx.io.out(`${g.name}  ${result.consistent ? 'agree' : 'DIFFER'}  ${scenario.description}${rows.length > 0 ? `: ${rows.join('; ')}` : ''}`);
      if (!result.consistent) {
        ctx.io.out(`  replay: ${replay}`);
        ctx.io.out(g.yaml.split('\n').map((l) => `    ${l}`).join('\n'));
      }
    }
  }
  const agreed = generated.length - differing;
  if (options.json) ctx.io.out(JSON.stringify({ format: 1, backend: 'redis', redisServer: version, generated: generated.length, agreed, scenarios: results.map((r) => ({ seed: r.seed, yaml: r.yaml, ...(agreeToJson(r.result, version) as object) })) }, null, 2));
  else ctx.io.out(`\n${agreed} of ${generated.length} generated scenarios agree (${seeds.length} model seeds, ${repeat} real runs each; judged: ${judged.join(', ')})`);
  ctx.setExitCode(differing === 0 ? EXIT_OK : EXIT_EXPECTATION_FAILED);
}
