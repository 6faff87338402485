/** `lock-sim check`: every scenario's expectations, for CI; exit 1 when one fails. */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
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
import { budgetOf, checkOutputs, checkWritable, defaultJobs, MAX_REQUESTS_HELP, parseJobs, parseMaxRequests, parseSeeds, UsageError, writeOutput } from '../options.js';
import { progressBar } from '../progress.js';
import { builtinScenario, inputsOf, isBareName, loadScenarioArg, resolveScenarioArg } from '../builtin-scenarios.js';
import type { CommandContext } from './context.js';

const REPORTERS = ['text', 'junit', 'json', 'markdown'] as const;
type Reporter = (typeof REPORTERS)[number];

/**
 * Files as given; folders searched (recursively) for .yaml / .yml, in name order; a name
 * that is no file but a built-in scenario stays as it is (loadScenarioArg reads it).
 */
export function scenarioFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  // A folder linked into itself would be walked forever: each real folder once.
  const walked = new Set<string>();
  const walk = (dir: string): void => {
    const real = realpathSync(dir);
    if (walked.has(real)) return;
    walked.add(real);
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        // A dangling link: a .yaml one is reported as "no such file" when loaded.
      }
      if (isDir) walk(path);
      else if (/\.ya?ml$/.test(name)) files.push(path);
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
    if (isDir) walk(p);
    else files.push(p);
  }
  if (files.length === 0) throw new UsageError(`no scenario files (.yaml) in ${paths.join(', ')}`);
  return files;
}

interface CheckOptions {
  seeds?: number[];
  jobs?: number;
  reporter: string;
  format?: string;
  output?: string;
  maxRequests?: number;
}

export function registerCheck(program: Command, ctx: CommandContext): void {
  program
    .command('check')
    .description("run every scenario's expect: block (CI); exit 1 when an expectation fails, with the command that replays it")
    .argument('<paths...>', 'scenario files or folders, or names of built-in scenarios (lock-sim list)')
    .option('--seeds <spec>', "seeds to run each scenario on (default: the scenario's seeds:, or its seed)", parseSeeds)
    .option('--jobs <n>', 'worker threads (default: the number of cores)', parseJobs)
    .option('--reporter <name>', `report format: ${REPORTERS.join(', ')} (markdown: CI job summaries)`, 'text')
    .option('--format <name>', 'the same as --reporter')
    .option('--output <file>', 'write the report to this file (the text summary still goes to stdout)')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
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
      const files = scenarioFiles(paths);
      const scenarios = loadAll(files, budgetOf(options.maxRequests), (note) => ctx.io.err(note));
      checkOutputs([['--output', options.output]], scenarios.flatMap((s, i) => inputsOf(files[i], s)));
      const checks: ScenarioCheck[] = [];
      for (const scenario of scenarios) {
        const judged = new Set(scenario.expectations.map((e) => e.variant)).size;
        const progress = progressBar(reporter === 'text' || options.output ? ctx.io.progress ?? null : null, scenario.name, judged);
        checks.push(
          await checkScenario(scenario, {
            seeds: options.seeds,
            jobs: options.jobs ?? defaultJobs(),
            onProgress: (done, total) => progress.update(done, total),
          }),
        );
        progress.stop();
      }
      const text = renderCheck(checks, colorFor(ctx.io.stdoutIsTTY));
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
