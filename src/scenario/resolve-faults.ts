/**
 * Raw fault entries -> fixed FaultSpecs and random schedules, with cross-checks: hosts and
 * clients that exist, dependencies that are declared, a time or a rate (not both), fixed
 * durations for fixed faults, and no fault starting after the run.
 */
import type { Distribution } from '../engine/distribution.js';
import { quote, type ScenarioIssue } from '../spec/errors.js';
import type { RawScenario } from './schema.js';
import { didYouMean } from './suggest.js';
import type { FaultSpec, RandomFaultSpec } from '../spec/faults.js';

type RawFault = NonNullable<RawScenario['faults']>[number];

/**
 * Occurrences one random fault may be expected to have in a run (rate x duration). Each is
 * recorded and injected; a million a second over a day would be 86 billion. The casebook's
 * busiest random fault expects 20 (2/m over 600 s).
 */
const MAX_FAULT_OCCURRENCES = 100_000;

/**
 * Defaults of fault fields (the field as written, its value, where it comes from): the
 * resolver reads the value, `lock-sim explain` prints both.
 */
export const FAULT_DEFAULT_ENTRIES = {
  replicationStalledUs: { field: 'replication-stalled-for', value: 0, source: 'lock-sim: the replication stream keeps up until the crash unless asked' },
  downUs: { field: 'down-for', value: 0, source: 'lock-sim: back at once (the lost dataset is the fault; give down-for to keep the node down)' },
  partitionMode: { field: 'mode', value: 'silent' as 'silent' | 'reject', source: 'a real partition is silent (a switch or link that drops, iptables DROP, Jepsen\'s default): nothing resets, connections hang until their own timeouts notice; reject resets every connection (iptables REJECT --reject-with tcp-reset)' },
  persistence: { field: 'persistence', value: 'none' as 'none' | 'always', source: 'redis.conf appendonly no: the Redis default, no AOF (redis 7.0.15 redis.conf)' },
};

interface FaultWorld {
  durationUs: number;
  clients: number;
  redisNodes: number;
  dependencyNames: readonly string[];
}

export function resolveFaults(
  raw: readonly RawFault[],
  world: FaultWorld,
  issue: (path: ScenarioIssue['path'], message: string) => void,
): { faults: FaultSpec[]; randomFaults: RandomFaultSpec[] } {
  const faults: FaultSpec[] = [];
  const randomFaults: RandomFaultSpec[] = [];
  const hosts = [
    ...Array.from({ length: world.clients }, (_, i) => `client-${i + 1}`),
    ...Array.from({ length: world.redisNodes }, (_, i) => `redis-${i}`),
    'primary',
  ];

  raw.forEach((f, i) => {
    const checkHost = (field: string, name: string, index?: number): void => {
      if (hosts.includes(name)) return;
      const path = index === undefined ? ['faults', i, field] : ['faults', i, field, index];
      issue(path, `no host ${quote(name)}${didYouMean(name, hosts)}; this scenario has ${hosts.join(', ')}`);
    };
    const clients = 'client' in f ? clientsOf(f.client, world.clients) : [];
    for (const c of clients) {
      if (c > world.clients) issue(['faults', i, 'client'], `client ${c} does not exist: the workload has ${world.clients} client(s), numbered from 1`);
    }
    if (f.kind === 'slow-call' && !world.dependencyNames.includes(f.dependency)) {
      issue(['faults', i, 'dependency'], `unknown dependency ${quote(f.dependency)}${didYouMean(f.dependency, world.dependencyNames)}; declare it under dependencies:`);
    }
    if ('target' in f) checkHost('target', f.target);
    if ('node' in f) {
      checkHost('node', f.node);
      if (f.node.startsWith('client-')) issue(['faults', i, 'node'], `${f.kind} needs a Redis node (redis-N or primary), found ${quote(f.node)}`);
    }
    if (f.kind === 'partition') {
      f.isolate.forEach((h, j) => checkHost('isolate', h, j));
      f.from?.forEach((h, j) => checkHost('from', h, j));
    }

    const rate = 'rate' in f ? f.rate : undefined;
    const atUs = f.at;
    if (atUs !== undefined && rate !== undefined) issue(['faults', i], 'give either at (a fixed time) or rate (drawn from the seed), not both');
    if (atUs === undefined && rate === undefined) issue(['faults', i], 'missing at (e.g. 20s) or rate (e.g. 2/m)');
    if (rate !== undefined && rate * (world.durationUs / 1e6) > MAX_FAULT_OCCURRENCES) {
      issue(['faults', i, 'rate'], `${rate}/s for ${world.durationUs / 1e6}s is about ${Math.round(rate * (world.durationUs / 1e6))} occurrences, over the limit of ${MAX_FAULT_OCCURRENCES} per fault`);
    }
    if (atUs !== undefined && atUs > world.durationUs) issue(['faults', i, 'at'], `the fault starts after the end of the run (${world.durationUs / 1e6}s)`);

    let windowUs = 0;
    let windowDistribution: Distribution | null = null;
    if ('duration' in f && f.duration !== undefined) {
      if (typeof f.duration === 'number') windowUs = f.duration;
      else if (f.duration.kind === 'constant') windowUs = f.duration.valueUs;
      else if (rate !== undefined) windowDistribution = f.duration;
      else issue(['faults', i, 'duration'], 'a fault at a fixed time needs a fixed duration; use rate: to draw occurrences and durations from the seed');
    }

    // A fault on several clients is one fault per client, in client order.
    const specs = 'client' in f ? clients.map((client) => toSpec({ ...f, client }, atUs ?? 0, windowUs)) : [toSpec(f, atUs ?? 0, windowUs)];
    for (const spec of specs) {
      if (rate !== undefined) {
        const duration = windowDistribution ?? { kind: 'constant' as const, valueUs: windowUs };
        randomFaults.push({ template: spec, ratePerS: rate, duration });
      } else faults.push(spec);
    }
  });
  return { faults, randomFaults };
}

