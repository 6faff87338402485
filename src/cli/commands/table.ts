/**
 * Every command's name, arguments and one-line summary, and the module that defines it,
 * loaded only when that command runs (or its help is asked for). This file imports nothing
 * heavy: `lock-sim --version` and `lock-sim --help` read only this table, so they start
 * without the simulator, the Redis client or the Lua VM (the bench's "cli start" lines
 * measure it). Each command's module takes its description from here: written once.
 */
import type { Command } from 'commander';
import type { CommandContext } from './context.js';

type Register = (program: Command, ctx: CommandContext) => void;

export interface CommandEntry {
  name: string;
  /** The command's arguments as commander spells them, e.g. '<scenario>'. */
  args: string;
  summary: string;
  /** Command lines its --help shows (a test parses each with the program). */
  examples: readonly string[];
  /** The module registering it (with any other command of the same module). */
  load(): Promise<Register>;
}

const run = async (): Promise<Register> => (await import('./run.js')).registerRun;
const compare = async (): Promise<Register> => (await import('./compare.js')).registerCompare;
const check = async (): Promise<Register> => (await import('./check.js')).registerCheck;
const catalogue = async (): Promise<Register> => (await import('./catalogue.js')).registerCatalogue;
const shrink = async (): Promise<Register> => (await import('./shrink.js')).registerShrink;
const init = async (): Promise<Register> => (await import('./init.js')).registerInit;
const sweep = async (): Promise<Register> => (await import('./sweep.js')).registerSweep;
const explain = async (): Promise<Register> => (await import('./explain.js')).registerExplain;
const agree = async (): Promise<Register> => (await import('./agree.js')).registerAgree;
const explore = async (): Promise<Register> => (await import('./explore.js')).registerExplore;

/** In the order `lock-sim --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'run', args: '<scenario>', summary: 'run every variant of a scenario on one seed; print verdicts, stories and expectations', examples: ['lock-sim run scenarios/failover.yaml', 'lock-sim run failover --seed 7 --variant lua --timeline', 'lock-sim run scenarios/failover.yaml --format json > run.json', 'lock-sim run scenarios/failover.yaml --report failover.html'], load: run },
  { name: 'compare', args: '<scenario>', summary: 'run variants over the same seeds; probabilities with 95% intervals, means, worst runs, paired differences', examples: ['lock-sim compare scenarios/failover.yaml --seeds 1..200', 'lock-sim compare failover --seeds 1..1000 --baseline lua --format markdown', 'lock-sim compare failover --seeds 1..1000 --shard-index 0 --shard-count 4 --output shard-0.json'], load: compare },
  { name: 'merge', args: '<tallies...>', summary: 'combine the tallies of sharded compare, sweep or check runs (files, folders or globs) into the result of the whole run; merged check tallies are judged (exit 1 when an expectation fails)', examples: ['lock-sim merge shard-0.json shard-1.json shard-2.json shard-3.json', 'lock-sim merge tallies/', "lock-sim merge 'tallies/**/*.json' --format markdown"], load: compare },
  { name: 'check', args: '<paths...>', summary: "run every scenario's expect: block (CI); exit 1 when an expectation fails, with the command that replays it", examples: ['lock-sim check scenarios/', "lock-sim check scenarios/ --exclude 'real/**' --format junit --output junit.xml", 'lock-sim check scenarios/failover.yaml --seeds 1..50'], load: check },
  { name: 'list', args: '', summary: 'list the locks, guards and faults with their options and defaults, the topologies, the metrics and the built-in scenarios', examples: ['lock-sim list', 'lock-sim list --format json'], load: catalogue },
  { name: 'schema', args: '', summary: 'print a JSON Schema for scenario files (for editor completion and validation), or write it with --output', examples: ['lock-sim schema --output scenario.schema.json'], load: catalogue },
  { name: 'shrink', args: '<scenario>', summary: 'shrink a failing run to a small scenario that fails the same way (fixed fault schedule, one variant)', examples: ['lock-sim shrink scenarios/failover.yaml --seed 1 --variant lua --output small.yaml'], load: shrink },
  { name: 'init', args: '', summary: 'write a scenario file to edit: a copy of a built-in scenario, or a commented starter for a topology and a lock', examples: ['lock-sim init', 'lock-sim init --topology sentinel --lock redisson --guard conditional --output shop.yaml', 'lock-sim init --from failover'], load: init },
  { name: 'sweep', args: '<scenario>', summary: 'compare the variants at each value of one or two scenario fields (a grid); --find bisects for the boundary of a condition', examples: ['lock-sim sweep lease-vs-slow-risk-check --param variants.lease-5s.lease=1s..12s/12 --seeds 1..40', 'lock-sim sweep lease-vs-slow-risk-check --param variants.lease-5s.lease=1s..12s/12 --variants lease-5s --seeds 1..40 --find "p(oversold > 0) <= 0.05"'], load: sweep },
  { name: 'explain', args: '<scenario>', summary: 'print every value a scenario runs with: from the file, or a default and where that default comes from', examples: ['lock-sim explain scenarios/failover.yaml'], load: explain },
  { name: 'agree', args: '[scenario]', summary: 'compare the model with real Redis: simulated over seeds vs real runs, per variant and metric a two-sample test (Fisher, Mann-Whitney) with Holm\'s correction', examples: ['lock-sim agree scenarios/real/pause-longer-than-lease.yaml', 'lock-sim agree scenarios/real/pause-longer-than-lease.yaml --seeds 1..10 --repeat 10', 'lock-sim agree --generate 5 --seed 1'], load: agree },
  { name: 'explore', args: '<scenario>', summary: 'search the fault timings systematically: faults at every critical instant, same-instant orders by PCT; a witness, or a bounded statement', examples: ['lock-sim explore scenarios/explore/setnx-crash-window.yaml', 'lock-sim explore scenarios/explore/failover-backlog-window.yaml --variant lua --timeline', 'lock-sim explore scenarios/failover.yaml --faults 2 --budget 5000 --jobs 2 --format json'], load: explore },
];

/** A command's summary, for its module's .description(). */
export function summaryOf(name: string): string {
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry === undefined) throw new Error(`no command ${name} in the command table`);
  return entry.summary;
}
