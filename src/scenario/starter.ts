/**
 * `lock-sim init --topology ... --lock ...`: a commented starter scenario to edit. The text
 * is built from one template per topology, then loaded like any file; every default the
 * topology uses is written as a comment with its value and source, read from the resolved
 * starter itself (so a comment cannot disagree with what runs).
 */
import { DEFAULT_ENTRIES, DEFAULTS, type Default } from './resolve.js';
import { redisFieldApplies } from './redis-fields.js';
import { parseScenario } from './load.js';
import { scenarioToObject } from './to-yaml.js';
import type { Scenario } from '../spec/scenario.js';
import type { Topology } from '../spec/redis.js';

export const STARTER_TOPOLOGIES: readonly Topology[] = ['standalone', 'sentinel', 'cluster', 'independent'];

export interface StarterOptions {
  topology: Topology;
  lock: string;
  /** The first variant's guard (default: none, and a second variant adds the conditional UPDATE). */
  guard?: string;
}

/**
 * What each topology's starter injects, and what the header says about it. The fault strikes
 * at FAULT_AT_S, and the run lasts long enough for what follows it with the defaults the file
 * leaves in force (Sentinel's down-after, Cluster's node-timeout), so that the failover the
 * header announces happens inside the run.
 */
interface FaultPlan {
  yaml: string;
  /** What happens, for the header (a sentence without its full stop). */
  story: (d: TimingDefaults) => string;
  /** For the description line. */
  short: string;
  redis: string[];
  durationS: (d: TimingDefaults) => number;
}

/** The defaults that decide when a failover comes, in seconds. */
interface TimingDefaults {
  downAfterS: number;
  nodeTimeoutS: number;
}

const FAULT_AT_S = 20;
/** After a failover, time for the clients to move and for requests to run on the new primary. */
const AFTER_FAILOVER_S = 30;

/** Up to the next multiple of 10 s. */
const roundUp10 = (s: number): number => Math.ceil(s / 10) * 10;

const FAULTS: Record<Topology, FaultPlan> = {
  standalone: {
    yaml: `  - { kind: gc-pause, client: 1, at: ${FAULT_AT_S}s, duration: 15s }   # a stop-the-world pause of every thread of client 1`,
    story: () => `one Redis server; at ${FAULT_AT_S}s client 1 stops for 15 s (a GC pause) while its threads may hold locks`,
    short: `client 1 pauses for 15s at ${FAULT_AT_S}s`,
    redis: ['  topology: standalone'],
    durationS: () => 60,
  },
  sentinel: {
    yaml: `  - { kind: primary-crash, at: ${FAULT_AT_S}s, replication-stalled-for: 2s }   # locks of the last 2 s exist only on the dead primary`,
    story: (d) =>
      `a primary with one replica under three Sentinels; at ${FAULT_AT_S}s the primary dies after its replication stream stalled for 2 s, and Sentinel fails it over once it has been unreachable for down-after (${d.downAfterS}s, the default)`,
    short: `the primary dies at ${FAULT_AT_S}s`,
    redis: ['  topology: sentinel', '  replicas: 1'],
    durationS: (d) => roundUp10(FAULT_AT_S + d.downAfterS + AFTER_FAILOVER_S),
  },
  cluster: {
    yaml: `  - { kind: primary-crash, at: ${FAULT_AT_S}s, replication-stalled-for: 2s }   # the shard's replica takes over without the last 2 s of locks`,
    story: (d) =>
      `a Redis Cluster of three masters with a replica each; at ${FAULT_AT_S}s the lock key's master dies after its replication stream stalled for 2 s, and its replica takes over once the other masters have found it unreachable for node-timeout (${d.nodeTimeoutS}s, the default)`,
    short: `the lock key's master dies at ${FAULT_AT_S}s`,
    redis: ['  topology: cluster', '  replicas: 1'],
    durationS: (d) => roundUp10(FAULT_AT_S + d.nodeTimeoutS + AFTER_FAILOVER_S),
  },
  independent: {
    yaml: `  - { kind: redis-restart, node: redis-2, at: ${FAULT_AT_S}s }   # restarts at once with an empty dataset (no AOF)`,
    story: () => `five independent masters (Redlock's setup); redis-2 restarts empty at ${FAULT_AT_S}s and forgets the keys it held`,
    short: `redis-2 restarts empty at ${FAULT_AT_S}s`,
    redis: ['  topology: independent', '  masters: 5'],
    durationS: () => 60,
  },
};

const TIMING: TimingDefaults = { downAfterS: DEFAULTS.downAfterUs / 1e6, nodeTimeoutS: DEFAULTS.nodeTimeoutUs / 1e6 };

/** The variant whose expectation the starter makes: the lock in front of a conditional UPDATE. */
export function guardedVariantName(o: StarterOptions): string {
  return `${o.lock}+cond`;
}

