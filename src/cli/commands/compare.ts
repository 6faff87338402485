/** `lock-sim compare` and `lock-sim merge`: variants side by side over many seeds. */
import type { Command } from 'commander';
import { compare, DEFAULT_COMPARE_SEEDS, summarise, type CompareResult } from '../../sweep/compare-variants.js';
import { compareToJson } from '../../report/compare-json.js';
import { renderCompareHtml } from '../../report/html.js';
import { COMPARE_COLUMN_IDS, renderCompare, renderCompareMarkdown } from '../../report/compare-text.js';
import { colorFor } from '../color.js';
import { EXIT_OK } from '../exit-codes.js';
import { budgetOf, checkNoDuplicates, checkOutputs, checkWritable, collectList, defaultJobs, formatOf, parseFormat, type Format, MAX_REQUESTS_HELP, parseJobs, parseMaxRequests, parseSeeds, UsageError, writeOutput } from '../option-parsers.js';
import { progressBar } from '../progress.js';
import { inputsOf, loadScenarioArg } from '../builtin-scenarios.js';
import { SHARD_FORMAT } from '../../sweep/tally-file.js';
import { mergeTallyFiles } from '../merge-tallies.js';
import { tallyPaths } from '../tally-paths.js';
import { printCheck, reporterOf } from './check.js';
import { judgeScenario } from '../../sweep/check-scenario.js';
import { closest } from '../../scenario/suggest.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';
import { shardOf, shardOptions, type ShardOptions } from '../shard-options.js';

const SHARD_OPTIONS = shardOptions('the seeds');
import { checkVariantNames } from '../variant-names.js';
import { printSweep } from './sweep.js';

interface CompareOptions extends ShardOptions {
  variants: string[];
  seeds?: number[];
  baseline?: string;
  jobs?: number;
  json?: boolean;
  format?: Format;
  columns: string[];
  output?: string;
  report?: string;
  maxRequests?: number;
}

interface MergeOptions {
  json?: boolean;
  format?: string;
  columns?: string[];
  report?: string;
  output?: string;
}

/** --format of a compare or sweep merge: text, markdown or json. */
function parseFormatWord(value: string): Format {
  try {
    return parseFormat(value);
  } catch (err) {
    throw new UsageError(`--format: ${err instanceof Error ? err.message : String(err)} (junit is for check tallies)`);
  }
}

interface PrintOptions {
  json?: boolean;
  format?: Format;
  columns?: string[];
  report?: string;
}

function print(result: CompareResult, options: PrintOptions, ctx: CommandContext): void {
  const summary = summarise(result);
  const format = formatOf(options);
  if (format === 'json') ctx.io.out(JSON.stringify(compareToJson(summary), null, 2));
  else if (format === 'markdown') ctx.io.out(renderCompareMarkdown(summary, options.columns));
  else ctx.io.out(renderCompare(summary, colorFor(ctx.io), options.columns));
  if (options.report) {
    writeOutput(options.report, renderCompareHtml(summary));
    if (format === 'text') ctx.io.out(`\nreport written to ${options.report}`);
  }
}

/** --columns names columns of the compare table; a typo is refused with the nearest name. */
function checkColumns(columns: readonly string[] | undefined): void {
  for (const c of columns ?? []) {
    if (COMPARE_COLUMN_IDS.includes(c)) continue;
    const near = closest(c, COMPARE_COLUMN_IDS);
    throw new UsageError(`--columns: no column "${c}"${near ? ` (did you mean "${near}"?)` : ''}; columns are ${COMPARE_COLUMN_IDS.join(', ')}`);
  }
}

const COLUMNS_HELP = `table columns to show, comma-separated (default: all; the variant always shows): ${COMPARE_COLUMN_IDS.slice(1).join(', ')}`;
const FORMAT_HELP = 'text (default), markdown (pull-request comments, CI job summaries) or json';

