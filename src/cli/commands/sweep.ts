/** `lock-sim sweep`: a compare per value (or pair of values) of one or two scenario fields, and --find's boundary. */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { DEFAULT_COMPARE_SEEDS, replayCommand, seedsLabel, type CompareResult } from '../../sweep/compare-variants.js';
import { findBoundary, parseCondition, type Condition } from '../../sweep/find.js';
import { SWEEP_SHARD_FORMAT } from '../../sweep/tally-file.js';
import { runCell, sweep, sweepOfCells, type SweepResult } from '../../sweep/sweep-grid.js';
import { shellQuote } from '../../sweep/shell-quote.js';
import { findToJson, sweepToJson } from '../../report/sweep-json.js';
import { renderSweepHtml } from '../../report/sweep-html.js';
import { renderFind, renderSweep } from '../../report/sweep-text.js';
import { colorFor } from '../color.js';
import { EXIT_OK } from '../exit-codes.js';
import { checkNoDuplicates, checkOutputs, checkWritable, collectList, defaultJobs, MAX_REQUESTS_HELP, parseJobs, parseMaxRequests, parseFormat, parseSeeds, textOrJson, UsageError, writeOutput, type Format } from '../option-parsers.js';
import { progressBar } from '../progress.js';
import { inputsOf } from '../builtin-scenarios.js';
import type { ParamOption } from '../../sweep/params.js';
import { buildGrid, collectParam } from '../param-options.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';
import { shardOf, shardOptions, type ShardOptions } from '../shard-options.js';

const SHARD_OPTIONS = shardOptions('the seeds in every cell');
import { checkVariantNames } from '../variant-names.js';


interface SweepCliOptions extends ShardOptions {
  param: ParamOption[];
  variants: string[];
  seeds?: number[];
  jobs?: number;
  json?: boolean;
  format?: Format;
  report?: string;
  find?: Condition;
  output?: string;
  maxRequests?: number;
}

function parseFind(value: string): Condition {
  const c = parseCondition(value);
  if (!c.ok) throw new InvalidArgumentError(c.message);
  return c.value;
}

