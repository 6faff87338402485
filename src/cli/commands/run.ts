/** `lock-sim run`: one seed, every variant; verdicts, stories, expectations. */
import { InvalidArgumentError, type Command } from 'commander';
import { parseDuration } from '../../scenario/value-parsers.js';
import { renderRunHtml } from '../../report/html.js';
import { CLI_GAP_TEXT, timelineOf } from '../../report/timeline-select.js';
import { renderTimeline } from '../../report/timeline-text.js';
import type { Scenario } from '../../spec/scenario.js';
import { runScenario } from '../../backends/run-scenario.js';
import type { RunResult } from '../../runner/run.js';
import { firstDivergence } from '../../runner/determinism.js';
import { resultToJson } from '../../report/json.js';
import { renderRun } from '../../report/text.js';
import { renderRunMarkdown } from '../../report/markdown.js';
import { colorFor } from '../color.js';
import { EXIT_EXPECTATION_FAILED, EXIT_INTERNAL_ERROR, EXIT_OK } from '../exit-codes.js';
import { budgetOf, checkNoDuplicates, checkOutputs, checkWritable, collect, formatOf, parseFormat, type Format, MAX_REQUESTS_HELP, parseMaxRequests, parseSeed, UsageError, writeOutput } from '../option-parsers.js';
import { lockKeyOf } from '../../variants/lock-key.js';
import { inputsOf, loadScenarioArg } from '../builtin-scenarios.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';
import { checkVariantNames } from '../variant-names.js';
import type { ParamOption } from '../../sweep/params.js';
import { collectParam, loadWithParams } from '../param-options.js';
import { runScenarioReal } from '../../backends/real/run-real.js';
import { checkRedisServer } from '../../backends/real/processes.js';

interface RunOptions {
  seed?: number;
  variant: string[];
  json?: boolean;
  format?: Format;
  checkDeterminism?: boolean;
  timeline?: boolean;
  around?: string;
  from?: number;
  to?: number;
  key?: string;
  report?: string;
  maxRequests?: number;
  param: ParamOption[];
  backend: string;
  redisServer: string;
  repeat: number;
}

function parseTime(value: string): number {
  const r = parseDuration(value);
  if (!r.ok) throw new InvalidArgumentError(r.message);
  return r.value;
}

export function registerRun(program: Command, ctx: CommandContext): void {
  program
    .command('run')
    .description(summaryOf('run'))
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .option('--seed <n>', "seed (default: the scenario's)", parseSeed)
    .option('--variant <name>', 'run only this variant (repeatable)', collect, [])
    .option('--json', 'print the result as JSON (same as --format json)')
    .option('--format <name>', 'text (default), markdown (pull-request comments, CI job summaries) or json', parseFormat)
    .option('--check-determinism', 'run twice and report the first event where the two runs differ')
    .option('--timeline', 'draw each variant\'s lock key on a time axis (80 columns)')
    .option('--around <what>', 'the timeline\'s window: first-violation (default)')
    .option('--from <time>', 'the timeline starts here, e.g. 19.5s', parseTime)
    .option('--to <time>', 'the timeline ends here, e.g. 21s', parseTime)
    .option('--key <key>', 'the lock key to draw (default: the first violation\'s)')
    .option('--report <file>', 'also write a self-contained HTML report')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .option('--param <path=value>', 'set a field of the scenario first, as a sweep cell does: variants.lua.lease=10s (repeatable)', collectParam, [])
    .option('--backend <name>', 'sim (the model, default) or redis (real redis-server processes, in real time)', parseBackend, 'sim')
    .option('--redis-server <path>', 'the redis-server binary of --backend redis', 'redis-server')
    .option('--repeat <n>', '--backend redis: run this many times (each on fresh servers)', parseRepeat, 1)
    .action(async (file: string, options: RunOptions) => {
      checkWritable('--report', options.report);
      const format = formatOf(options);
      // Only the HTML report and the determinism check hold every variant's whole history: their
      // requests count together. Otherwise runs hold what their stories tell, one at a time.
      const held = !options.report && !options.checkDeterminism ? 1 : options.variant.length > 0 ? new Set(options.variant).size : 'all';
      const budget = budgetOf(options.maxRequests, held, options.checkDeterminism ? 2 : 1);
      const scenario = options.param.length > 0 ? loadWithParams(file, options.param, budget, noteTo(ctx)) : loadScenarioArg(file, noteTo(ctx), { budget });
      checkVariantNames(scenario, options.variant);
      checkNoDuplicates('--variant', options.variant);
      checkOutputs([['--report', options.report]], inputsOf(file, scenario));
      checkKey(scenario, options.key);
      if (options.around !== undefined && options.around !== 'first-violation') throw new UsageError(`--around takes first-violation, found "${options.around}"`);
      if (options.backend === 'redis') return runReal(scenario, options, ctx);
      if (options.repeat !== 1) throw new UsageError('--repeat needs --backend redis (a simulated run repeats byte for byte)');
      if (options.checkDeterminism) return checkDeterminism(scenario, options, ctx);
      // Timelines and the HTML report draw from whole histories; otherwise a run keeps what its
      // story tells. Timelines are drawn as each run ends, and its history dropped.
      const window = { key: options.key, fromUs: options.from, toUs: options.to };
      const timelines = new Map<string, ReturnType<typeof timelineOf>>(); // by variant
      const result = options.report
        ? runScenario(scenario, { seed: options.seed, variants: options.variant, history: 'all' })
        : options.timeline && format === 'text'
          ? runScenario(scenario, { seed: options.seed, variants: options.variant, history: 'all', onRun: (run: RunResult) => timelines.set(run.variant.name, timelineOf(run, window)) })
          : runScenario(scenario, { seed: options.seed, variants: options.variant, history: 'story' });
      if (format === 'json') ctx.io.out(JSON.stringify(resultToJson(result), null, 2));
      else if (format === 'markdown') ctx.io.out(renderRunMarkdown(result));
      else {
        const color = colorFor(ctx.io);
        ctx.io.out(renderRun(result, color));
        if (options.timeline) {
          for (const run of result.runs) {
            const model = timelines.get(run.variant.name) ?? timelineOf(run, window);
            ctx.io.out('');
            ctx.io.out(color.bold(`${run.variant.name}:`) + (typeof model === 'string' ? ` ${CLI_GAP_TEXT[model]}` : ''));
            if (typeof model !== 'string') ctx.io.out(renderTimeline(model, color));
          }
        }
      }
      if (options.report) {
        writeOutput(options.report, renderRunHtml(result, window));
        if (format === 'text') ctx.io.out(`\nreport written to ${options.report}`);
      }
      ctx.setExitCode(result.passed ? EXIT_OK : EXIT_EXPECTATION_FAILED);
    });
}