export function registerCompare(program: Command, ctx: CommandContext): void {
  program
    .command('compare')
    .description(summaryOf('compare'))
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .option('--variants <names>', 'comma-separated variants to compare (default: all; repeatable)', collectList, [])
    .option('--seeds <spec>', 'seeds: 1..1000, 500 (= 1..500) or 3,7,42 (default: 1..100)', parseSeeds)
    .option('--baseline <name>', 'report paired differences of the other variants against this one')
    .option('--jobs <n>', 'worker threads (default: the number of cores)', parseJobs)
    .option('--json', 'print the result as JSON (same as --format json)')
    .option('--format <name>', FORMAT_HELP, parseFormat)
    .option('--columns <names>', COLUMNS_HELP, collectList, [])
    .addOption(SHARD_OPTIONS[0])
    .addOption(SHARD_OPTIONS[1])
    .addOption(SHARD_OPTIONS[2])
    .option('--output <file>', 'also write the raw tally to this file, for lock-sim merge')
    .option('--report <file>', 'also write a self-contained HTML report (table and oversold chart)')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .action(async (file: string, options: CompareOptions) => {
      const shard = shardOf(options);
      checkWritable('--report', options.report);
      checkWritable('--output', options.output);
      checkColumns(options.columns);
      formatOf(options);
      const scenario = loadScenarioArg(file, noteTo(ctx), { budget: budgetOf(options.maxRequests) });
      checkVariantNames(scenario, options.variants);
      checkNoDuplicates('--variants', options.variants);
      checkOutputs([['--output', options.output], ['--report', options.report]], inputsOf(file, scenario));
      if (options.baseline !== undefined) checkVariantNames(scenario, [options.baseline]);
      if (options.baseline !== undefined && options.variants.length > 0 && !options.variants.includes(options.baseline)) {
        throw new UsageError(`the baseline ${options.baseline} is not among --variants ${options.variants.join(',')}`);
      }
      if (shard && !options.output) throw new UsageError('a shard (--shard or --shard-index) needs --output <file>: shards are combined with lock-sim merge');
      const variantCount = options.variants.length > 0 ? options.variants.length : scenario.variants.length;
      const progress = progressBar(formatOf(options) !== 'text' ? null : ctx.io.progress ?? null, 'compare', variantCount, ctx.io.progressIsTTY);
      const result = await compare(scenario, {
        seeds: options.seeds ?? DEFAULT_COMPARE_SEEDS,
        variants: options.variants,
        baseline: options.baseline ?? null,
        jobs: options.jobs ?? defaultJobs(),
        shard,
        onProgress: (done, total) => progress.update(done, total),
      });
      progress.stop();
      if (options.output) writeOutput(options.output, `${JSON.stringify({ format: SHARD_FORMAT, ...result })}\n`);
      if (shard) {
        const runs = result.tally.variants[0]?.runs ?? 0;
        ctx.io.out(`shard ${shard.k}/${shard.n}: ${runs} seeds run, tally written to ${options.output}; combine the shards with lock-sim merge`);
      } else print(result, options, ctx);
      ctx.setExitCode(EXIT_OK);
    });

  program
    .command('merge')
    .description(summaryOf('merge'))
    .argument('<tallies...>', 'tally files written by compare, sweep or check with a shard: files, folders (every .json under them) or quoted globs')
    .option('--json', 'print the result as JSON (same as --format json)')
    .option('--format <name>', `${FORMAT_HELP}; junit too for check tallies`)
    .option('--columns <names>', COLUMNS_HELP, collectList, [])
    .option('--report <file>', 'also write a self-contained HTML report (compare and sweep tallies)')
    .option('--output <file>', 'check tallies: write the report (--format) to this file; the text summary still goes to stdout')
    .action((args: string[], options: MergeOptions) => {
      const files = tallyPaths(args);
      checkWritable('--report', options.report);
      checkWritable('--output', options.output);
      checkColumns(options.columns);
      checkOutputs([['--report', options.report], ['--output', options.output]], files);
      // Shards of a sweep merge cell by cell, of a check scenario by scenario; every file is checked first (merge-tallies.ts).
      const merged = mergeTallyFiles(files);
      if (merged.kind === 'check') {
        if (options.report !== undefined) throw new UsageError('--report: merged check tallies print a check report; write it with --output');
        const reporter = reporterOf({ reporter: options.json ? 'json' : 'text', format: options.format });
        printCheck(merged.result.map(judgeScenario), reporter, options.output, ctx);
        return;
      }
      if (options.output !== undefined) throw new UsageError('--output: a merged compare or sweep prints its table; --report writes the HTML report');
      const format = formatOf({ json: options.json, format: options.format === undefined ? undefined : parseFormatWord(options.format) });
      if (merged.kind === 'sweep') {
        if (format === 'markdown') throw new UsageError('--format markdown: a merged sweep prints as text or json');
        printSweep(merged.result, { json: format === 'json', report: options.report }, ctx);
      } else print(merged.result, { ...options, format }, ctx);
      ctx.setExitCode(EXIT_OK);
    });
}
