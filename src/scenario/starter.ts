/**
 * `lock-sim init --topology ... --lock ...`: a commented starter scenario to edit. The text
 * is built from one template per topology, then loaded like any file; every default the
 * topology uses is written as a comment with its value and source, read from the resolved
 * starter itself (so a comment cannot disagree with what runs).
 */
import { DEFAULT_ENTRIES, type Default } from './resolve.js';
import { redisFieldApplies } from './redis-fields.js';
import { parseScenario } from './load.js';
import { scenarioToObject } from './to-yaml.js';
import type { Scenario } from './types.js';
import type { Topology } from '../world/redis/deployment.js';

export const STARTER_TOPOLOGIES: readonly Topology[] = ['standalone', 'sentinel', 'cluster', 'independent'];

export interface StarterOptions {
  topology: Topology;
  lock: string;
  /** The first variant's guard (default: none, and a second variant adds the conditional UPDATE). */
  guard?: string;
}

/** What each topology's starter injects, and what the header says about it. */
const FAULTS: Record<Topology, { yaml: string; story: string; redis: string[] }> = {
  standalone: {
    yaml: '  - { kind: gc-pause, client: 1, at: 20s, duration: 15s }   # a stop-the-world pause longer than a 10s lease',
    story: 'one Redis server; at 20s client 1 stops for 15 s (a GC pause) while its threads may hold locks',
    redis: ['  topology: standalone'],
  },
  sentinel: {
    yaml: '  - { kind: primary-crash, at: 30s, replication-stalled-for: 2s }   # locks of the last 2 s exist only on the dead primary',
    story: 'a primary with one replica under three Sentinels; the primary dies at 30s after its replication stream stalled for 2 s',
    redis: ['  topology: sentinel', '  replicas: 1'],
  },
  cluster: {
    yaml: '  - { kind: primary-crash, at: 30s, replication-stalled-for: 2s }   # the shard\'s replica takes over without the last 2 s of locks',
    story: 'a Redis Cluster of three masters with a replica each; the lock key\'s master dies at 30s after its replication stream stalled for 2 s',
    redis: ['  topology: cluster', '  replicas: 1'],
  },
  independent: {
    yaml: '  - { kind: redis-restart, node: redis-2, at: 30s }   # restarts at once with an empty dataset (no AOF)',
    story: 'five independent masters (Redlock\'s setup); redis-2 restarts empty at 30s and forgets the keys it held',
    redis: ['  topology: independent', '  masters: 5'],
  },
};

function variantsBlock(o: StarterOptions): string[] {
  const guard = o.guard !== undefined && o.guard !== 'none' ? `, guard: ${o.guard}` : '';
  const name = o.guard !== undefined && o.guard !== 'none' ? `${o.lock}+${o.guard}` : o.lock;
  const lines = [`  ${name}: { lock: ${o.lock}${guard} }`];
  // Without a guard of its own, a second variant shows what a conditional UPDATE adds.
  if (o.guard === undefined) lines.push(`  ${o.lock}+cond: { lock: ${o.lock}, guard: conditional }   # the same lock in front of UPDATE ... WHERE available >= qty`);
  return lines;
}

function starterBody(o: StarterOptions): string {
  const f = FAULTS[o.topology];
  const flags = `--topology ${o.topology} --lock ${o.lock}${o.guard !== undefined ? ` --guard ${o.guard}` : ''}`;
  return [
    `# A starter scenario, written by \`lock-sim init ${flags}\`.`,
    '# Edit it to describe your service. What it shows as written: a lock in front of a stock',
    `# deduction, with ${f.story}.`,
    '# `lock-sim explain <this file>` lists every value it runs with and where each default',
    '# comes from; `lock-sim list` lists the locks, guards, faults and metrics.',
    `name: starter-${o.topology}-${o.lock}`,
    `description: ${o.lock} on ${o.topology} Redis with a fault at 20-30s`,
    'seed: 1',
    'seeds: "1..20"            # the seeds lock-sim check and compare run',
    'duration: 60s',
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
    '# expect:                  # what must hold, checked by lock-sim check (exit 1 when not)',
    `#   ${o.lock}+cond: { oversold: 0 }`,
    '',
  ].join('\n');
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