/**
 * A real run: not deterministic, so --check-determinism is the simulator's. --timeline and
 * --report draw each real run's history as they draw a simulated one (the report of repeat N
 * after the first goes to FILE with -N before its extension).
 */
async function runReal(scenario: Scenario, options: RunOptions, ctx: CommandContext): Promise<void> {
  if (options.checkDeterminism) throw new UsageError('--check-determinism is not available with --backend redis (a real run is not deterministic)');
  const window = { key: options.key, fromUs: options.from, toUs: options.to };
  const version = checkRedisServer(options.redisServer);
  let passed = true;
  const results = [];
  for (let i = 0; i < options.repeat; i++) {
    const result = await runScenarioReal(scenario, { seed: options.seed, variants: options.variant, redisServer: options.redisServer });
    passed &&= result.passed;
    results.push(result);
    if (!options.json) {
      const color = colorFor(ctx.io);
      if (i > 0) ctx.io.out('');
      ctx.io.out(color.bold(`REAL RUN ${i + 1}/${options.repeat}`) + ` against redis-server ${version} (real time, not deterministic; the seed drives arrivals and faults)`);
      ctx.io.out(renderRun(result, color));
      if (options.timeline) {
        for (const run of result.runs) {
          const model = timelineOf(run, window);
          ctx.io.out('');
          ctx.io.out(color.bold(`${run.variant.name} (real):`) + (typeof model === 'string' ? ` ${CLI_GAP_TEXT[model]}` : ''));
          if (typeof model !== 'string') ctx.io.out(renderTimeline(model, color));
        }
      }
    }
    if (options.report) {
      const file = i === 0 ? options.report : options.report.replace(/(\.[^./]*)?$/, (ext) => `-${i + 1}${ext}`);
      writeOutput(file, renderRunHtml(result, window));
      if (!options.json) ctx.io.out(`\nreport written to ${file}`);
    }
  }
  if (options.json) ctx.io.out(JSON.stringify({ backend: 'redis', redisServer: version, deterministic: false, repeats: results.map((r) => resultToJson(r)) }, null, 2));
  ctx.setExitCode(passed ? EXIT_OK : EXIT_EXPECTATION_FAILED);
}

function parseBackend(value: string): string {
  if (value !== 'sim' && value !== 'redis') throw new InvalidArgumentError(`expected sim or redis, found "${value}"`);
  return value;
}

function parseRepeat(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) throw new InvalidArgumentError('expected a number of repeats from 1 to 1000');
  return Number(value);
}

/** --key names a lock key of this scenario's stock, or the timeline would be empty. */
function checkKey(scenario: Scenario, key: string | undefined): void {
  if (key === undefined) return;
  const keys = scenario.stock.map((s) => lockKeyOf(s.sku));
  if (keys.includes(key)) return;
  const shown = keys.length > 5 ? `${keys.slice(0, 5).join(', ')}, ...` : keys.join(', ');
  throw new UsageError(`--key ${key}: no such lock key in this scenario; its keys are ${shown}`);
}

function checkDeterminism(scenario: Scenario, options: RunOptions, ctx: CommandContext): void {
  const first = runScenario(scenario, { seed: options.seed, variants: options.variant });
  const second = runScenario(scenario, { seed: options.seed, variants: options.variant });
  let diverged = false;
  first.runs.forEach((run, i) => {
    const d = firstDivergence(run, second.runs[i]);
    if (d === null) {
      ctx.io.out(`${run.variant.name}: deterministic (${run.historyLength} operations, ${run.events} events, identical twice)`);
      return;
    }
    diverged = true;
    ctx.io.out(`${run.variant.name}: DIVERGES at operation ${d.index}`);
    ctx.io.out(`  first run:  ${d.first}`);
    ctx.io.out(`  second run: ${d.second}`);
  });
  ctx.setExitCode(diverged ? EXIT_INTERNAL_ERROR : EXIT_OK);
}
