/** `lock-sim explore`: search the fault timings of a scenario systematically; a witness, or what was covered. */
import { InvalidArgumentError, type Command } from 'commander';
import { FAULT_KINDS } from '../../faults/index.js';
import { renderRunHtml } from '../../report/html.js';
import { resultToJson } from '../../report/json.js';
import { renderRunMarkdown } from '../../report/markdown.js';
import { renderRun } from '../../report/text.js';
import { CLI_GAP_TEXT, timelineOf } from '../../report/timeline-select.js';
import { renderTimeline } from '../../report/timeline-text.js';
import type { ScenarioResult } from '../../runner/scenario-result.js';
import type { RunResult } from '../../runner/run.js';
import { MAX_EXPLORE_BUDGET, MAX_EXPLORE_FAULTS } from '../../scenario/schema.js';
import { scenarioToYaml } from '../../scenario/to-yaml.js';
import type { Scenario } from '../../spec/scenario.js';
import { parseDuration } from '../../scenario/value-parsers.js';
import { closest } from '../../scenario/suggest.js';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_FAULTS, exploreScenario, unknownKinds, type ScenarioExplore } from '../../explore/explore-scenario.js';
import { exploreToJson } from '../../report/explore-json.js';
import { renderExploreMarkdown } from '../../report/explore-markdown.js';
import { renderExploreHtml } from '../../report/explore-html.js';
import { renderExplore } from '../../report/explore-text.js';
import { templatesOf } from '../../explore/templates.js';
import { brokenBy, describeViolation, parseViolation, SAFETY_VIOLATION, type ViolationCondition } from '../../explore/violation.js';
import { faultSpecs, parseReplaySpec, runSchedule } from '../../explore/witness.js';
import { withFaults } from '../../explore/job.js';
import { shellQuote } from '../../sweep/shell-quote.js';
import { loadScenarioArg } from '../builtin-scenarios.js';
import { colorFor } from '../color.js';
import { EXIT_OK } from '../exit-codes.js';
import { budgetOf, checkNoDuplicates, checkWritable, collect, collectList, defaultJobs, formatOf, parseFormat, parseJobs, parseMaxRequests, parseSeed, MAX_REQUESTS_HELP, UsageError, writeOutput, type Format } from '../option-parsers.js';
import { noteTo, type CommandContext } from './context.js';
import { summaryOf } from './summaries.js';
import { checkVariantNames } from '../variant-names.js';


interface ExploreFlags {
  seed?: number;
  variant: string[];
  faults?: number;
  budget?: number;
  time?: number;
  kinds: string[];
  violation: string[];
  pctDepth: number;
  pctRounds: number;
  pctSeed: number;
  merge: boolean;
  all?: boolean;
  jobs?: number;
  json?: boolean;
  format?: Format;
  report?: string;
  timeline?: boolean;
  output?: string;
  replay?: string;
  maxRequests?: number;
}

const intIn = (min: number, max: number, what: string) => (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(`expected ${what} from ${min} to ${max}`);
  return Number(value);
};

function parseTime(value: string): number {
  const r = parseDuration(value);
  if (!r.ok || r.value <= 0) throw new InvalidArgumentError(r.ok ? 'expected a time above 0, e.g. 60s' : r.message);
  return r.value;
}

