/** `lock-sim check`: every scenario's expectations, for CI; exit 1 when one fails. */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { filesUnder } from '../folder-files.js';
import type { Command } from 'commander';
import picomatch from 'picomatch';
import { ScenarioError } from '../../spec/errors.js';
import type { Scenario } from '../../spec/scenario.js';
import { judgeScenario, tallyScenario, type ScenarioCheck, type ScenarioTally } from '../../sweep/check-scenario.js';
import { checkTallyJson } from '../../sweep/check-tally-file.js';
import { closest } from '../../scenario/suggest.js';
import { shardOf, shardOptions, type ShardOptions } from '../shard-options.js';
import { checkToJson } from '../../report/check-json.js';
import { renderJunit } from '../../report/check-junit.js';
import { renderCheck } from '../../report/check-text.js';
import { renderCheckMarkdown } from '../../report/markdown.js';
import { colorFor } from '../color.js';
import { EXIT_EXPECTATION_FAILED, EXIT_OK } from '../exit-codes.js';
import type { Budget } from '../../scenario/cost.js';
import { budgetOf, checkOutputs, checkWritable, collect, defaultJobs, MAX_REQUESTS_HELP, parseJobs, parseMaxRequests, parseSeeds, UsageError, writeOutput } from '../option-parsers.js';
import { progressBar } from '../progress.js';
import { builtinScenario, inputsOf, isBareName, loadScenarioArg, resolveScenarioArg } from '../builtin-scenarios.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';

const REPORTERS = ['text', 'junit', 'json', 'markdown'] as const;
const SHARD_OPTIONS = shardOptions("every scenario's seeds");
type Reporter = (typeof REPORTERS)[number];

interface FileFilter {
  /** Globs a file must match one of (none: every .yaml / .yml). */
  include?: readonly string[];
  /** Globs a file must match none of. */
  exclude?: readonly string[];
}

/**
 * Files as given; folders searched (recursively, in name order) for .yaml / .yml, never
 * entering node_modules, .git or any other dot-folder, nor a symbolic link to a folder (a
 * link can loop); a name that is no file but a built-in scenario stays as it is
 * (loadScenarioArg reads it). --include and --exclude globs (picomatch) are matched against a
 * file's path as listed, its path inside the folder given, and, for a glob without a slash,
 * its name.
 */
export function scenarioFiles(paths: readonly string[], filter: FileFilter = {}): string[] {
  const include = globs(filter.include);
  const exclude = globs(filter.exclude);
  const keeps = (path: string, root: string | null): boolean => {
    const names = root === null ? [path] : [path, relative(root, path)];
    if (include && !include(names)) return false;
    return !(exclude && exclude(names));
  };
  const files: string[] = [];
  const walk = (dir: string, root: string): void => {
    files.push(...filesUnder(dir, (path, name) => /\.ya?ml$/.test(name) && keeps(path, root)));
  };
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      if (builtinScenario(p)) {
        files.push(p);
        continue;
      }
      if (isBareName(p)) resolveScenarioArg(p); // throws: neither a file nor a built-in, with did-you-mean
      throw new UsageError(`${p}: no such file or folder`);
    }
    if (isDir) walk(p, p);
    else if (keeps(p, null)) files.push(p);
  }
  if (files.length === 0) {
    const filtered = (filter.include?.length ?? 0) + (filter.exclude?.length ?? 0) > 0 ? ' that --include / --exclude let through' : '';
    throw new UsageError(`no scenario files (.yaml)${filtered} in ${paths.join(', ')}`);
  }
  return files;
}

/** Whether any of a file's names matches one of the globs (one without a slash: its last part); null for no globs. */
function globs(patterns: readonly string[] | undefined): ((names: readonly string[]) => boolean) | null {
  if (patterns === undefined || patterns.length === 0) return null;
  const byPath = patterns.filter((p) => p.includes('/'));
  const byName = patterns.filter((p) => !p.includes('/'));
  const path = byPath.length > 0 ? picomatch(byPath, { dot: true }) : () => false;
  const name = byName.length > 0 ? picomatch(byName, { dot: true }) : () => false;
  return (names) => names.some((n) => path(n) || name(n.slice(n.lastIndexOf('/') + 1)));
}


interface CheckOptions extends ShardOptions {
  seeds?: number[];
  include: string[];
  exclude: string[];
  passWithNoExpectations?: boolean;
  jobs?: number;
  reporter: string;
  format?: string;
  output?: string;
  tally?: string;
  maxRequests?: number;
}

/** The report of judged checks, printed (and written to --output) as check prints it; sets the exit code. */
export function printCheck(checks: readonly ScenarioCheck[], reporter: Reporter, output: string | undefined, ctx: CommandContext): void {
  const text = renderCheck(checks, colorFor(ctx.io));
  const report =
    reporter === 'junit' ? renderJunit(checks) : reporter === 'json' ? JSON.stringify(checkToJson(checks), null, 2) : reporter === 'markdown' ? renderCheckMarkdown(checks) : text;
  if (output) {
    writeOutput(output, `${report}\n`);
    ctx.io.out(text);
  } else ctx.io.out(report);
  ctx.setExitCode(checks.every((c) => c.passed) ? EXIT_OK : EXIT_EXPECTATION_FAILED);
}

