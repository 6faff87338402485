/**
 * `lock-sim init`: writes a scenario file to start from: a copy of a built-in scenario
 * (`--from failover`), or a commented starter for a topology and a lock (`--topology sentinel
 * --lock redisson`, scenario/starter.ts). Both are sources of the same text, chosen in
 * `initSource`; writing the file (the --output default, the refusal to overwrite) is shared.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ScenarioError } from '../../spec/errors.js';
import { STARTER_TOPOLOGIES, starterScenario, withRunFacts } from '../../scenario/starter.js';
import { starterFactLines, starterFacts } from '../../report/starter-facts.js';
import { closest } from '../../scenario/suggest.js';
import { GUARD_NAMES, LOCK_NAMES } from '../../variants/registry.js';
import type { Topology } from '../../spec/redis.js';
import { builtinScenario, builtinScenarios, PACKAGE_SCHEMA_FILE } from '../builtin-scenarios.js';
import { schemaModeline, withModeline } from '../../scenario/schema-line.js';
import { EXIT_OK } from '../exit-codes.js';
import { UsageError, writeOutput } from '../option-parsers.js';
import type { CommandContext } from './context.js';
import { summaryOf } from './summaries.js';

interface InitOptions {
  from?: string;
  topology?: string;
  lock?: string;
  guard?: string;
  output?: string;
  force?: boolean;
}

/** The scenario text to write, where it goes unless --output says otherwise, and what it came from. */
interface InitSource {
  text: string;
  defaultOutput: string;
  what: string;
}

/** A name from a fixed list, or exit 2 with the nearest. */
function pick(flag: string, value: string, names: readonly string[]): string {
  if (names.includes(value)) return value;
  const near = closest(value, names);
  throw new UsageError(`${flag}: no "${value}"${near ? ` (did you mean "${near}"?)` : ''}; choose one of ${names.join(', ')}`);
}

function starterSource(options: InitOptions): InitSource {
  const lock = options.lock === undefined ? undefined : pick('--lock', options.lock, LOCK_NAMES);
  const guard = options.guard === undefined ? undefined : pick('--guard', options.guard, GUARD_NAMES);
  // Redlock needs independent masters, and independent masters are Redlock's setup.
  const topology = (options.topology === undefined ? (lock === 'redlock' ? 'independent' : 'standalone') : pick('--topology', options.topology, STARTER_TOPOLOGIES)) as Topology;
  const chosenLock = lock ?? (topology === 'independent' ? 'redlock' : 'redisson');
  if (chosenLock === 'redlock' && topology !== 'independent') throw new UsageError(`--lock redlock needs --topology independent (Redlock runs on independent masters), not ${topology}`);
  let text: string;
  try {
    const starter = starterScenario({ topology, lock: chosenLock, guard });
    // The header states what the file's own run shows, so the starter is run once before it is written.
    text = withRunFacts(starter.text, starterFactLines(starter.scenario, starterFacts(starter.scenario)));
  } catch (err) {
    // A combination the resolver refuses (a fenced-write guard on a lock without tokens): its message.
    if (err instanceof ScenarioError) throw new UsageError(err.issues.map((i) => i.message).join('; '));
    throw err;
  }
  const name = `starter-${topology}-${chosenLock}`;
  return { text, defaultOutput: `${name}.yaml`, what: `a starter for ${chosenLock} on ${topology}` };
}

function initSource(options: InitOptions): InitSource {
  const names = builtinScenarios().map((s) => s.name);
  const starter = options.topology !== undefined || options.lock !== undefined || options.guard !== undefined;
  if (starter && options.from !== undefined) throw new UsageError('give --from (a copy of a built-in) or --topology/--lock/--guard (a starter), not both');
  if (starter) return starterSource(options);
  if (options.from === undefined) {
    throw new UsageError(
      `init needs --from <built-in scenario> or --topology/--lock for a starter (e.g. init --topology sentinel --lock redisson); built-in scenarios: ${names.join(', ')} (lock-sim list describes them)`,
    );
  }
  const found = builtinScenario(options.from);
  if (!found) {
    const near = closest(options.from, names);
    throw new UsageError(`--from: no built-in scenario "${options.from}"${near ? ` (did you mean "${near}"?)` : ''}; built-in scenarios: ${names.join(', ')}`);
  }
  // The file byte for byte (but for its schema modeline, set where it is written): its opening
  // comment says what it shows and where it comes from.
  return { text: readFileSync(found.file, 'utf8'), defaultOutput: `${found.name}.yaml`, what: `the built-in scenario ${found.name}` };
}

export function registerInit(program: Command, ctx: CommandContext): void {
  program
    .command('init')
    .description(summaryOf('init'))
    .option('--from <name>', 'the built-in scenario to copy')
    .option('--topology <name>', `a starter on this Redis: ${STARTER_TOPOLOGIES.join(', ')} (default standalone; independent with --lock redlock)`)
    .option('--lock <name>', `the starter's lock: ${LOCK_NAMES.join(', ')} (default redisson; redlock on independent)`)
    .option('--guard <name>', `the starter's database guard: ${GUARD_NAMES.join(', ')} (default none); a second variant always puts the lock in front of a conditional UPDATE`)
    .option('--output <file>', 'where to write it (default: <name>.yaml in the current folder)')
    .option('--force', 'overwrite the output file if it exists')
    .action((options: InitOptions) => {
      const source = initSource(options);
      const output = options.output ?? source.defaultOutput;
      if (existsSync(output) && !options.force) {
        throw new UsageError(`${output} already exists; pass --force to overwrite it, or --output <file> to write elsewhere`);
      }
      // Its first line points the editor at the schema the package ships, from where the file is written.
      writeOutput(output, withModeline(source.text, schemaModeline(resolve(output), PACKAGE_SCHEMA_FILE)));
      ctx.io.out(`wrote ${output} (${source.what}); run it with: npx lock-sim run ${output}`);
      ctx.setExitCode(EXIT_OK);
    });
}