export function registerExplore(program: Command, ctx: CommandContext): void {
  program
    .command('explore')
    .description(summaryOf('explore'))
    .argument('<scenario>', 'scenario file (YAML), or the name of a built-in scenario (lock-sim list)')
    .option('--seed <n>', "the run's seed, whose instants are searched (default: the scenario's)", parseSeed)
    .option('--variant <name>', 'explore only this variant (repeatable; default: every variant)', collect, [])
    .option('--faults <k>', `at most this many faults at once, 0 to ${MAX_EXPLORE_FAULTS} (default: the scenario's explore: block, else ${DEFAULT_EXPLORE_FAULTS})`, intIn(0, MAX_EXPLORE_FAULTS, 'a number of faults'))
    .option('--budget <n>', `at most this many schedules (runs) per variant (default: the scenario's explore: block, else ${DEFAULT_EXPLORE_BUDGET})`, intIn(1, MAX_EXPLORE_BUDGET, 'a number of schedules'))
    .option('--time <t>', 'also stop each variant\'s search after this much wall-clock time, e.g. 60s (the output then depends on the machine)', parseTime)
    .option('--kinds <kinds>', 'place only faults of these kinds, comma-separated (default: every kind the scenario lists)', collectList, [])
    .option('--violation <condition>', 'what counts as a violation, "metric <op> value" (repeatable: any one; default: the scenario\'s explore: block, else a broken safety invariant)', collect, [])
    .option('--pct-depth <d>', 'the bug depth PCT schedules are drawn for, 1 to 3', intIn(1, 3, 'a depth'), 1)
    .option('--pct-rounds <r>', 'PCT schedules per placement after the one in scheduling order, 0 to 100', intIn(0, 100, 'a number of rounds'), 1)
    .option('--pct-seed <n>', 'seeds the PCT schedules', intIn(0, 2 ** 32 - 1, 'a seed'), 1)
    .option('--no-merge', 'extend every run, also those that went through the same abstract states after their last fault as an earlier one')
    .option('--all', 'keep going after the first violation and report every distinct one')
    .option('--jobs <n>', 'worker threads (default: the number of cores)', parseJobs)
    .option('--json', 'print the result as JSON (same as --format json)')
    .option('--format <name>', 'text (default), markdown or json', parseFormat)
    .option('--report <file>', 'also write a self-contained HTML report (statements, witnesses with timeline and story)')
    .option('--timeline', "draw each witness's lock key on a time axis")
    .option('--output <file>', 'write the first witness as a scenario file with its faults at their exact instants')
    .option('--replay <spec>', 'run one schedule a report printed (T@US[,T@US...][/pct:SEED:DEPTH:STEPS]) and show it as run does; needs one --variant')
    .option('--max-requests <n>', MAX_REQUESTS_HELP, parseMaxRequests)
    .action(async (file: string, flags: ExploreFlags) => {
      checkWritable('--report', flags.report);
      checkWritable('--output', flags.output);
      const format = formatOf(flags);
      const loaded = loadScenarioArg(file, noteTo(ctx), { budget: budgetOf(flags.maxRequests) });
      const scenario = flags.seed === undefined ? loaded : { ...loaded, seed: flags.seed };
      checkVariantNames(scenario, flags.variant);
      checkNoDuplicates('--variant', flags.variant);
      checkKinds(scenario, flags.kinds);
      const conditions = violationOf(scenario, flags.violation);
      if (flags.replay !== undefined) return replay(scenario, flags, conditions, format, ctx);

      let deadline = Number.POSITIVE_INFINITY;
      const now = (): number => Date.now(); // lock-sim: wall-clock ok, --time only: when to stop handing out schedules, never inside a run
      const result = await exploreScenario(scenario, {
        variants: flags.variant,
        maxFaults: flags.faults ?? scenario.explore?.faults ?? DEFAULT_EXPLORE_FAULTS,
        budget: flags.budget ?? scenario.explore?.budget ?? DEFAULT_EXPLORE_BUDGET,
        kinds: flags.kinds,
        conditions,
        pct: { depth: flags.pctDepth, rounds: flags.pctRounds, seed: flags.pctSeed },
        merge: flags.merge,
        all: flags.all === true,
        jobs: flags.jobs ?? defaultJobs(),
        wholeHistory: flags.timeline === true || flags.report !== undefined,
        outOfTime: flags.time === undefined ? undefined : () => now() > deadline,
        onVariant: (variant, done) => {
          if (!done && flags.time !== undefined) deadline = now() + flags.time / 1000;
          if (!done && format === 'text' && ctx.io.progress) ctx.io.err(`exploring ${variant} ...`);
        },
      });
      print(result, flags, format, ctx);
      if (flags.output) writeWitness(result, flags.output, ctx, format);
      ctx.setExitCode(EXIT_OK);
    });
}

function checkKinds(scenario: Scenario, kinds: readonly string[]): void {
  for (const k of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(k)) {
      const near = closest(k, FAULT_KINDS);
      throw new UsageError(`--kinds: no fault kind "${k}"${near ? ` (did you mean "${near}"?)` : ''}; kinds are ${FAULT_KINDS.join(', ')}`);
    }
  }
  const missing = unknownKinds(scenario, kinds);
  if (missing.length > 0) {
    const have = [...new Set(templatesOf(scenario).templates.map((t) => t.spec.kind))];
    throw new UsageError(`--kinds: the scenario has no ${missing.join(', ')} fault to place; it has ${have.join(', ') || 'none'} (list the fault under faults:, with any at or rate)`);
  }
}

function violationOf(scenario: Scenario, written: readonly string[]): ViolationCondition[] {
  if (written.length === 0) return scenario.explore?.violation ?? [];
  return written.map((text) => {
    const c = parseViolation(text);
    if (!c.ok) throw new UsageError(`--violation: ${c.message}`);
    return c.value;
  });
}