/** --reporter / --format, one word: text, junit, json or markdown. */
export function reporterOf(options: { reporter: string; format?: string }): Reporter {
  if (options.format !== undefined) {
    if (options.reporter !== 'text' && options.reporter !== options.format) throw new UsageError(`--reporter ${options.reporter} and --format ${options.format} disagree; give one`);
    options.reporter = options.format;
  }
  if (!(REPORTERS as readonly string[]).includes(options.reporter)) {
    const near = closest(options.reporter, REPORTERS);
    throw new UsageError(`unknown format "${options.reporter}"${near ? ` (did you mean "${near}"?)` : ''}; formats are ${REPORTERS.join(', ')}`);
  }
  return options.reporter as Reporter;
}

export function registerCheck(program: Command, ctx: CommandContext): void {
  program
    .command('check')
    .description(summaryOf('check'))
    .argument('<paths...>', 'scenario files or folders, or names of built-in scenarios (lock-sim list)')
    .option('--seeds <spec>', "seeds to run each scenario on (default: the scenario's seeds:, or its seed)", parseSeeds)
    .option('--jobs <n>', 'worker threads (default: the number of cores)', parseJobs)
    .option('--format <name>', `report format: ${REPORTERS.join(', ')} (markdown: CI job summaries)`)
    .option('--reporter <name>', 'the same as --format (its older name)', 'text')
    .option('--output <file>', 'write the report to this file (the text summary still goes to stdout)')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .option('--include <glob>', 'in folders, check only files matching this glob (repeatable; matched against the path and, without a slash, the file name)', collect, [])
    .option('--exclude <glob>', 'skip files matching this glob (repeatable)', collect, [])
    .addOption(SHARD_OPTIONS[0])
    .addOption(SHARD_OPTIONS[1])
    .addOption(SHARD_OPTIONS[2])
    .option('--tally <file>', "with a shard: write this shard's raw expectation tallies here, judged once lock-sim merge adds the shards up")
    .option('--pass-with-no-expectations', 'pass a scenario that has no expect: block (by default it fails, as a test file without tests does)')
    .action(async (paths: string[], options: CheckOptions) => {
      const shard = shardOf(options);
      checkWritable('--output', options.output);
      checkWritable('--tally', options.tally);
      if (shard !== null && options.tally === undefined) throw new UsageError('a shard (--shard or --shard-index) needs --tally <file>: shards are judged by lock-sim merge');
      if (shard === null && options.tally !== undefined) throw new UsageError('--tally writes the tallies of a shard: give --shard-index and --shard-count (or --shard k/n)');
      if (shard !== null && options.output !== undefined) throw new UsageError('a shard judges nothing: give --output to lock-sim merge, which prints the report');
      const reporter = reporterOf(options);
      const files = scenarioFiles(paths, { include: options.include, exclude: options.exclude });
      const scenarios = loadAll(files, budgetOf(options.maxRequests), noteTo(ctx));
      checkOutputs([['--output', options.output], ['--tally', options.tally]], scenarios.flatMap((s, i) => inputsOf(files[i], s)));
      const tallies: ScenarioTally[] = [];
      for (const scenario of scenarios) {
        const judged = new Set(scenario.expectations.map((e) => e.variant)).size;
        const progress = progressBar(reporter === 'text' || options.output || shard ? ctx.io.progress ?? null : null, scenario.name, judged, ctx.io.progressIsTTY);
        tallies.push(
          await tallyScenario(scenario, {
            seeds: options.seeds,
            shard,
            jobs: options.jobs ?? defaultJobs(),
            passWithNoExpectations: options.passWithNoExpectations === true,
            onProgress: (done, total) => progress.update(done, total),
          }),
        );
        progress.stop();
      }
      if (shard !== null) {
        writeOutput(options.tally!, checkTallyJson(tallies, scenarios, shard));
        const runs = tallies.reduce((n, t) => n + (t.tallies[0]?.runs ?? 0), 0);
        ctx.io.out(`shard ${shard.k}/${shard.n}: ${scenarios.length} scenarios, ${runs} ${runs === 1 ? 'seed' : 'seeds'} run, tallies written to ${options.tally}; judge the shards with lock-sim merge`);
        ctx.setExitCode(EXIT_OK);
        return;
      }
      printCheck(tallies.map(judgeScenario), reporter, options.output, ctx);
    });
}

/** Loads every file first: one bad file stops the check before anything runs, with every error. */
function loadAll(files: readonly string[], budget: Budget, note: (text: string) => void): Scenario[] {
  const scenarios: Scenario[] = [];
  const errors: ScenarioError[] = [];
  for (const file of files) {
    try {
      scenarios.push(loadScenarioArg(file, note, { budget }));
    } catch (err) {
      if (err instanceof ScenarioError) errors.push(err);
      else throw err;
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new UsageError(errors.map((e) => e.message).join('\n'), true);
  return scenarios;
}