export function registerSweep(program: Command, ctx: CommandContext): void {
  program
    .command('sweep')
    .description(summaryOf('sweep'))
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .option('--param <path=values>', 'a field and its values: variants.lua.lease=2s..30s/8 (range), log:100ms..10s/5 (log range) or 2s,5s,10s (list); once or twice', collectParam, [])
    .option('--variants <names>', 'comma-separated variants to compare (default: all; repeatable)', collectList, [])
    .option('--seeds <spec>', 'seeds of every cell: 1..1000, 500 (= 1..500) or 3,7,42 (default: 1..100)', parseSeeds)
    .option('--jobs <n>', 'worker threads (default: the number of cores)', parseJobs)
    .option('--json', 'print the result as JSON (same as --format json)')
    .option('--format <name>', 'text (default) or json', parseFormat)
    .option('--report <file>', 'also write a self-contained HTML report (lines with 95% bands, or heatmaps)')
    .option('--find <condition>', 'bisect one --param for where the condition flips, e.g. "p(oversold > 0) <= 0.01"', parseFind)
    .addOption(SHARD_OPTIONS[0])
    .addOption(SHARD_OPTIONS[1])
    .addOption(SHARD_OPTIONS[2])
    .option('--output <file>', 'also write the raw tallies to this file, for lock-sim merge')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .action(async (file: string, options: SweepCliOptions) => {
      options.json = textOrJson(options, 'sweep') === 'json';
      const shard = shardOf(options);
      checkWritable('--report', options.report);
      checkWritable('--output', options.output);
      if (options.param.length === 0) throw new UsageError('sweep needs --param <path>=<values>, e.g. --param variants.lease-5s.lease=2s..30s/8');
      if (options.param.length > 2) throw new UsageError(`sweep takes one or two --param, found ${options.param.length}`);
      if (shard && !options.output) throw new UsageError('a shard (--shard or --shard-index) needs --output <file>: shards are combined with lock-sim merge');
      if (options.find && options.param.length !== 1) throw new UsageError('--find bisects one --param; give exactly one');
      if (options.find && (shard || options.output)) throw new UsageError('--find cannot be sharded: each step depends on the one before; run it whole');
      const grid = buildGrid(file, options.param, options.maxRequests, noteTo(ctx));
      checkVariantNames(grid.base, options.variants);
      checkNoDuplicates('--variants', options.variants);
      checkOutputs([['--output', options.output], ['--report', options.report]], inputsOf(file, grid.base));
      const seeds = options.seeds ?? DEFAULT_COMPARE_SEEDS;
      const variants = options.variants.length > 0 ? options.variants : grid.base.variants.map((v) => v.name);
      const run = { seeds, variants, jobs: options.jobs ?? defaultJobs(), shard };
      const color = colorFor(ctx.io);

      if (options.find) {
        const axis = grid.axes[0];
        const numbers = axis.numeric;
        const ordered = numbers.every((x, i) => x !== null && (i === 0 || (x as number) > (numbers[i - 1] as number)));
        if (!ordered) throw new UsageError(`--find bisects ${axis.path} in order: give a range, or a list of durations, rates or numbers that rises (found ${axis.labels.join(',')})`);
        const ran = new Map<number, CompareResult>();
        const find = await findBoundary(
          options.find,
          axis.path,
          axis.labels,
          variants,
          async (i) => {
            const r = await runCell(grid, [i], run);
            ran.set(i, r);
            return r;
          },
          (i, seed, variant) => `${replayCommand(grid.source.display, seed, variant)} --param ${shellQuote(`${axis.path}=${axis.raw[i]}`)}`,
        );
        ctx.io.out(options.json ? JSON.stringify(findToJson(find, { name: grid.base.name, file: grid.source.display }, seedsLabel(seeds)), null, 2) : renderFind(find, seeds.length, color));
        if (options.report) {
          // The report draws the cells the search ran (it ran few of the range's values).
          const flips = find.variants.map((v) => `${v.variant}: ${v.boundary ? `flips between ${v.boundary.before.label} and ${v.boundary.after.label}` : 'no boundary inside the range'}`);
          const note = `--find "${find.condition}" along ${axis.path}: the ${ran.size} of its ${axis.labels.length} values the search ran. ${flips.join('; ')}.`;
          writeOutput(options.report, renderSweepHtml(sweepOfCells(grid, ran, seeds, variants), note));
          if (!options.json) ctx.io.out(`\nreport written to ${options.report}`);
        }
        ctx.setExitCode(EXIT_OK);
        return;
      }

      const progress = progressBar(options.json ? null : ctx.io.progress ?? null, 'sweep', 1, ctx.io.progressIsTTY);
      const result = await sweep(grid, { ...run, onProgress: (done, total) => progress.update(done, total) });
      progress.stop();
      if (options.output) writeOutput(options.output, `${JSON.stringify({ format: SWEEP_SHARD_FORMAT, ...result })}\n`);
      if (shard) {
        ctx.io.out(`shard ${shard.k}/${shard.n}: ${result.cells.length} cells, tallies written to ${options.output}; combine the shards with lock-sim merge`);
      } else printSweep(result, options, ctx);
      ctx.setExitCode(EXIT_OK);
    });
}

export function printSweep(result: SweepResult, options: { json?: boolean; report?: string }, ctx: CommandContext): void {
  ctx.io.out(options.json ? JSON.stringify(sweepToJson(result), null, 2) : renderSweep(result, colorFor(ctx.io)));
  if (options.report) {
    writeOutput(options.report, renderSweepHtml(result));
    if (!options.json) ctx.io.out(`\nreport written to ${options.report}`);
  }
}