function variantsBlock(o: StarterOptions): string[] {
  const guarded = o.guard !== undefined && o.guard !== 'none';
  const name = guarded ? `${o.lock}+${o.guard}` : o.lock;
  const lines = guarded && o.guard === 'conditional' ? [] : [`  ${name}: { lock: ${o.lock}${guarded ? `, guard: ${o.guard}` : ''} }`];
  // Beside it, what a conditional UPDATE adds: the variant the expectation is about.
  lines.push(`  ${guardedVariantName(o)}: { lock: ${o.lock}, guard: conditional }   # the same lock in front of UPDATE ... WHERE available >= qty`);
  return lines;
}

function starterBody(o: StarterOptions): string {
  const f = FAULTS[o.topology];
  const flags = `--topology ${o.topology} --lock ${o.lock}${o.guard !== undefined ? ` --guard ${o.guard}` : ''}`;
  return [
    `# A starter scenario, written by \`lock-sim init ${flags}\`.`,
    '# Edit it to describe your service. As written: a lock in front of a stock deduction, with',
    ...wrapComment(`${f.story(TIMING)}; the run lasts ${f.durationS(TIMING)}s.`),
    '# `lock-sim explain <this file>` lists every value it runs with and where each default',
    '# comes from; `lock-sim list` lists the locks, guards, faults and metrics.',
    `name: starter-${o.topology}-${o.lock}`,
    `description: ${o.lock} on ${o.topology} Redis; ${f.short}`,
    'seed: 1',
    'seeds: "1..20"            # the seeds lock-sim check and compare run',
    `duration: ${f.durationS(TIMING)}s`,
    'stock: { sku: 10037, available: 200 }',
    'workload:',
    '  clients: 2              # application instances',
    '  workers: 8              # request threads per instance',
    '  arrival: 10/s           # open loop: orders per second (or users: N with think: for a closed loop)',
    '  steps: [lock, read, risk-check, deduct, order, unlock]',
    'dependencies:',
    '  risk-check: uniform(50ms, 300ms)   # a call inside the critical section: make it your P99',
    'network:',
    '  redis-latency: uniform(200us, 1ms)',
    'redis:',
    ...f.redis,
    'faults:',
    f.yaml,
    'variants:',
    ...variantsBlock(o),
    'expect:                   # what must hold on every seed, checked by lock-sim check (exit 1 when not)',
    `  ${guardedVariantName(o)}: { oversold: 0 }   # the conditional UPDATE never sells more than the stock, whatever the lock does`,
    '',
  ].join('\n');
}

/** A sentence as comment lines of at most 96 characters. */
export function wrapComment(sentence: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of sentence.split(' ')) {
    if (line.length + 1 + word.length > 96 && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** The defaults this topology uses that the starter does not write, as comment lines with their sources. */
function defaultComments(scenario: Scenario): string[] {
  const written = scenarioToObject(scenario) as { redis: Record<string, unknown>; network: Record<string, unknown> };
  const entries = Object.values(DEFAULT_ENTRIES) as Array<Default<unknown>>;
  const lines: string[] = [];
  for (const [field, value] of Object.entries(written.redis)) {
    if (field === 'topology' || field === 'replicas' || field === 'masters' || !redisFieldApplies(field, scenario.redis.topology)) continue;
    const entry = entries.find((e) => e.field === `redis.${field}` && (e.topology === undefined || e.topology === scenario.redis.topology));
    if (entry) lines.push(`  # ${field}: ${String(value)}   # default: ${entry.source}`);
  }
  return lines;
}

/**
 * The starter's text, loaded once to prove it valid (a combination the resolver refuses, such
 * as a fenced-write guard on a lock without tokens, comes back as its located issue) and to
 * read the defaults it leaves out.
 */
export function starterScenario(o: StarterOptions): { text: string; scenario: Scenario } {
  const body = starterBody(o);
  const scenario = parseScenario(body, `starter-${o.topology}-${o.lock}.yaml`);
  const comments = defaultComments(scenario);
  const anchor = `${FAULTS[o.topology].redis[FAULTS[o.topology].redis.length - 1]}\n`;
  const text = body.replace(anchor, `${anchor}${comments.map((c) => `${c}\n`).join('')}`);
  return { text, scenario: parseScenario(text, scenario.file) };
}

/**
 * The text with what the starter's own run showed written into its header (lines from
 * report/starter-facts.ts, which runs it), before the line that points at `explain`.
 */
export function withRunFacts(text: string, facts: readonly string[]): string {
  const anchor = '# `lock-sim explain <this file>`';
  return text.replace(anchor, `${facts.map((f) => `${f}\n`).join('')}${anchor}`);
}