/** The clients of `client: 3 | all | [1, 3]`. */
function clientsOf(client: number | 'all' | number[], clients: number): number[] {
  if (client === 'all') return Array.from({ length: clients }, (_, i) => i + 1);
  return Array.isArray(client) ? client : [client];
}

type OneClient<F> = F extends { client: unknown } ? Omit<F, 'client'> & { client: number } : F;

function toSpec(f: OneClient<RawFault>, atUs: number, durationUs: number): FaultSpec {
  switch (f.kind) {
    case 'gc-pause':
      return { kind: 'gc-pause', client: f.client, atUs, durationUs };
    case 'slow-call':
      return { kind: 'slow-call', dependency: f.dependency, atUs, durationUs, latency: f.latency };
    case 'primary-crash':
      return {
        kind: 'primary-crash', atUs, replicationStalledUs: f['replication-stalled-for'] ?? FAULT_DEFAULT_ENTRIES.replicationStalledUs.value, restartAfterUs: f['restart-after'] ?? null,
      };
    case 'crash':
      return { kind: 'crash', client: f.client, atUs, point: f.point ?? null, restartAfterUs: f['restart-after'] ?? null };
    case 'partition':
      return { kind: 'partition', atUs, durationUs, isolate: [...f.isolate], from: f.from ? [...f.from] : null, mode: f.mode ?? FAULT_DEFAULT_ENTRIES.partitionMode.value };
    case 'clock-jump':
      return { kind: 'clock-jump', target: f.target, atUs, byUs: f.by };
    case 'clock-drift':
      return { kind: 'clock-drift', target: f.target, atUs, durationUs: f.duration, ppm: f.ppm };
    case 'redis-pause':
      return { kind: 'redis-pause', node: f.node, atUs, durationUs };
    case 'redis-restart':
      return { kind: 'redis-restart', node: f.node, atUs, downUs: f['down-for'] ?? FAULT_DEFAULT_ENTRIES.downUs.value, persistence: f.persistence ?? FAULT_DEFAULT_ENTRIES.persistence.value };
    case 'network-delay':
      return { kind: 'network-delay', target: f.target, atUs, durationUs, delayUs: f.delay };
    case 'db-slow':
      return { kind: 'db-slow', atUs, durationUs, factor: f.factor };
  }
}
