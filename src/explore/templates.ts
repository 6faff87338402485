/**
 * The faults explore places: the kinds the scenario lists (each entry of `faults:` as a
 * template, its time left to the explorer), or, when it lists none, a default set for its
 * topology. A template keeps every field of its fault (client, duration, restart-after,
 * replication-stalled-for) but its start; a duration drawn from a distribution (`rate:`
 * faults) is explored at the distribution's mean.
 */
import { meanOf } from '../engine/distribution.js';
import { formatMicros } from '../engine/time.js';
import type { FaultSpec } from '../spec/faults.js';
import type { Scenario } from '../spec/scenario.js';

export interface FaultTemplate {
  /** 1-based, as printed: a replay names templates by number. */
  id: number;
  spec: FaultSpec;
  /** "crash client-1 (restart after 2s)". */
  label: string;
  /** The host it strikes (client-N, redis-N, primary), for placing it near that host's instants first. */
  host: string;
  /** From its start to its heal (0: none, or never within the run): a placement can make it end at an instant. */
  spanUs: number;
}

/** How long after a client crash the default set restarts it: a process manager's restart (systemd's RestartSec default is 100 ms; 1 s leaves the lock's timing to the lease). */
const DEFAULT_CLIENT_RESTART_US = 1_000_000;
/** Redisson's lockWatchdogTimeout default (30 s, Redisson Config), the lease a watchdog keeps renewing. */
const WATCHDOG_LEASE_US = 30_000_000;
/** A default pause outlasts the longest lease by this much: "a GC pause longer than the lease" (Kleppmann 2016). */
const PAUSE_BEYOND_LEASE_US = 100_000;
/** The default primary crash restarts the node after this long (empty, as primary-crash heals). */
const DEFAULT_PRIMARY_RESTART_US = 10_000_000;

function hostOf(spec: FaultSpec): string {
  if ('client' in spec) return `client-${spec.client}`;
  if ('target' in spec) return spec.target;
  if ('node' in spec) return spec.node;
  if (spec.kind === 'partition') return spec.isolate[0] ?? 'primary';
  if (spec.kind === 'primary-crash') return 'primary';
  return '';
}

function spanOf(spec: FaultSpec): number {
  if ('durationUs' in spec) return spec.durationUs;
  if (spec.kind === 'redis-restart') return spec.downUs;
  if (spec.kind === 'primary-crash' || spec.kind === 'crash') return spec.restartAfterUs ?? 0;
  return 0;
}

function describeTemplate(spec: FaultSpec): string {
  const host = hostOf(spec);
  const parts: string[] = [];
  if ('durationUs' in spec && spec.durationUs > 0) parts.push(`for ${formatMicros(spec.durationUs)}`);
  if (spec.kind === 'crash' && spec.point !== null) parts.push(`at its next ${spec.point}`);
  if ((spec.kind === 'crash' || spec.kind === 'primary-crash') && spec.restartAfterUs !== null) parts.push(`restart after ${formatMicros(spec.restartAfterUs)}`);
  if (spec.kind === 'primary-crash' && spec.replicationStalledUs > 0) parts.push(`replication stalled ${formatMicros(spec.replicationStalledUs)} before`);
  if (spec.kind === 'redis-restart') parts.push(`down ${formatMicros(spec.downUs)}, persistence ${spec.persistence}`);
  if (spec.kind === 'clock-jump') parts.push(`by ${spec.byUs >= 0 ? '+' : ''}${formatMicros(spec.byUs)}`);
  if (spec.kind === 'clock-drift') parts.push(`${spec.ppm} ppm`);
  if (spec.kind === 'network-delay') parts.push(`+${formatMicros(spec.delayUs)}`);
  if (spec.kind === 'db-slow') parts.push(`x${spec.factor}`);
  if (spec.kind === 'partition') parts.push(`from ${spec.from === null ? 'everyone else' : spec.from.join(', ')}`);
  const head = spec.kind === 'partition' ? `partition of ${spec.isolate.join(', ')}` : host && spec.kind !== 'primary-crash' ? `${spec.kind} ${host}` : spec.kind;
  return parts.length === 0 ? head : `${head} (${parts.join(', ')})`;
}

/** The scenario's faults as templates, one per distinct fault (times dropped), in file order. */
function scenarioTemplates(scenario: Scenario): FaultSpec[] {
  const specs = [
    ...scenario.faults,
    ...scenario.randomFaults.map((r) => {
      const durationUs = Math.round(meanOf(r.duration));
      return 'durationUs' in r.template ? { ...r.template, durationUs } : r.template;
    }),
  ];
  return specs.map((s) => ({ ...s, atUs: 0 }));
}

/** When the scenario lists no faults: what can happen to its topology. */
function defaultTemplates(scenario: Scenario): FaultSpec[] {
  const out: FaultSpec[] = [];
  const leases = scenario.variants.map((v) => (v.leaseMs === null ? WATCHDOG_LEASE_US : v.leaseMs * 1000));
  const pauseUs = Math.max(...leases) + PAUSE_BEYOND_LEASE_US;
  for (let c = 1; c <= scenario.workload.clients; c++) {
    out.push({ kind: 'crash', client: c, atUs: 0, point: null, restartAfterUs: DEFAULT_CLIENT_RESTART_US });
    out.push({ kind: 'gc-pause', client: c, atUs: 0, durationUs: pauseUs });
  }
  const topology = scenario.redis.topology;
  if (topology === 'sentinel' || topology === 'cluster') out.push({ kind: 'primary-crash', atUs: 0, replicationStalledUs: 0, restartAfterUs: DEFAULT_PRIMARY_RESTART_US });
  else if (topology === 'independent') {
    for (let n = 0; n < scenario.redis.masters; n++) out.push({ kind: 'redis-restart', node: `redis-${n}`, atUs: 0, downUs: 0, persistence: 'none' });
  } else out.push({ kind: 'redis-restart', node: 'redis-0', atUs: 0, downUs: 0, persistence: 'none' });
  return out;
}

/** Numbered templates without repeats; `kinds` keeps only those kinds (all when empty). */
export function templatesOf(scenario: Scenario, kinds: readonly string[] = []): { templates: FaultTemplate[]; fromScenario: boolean } {
  const listed = scenarioTemplates(scenario);
  const fromScenario = listed.length > 0;
  const seen = new Set<string>();
  const templates: FaultTemplate[] = [];
  for (const spec of fromScenario ? listed : defaultTemplates(scenario)) {
    if (kinds.length > 0 && !kinds.includes(spec.kind)) continue;
    const key = JSON.stringify(spec);
    if (seen.has(key)) continue;
    seen.add(key);
    templates.push({ id: templates.length + 1, spec, label: describeTemplate(spec), host: hostOf(spec), spanUs: spanOf(spec) });
  }
  return { templates, fromScenario };
}