function print(result: ScenarioExplore, flags: ExploreFlags, format: Format, ctx: CommandContext): void {
  const color = colorFor(ctx.io);
  if (format === 'json') ctx.io.out(JSON.stringify(exploreToJson(result), null, 2));
  else if (format === 'markdown') ctx.io.out(renderExploreMarkdown(result));
  else {
    ctx.io.out(renderExplore(result, color));
    if (flags.timeline) {
      for (const v of result.variants) {
        for (const w of v.witnesses) {
          const model = timelineOf(w.run, {});
          ctx.io.out('');
          ctx.io.out(color.bold(`${v.result.variant} (schedule ${w.found.schedule.id}):`) + (typeof model === 'string' ? ` ${CLI_GAP_TEXT[model]}` : ''));
          if (typeof model !== 'string') ctx.io.out(renderTimeline(model, color));
        }
      }
    }
  }
  if (flags.report) {
    writeOutput(flags.report, renderExploreHtml(result));
    if (format === 'text') ctx.io.out(`\nreport written to ${flags.report}`);
  }
}

/** The first witness as a scenario of its own: the same world, its faults at their exact instants, its variant alone. */
function writeWitness(result: ScenarioExplore, output: string, ctx: CommandContext, format: Format): void {
  const found = result.variants.find((v) => v.witnesses.length > 0);
  if (!found) {
    if (format === 'text') ctx.io.out(`\nno violation, so nothing written to ${output}`);
    return;
  }
  const w = found.witnesses[0];
  const s = result.scenario;
  const variant = s.variants.find((v) => v.name === found.result.variant);
  if (!variant) return;
  const witness: Scenario = {
    ...withFaults(s, faultSpecs(found.result.templates, w.faults)),
    name: `${s.name}-witness`,
    description: `explore's witness from ${s.file}: ${w.broken.join(', ')}`,
    variants: [variant],
    expectations: [],
    exploreExpectations: [],
  };
  delete witness.explore;
  const pct = w.order === null ? [] : [
    `Its schedule also ordered same-instant events by PCT (${w.order.seed}), which a scenario file cannot say:`,
    'lock-sim run replays the faults in scheduling order, which may not break; the explore --replay command does.',
  ];
  writeOutput(output, scenarioToYaml(witness, [`Written by lock-sim explore ${s.file} --variant ${variant.name}: replay with lock-sim run ${output}.`, ...pct]));
  if (format === 'text') ctx.io.out(`\nwitness written to ${output}; replay: npx lock-sim run ${shellQuote(output)}`);
}

/** --replay: one schedule, reported as `run` reports a run. */
function replay(scenario: Scenario, flags: ExploreFlags, conditions: readonly ViolationCondition[], format: Format, ctx: CommandContext): void {
  if (flags.variant.length !== 1) throw new UsageError('--replay needs exactly one --variant: the one the schedule ran');
  const variant = scenario.variants.find((v) => v.name === flags.variant[0]);
  if (!variant) return;
  const { templates } = templatesOf(scenario, flags.kinds);
  const spec = parseReplaySpec(flags.replay as string, templates, scenario.durationUs);
  if (!spec.ok) throw new UsageError(`--replay: ${spec.message}`);
  const run: RunResult = runSchedule(scenario, variant, templates, spec.faults, spec.order, true);
  const ran = withFaults(scenario, faultSpecs(templates, spec.faults));
  const result: ScenarioResult = { scenario: { ...ran, expectations: [] }, seed: scenario.seed, runs: [run], expectations: [], passed: true };
  const broken = brokenBy(conditions.length > 0 ? conditions : SAFETY_VIOLATION, run.metrics);
  const verdict = broken.length > 0 ? `this schedule breaks ${broken.join(', ')}` : `this schedule breaks none of: ${describeViolation(conditions.length > 0 ? conditions : SAFETY_VIOLATION)}`;
  if (format === 'json') ctx.io.out(JSON.stringify({ ...(resultToJson(result) as object), explore: { replay: flags.replay, broken } }, null, 2));
  else if (format === 'markdown') ctx.io.out(`${renderRunMarkdown(result)}

${verdict}`);
  else {
    const color = colorFor(ctx.io);
    ctx.io.out(renderRun(result, color));
    ctx.io.out('');
    ctx.io.out(broken.length > 0 ? color.red(verdict) : color.green(verdict));
    if (flags.timeline) {
      const model = timelineOf(run, {});
      ctx.io.out('');
      ctx.io.out(color.bold(`${variant.name}:`) + (typeof model === 'string' ? ` ${CLI_GAP_TEXT[model]}` : ''));
      if (typeof model !== 'string') ctx.io.out(renderTimeline(model, color));
    }
  }
  if (flags.report) writeOutput(flags.report, renderRunHtml(result, {}));
  ctx.setExitCode(EXIT_OK);
}
