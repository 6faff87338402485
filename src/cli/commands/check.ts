/** `lock-sim check`: every scenario's expectations, for CI; exit 1 when one fails. */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import picomatch from 'picomatch';
import { ScenarioError } from '../../scenario/errors.js';
import type { Scenario } from '../../scenario/types.js';
import { checkScenario, type ScenarioCheck } from '../../sweep/check.js';
import { checkToJson } from '../../report/check-json.js';
import { renderJunit } from '../../report/check-junit.js';
import { renderCheck } from '../../report/check-text.js';
import { renderCheckMarkdown } from '../../report/markdown.js';
import { colorFor } from '../color.js';
import { EXIT_EXPECTATION_FAILED, EXIT_OK } from '../exit-codes.js';
import type { Budget } from '../../scenario/cost.js';
import { budgetOf, checkOutputs, checkWritable, collect, defaultJobs, MAX_REQUESTS_HELP, parseJobs, parseMaxRequests, parseSeeds, UsageError, writeOutput } from '../options.js';
import { progressBar } from '../progress.js';
import { builtinScenario, inputsOf, isBareName, loadScenarioArg, resolveScenarioArg } from '../builtin-scenarios.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './table.js';

const REPORTERS = ['text', 'junit', 'json', 'markdown'] as const;
type Reporter = (typeof REPORTERS)[number];

/** Folders a search never enters: dependencies, version control, and every dot-folder (.github, .cache, ...). */
export const SKIPPED_FOLDERS = ['node_modules'];
const skipped = (name: string): boolean => name.startsWith('.') || SKIPPED_FOLDERS.includes(name);

export interface FileFilter {
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
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped(entry.name)) walk(path, root);
      } else if (/\.ya?ml$/.test(entry.name) && (entry.isFile() || isFile(path)) && keeps(path, root)) files.push(path);
    }
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

/** A symbolic link's target is a file (not a folder: those are not followed). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false; // a dangling link
  }
}

interface CheckOptions {
  seeds?: number[];
  include: string[];
  exclude: string[];
  passWithNoExpectations?: boolean;
  jobs?: number;
  reporter: string;
  format?: string;
  output?: string;
  maxRequests?: number;
}

export function registerCheck(program: Command, ctx: CommandContext): void {
  program
    .command('check')
    .description(summaryOf('check'))
    .argument('<paths...>', 'scenario files or folders, or names of built-in scenarios (lock-sim list)')
    .option('--seeds <spec>', "seeds to run each scenario on (default: the scenario's seeds:, or its seed)", parseSeeds)
    .option('--jobs <n>', 'worker threads (default: the number of cores)', parseJobs)
    .option('--reporter <name>', `report format: ${REPORTERS.join(', ')} (markdown: CI job summaries)`, 'text')
    .option('--format <name>', 'the same as --reporter')
    .option('--output <file>', 'write the report to this file (the text summary still goes to stdout)')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .option('--include <glob>', 'in folders, check only files matching this glob (repeatable; matched against the path and, without a slash, the file name)', collect, [])
    .option('--exclude <glob>', 'skip files matching this glob (repeatable)', collect, [])
    .option('--pass-with-no-expectations', 'pass a scenario that has no expect: block (by default it fails, as a test file without tests does)')
    .action(async (paths: string[], options: CheckOptions) => {
      checkWritable('--output', options.output);
      if (options.format !== undefined) {
        if (options.reporter !== 'text' && options.reporter !== options.format) throw new UsageError(`--reporter ${options.reporter} and --format ${options.format} disagree; give one`);
        options.reporter = options.format;
      }
      if (!(REPORTERS as readonly string[]).includes(options.reporter)) {
        throw new UsageError(`unknown reporter "${options.reporter}"; reporters are ${REPORTERS.join(', ')}`);
      }
      const reporter = options.reporter as Reporter;
      const files = scenarioFiles(paths, { include: options.include, exclude: options.exclude });
      const scenarios = loadAll(files, budgetOf(options.maxRequests), noteTo(ctx));
      checkOutputs([['--output', options.output]], scenarios.flatMap((s, i) => inputsOf(files[i], s)));
      const checks: ScenarioCheck[] = [];
      for (const scenario of scenarios) {
        const judged = new Set(scenario.expectations.map((e) => e.variant)).size;
        const progress = progressBar(reporter === 'text' || options.output ? ctx.io.progress ?? null : null, scenario.name, judged, ctx.io.progressIsTTY);
        checks.push(
          await checkScenario(scenario, {
            seeds: options.seeds,
            jobs: options.jobs ?? defaultJobs(),
            passWithNoExpectations: options.passWithNoExpectations === true,
            onProgress: (done, total) => progress.update(done, total),
          }),
        );
        progress.stop();
      }
      const text = renderCheck(checks, colorFor(ctx.io));
      const report =
        reporter === 'junit' ? renderJunit(checks) : reporter === 'json' ? JSON.stringify(checkToJson(checks), null, 2) : reporter === 'markdown' ? renderCheckMarkdown(checks) : text;
      if (options.output) {
        writeOutput(options.output, `${report}\n`);
        ctx.io.out(text);
      } else ctx.io.out(report);
      ctx.setExitCode(checks.every((c) => c.passed) ? EXIT_OK : EXIT_EXPECTATION_FAILED);
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
