/**
 * `lock-sim list`: the locks, guards and faults a scenario may name, with their options and
 * defaults, as text or data. Built from the registries and the schema, so it cannot drift.
 */
import { FAULT_KINDS, FAULT_SUMMARIES } from '../faults/index.js';
import { VARIANT_OPTIONS, type VariantOption } from '../scenario/resolve-variants.js';
import { faultSchemas, redisFields } from '../scenario/schema.js';
import { METRICS } from '../checker/metric-names.js';
import { GUARDS, LOCKS } from '../variants/registry.js';
import { BASELINE_SOURCE, BASELINE_VERSION, BASELINE_WHAT, DEFAULT_REDISSON_VERSION, REDISSON_CHANGES, REDISSON_VERSIONS } from '../variants/locks/redisson/versions.js';
import { TOPOLOGIES } from '../spec/redis.js';

interface Catalogue {
  locks: Array<{ name: string; summary: string; options: VariantOption[] }>;
  guards: Array<{ name: string; summary: string; options: VariantOption[] }>;
  /** Options every variant takes. */
  variantOptions: VariantOption[];
  faults: Array<{ kind: string; summary: string; fields: string[] }>;
  topologies: string[];
  /** The fields of `redis:`. */
  redisFields: string[];
  metrics: Array<{ name: string; description: string; time: boolean }>;
  /** What each Redisson version changes (redisson-version), oldest first. */
  redisson: {
    default: string;
    versions: string[];
    changes: Array<{ since: string; what: string[]; source: string }>;
  };
}

export function catalogue(): Catalogue {
  return {
    locks: [
      ...[...LOCKS.values()].map((l) => ({ name: l.name, summary: l.summary, options: VARIANT_OPTIONS.filter((o) => o.locks?.includes(l.name)) })),
      // A user lock module (src/own-code), written lock: { module: ./x.mjs, export?, options? }.
      { name: '{ module: path }', summary: 'your own lock code, run unmodified on the simulated Redis (export: the factory, default the default export; options: handed to it; keys: the Redis keys its lock lives under, e.g. mutex:{key}); docs/guides/own-code.md', options: [] },
    ],
    guards: [...GUARDS.values()].map((g) => ({ name: g.name, summary: g.summary, options: VARIANT_OPTIONS.filter((o) => o.guards?.includes(g.name)) })),
    variantOptions: VARIANT_OPTIONS.filter((o) => !o.locks && !o.guards),
    faults: FAULT_KINDS.map((kind) => ({
      kind,
      summary: FAULT_SUMMARIES[kind],
      fields: Object.keys(faultSchemas[kind].shape).filter((f) => f !== 'kind'),
    })),
    topologies: [...TOPOLOGIES],
    redisFields: Object.keys(redisFields),
    metrics: METRICS.map((m) => ({ name: m.name, description: m.description, time: m.isTime })),
    redisson: {
      default: DEFAULT_REDISSON_VERSION,
      versions: [...REDISSON_VERSIONS],
      changes: [
        { since: BASELINE_VERSION, what: [...BASELINE_WHAT], source: BASELINE_SOURCE },
        ...REDISSON_CHANGES.map((c) => ({ since: c.since, what: [c.what], source: c.source })),
      ],
    },
  };
}

const optionLine = (o: VariantOption): string => `      ${o.option} (default ${o.default}): ${o.meaning}`;

export function renderCatalogue(c: Catalogue): string {
  const out: string[] = ['locks'];
  for (const l of c.locks) {
    out.push(`  ${l.name.padEnd(14)} ${l.summary}`);
    out.push(...l.options.map(optionLine));
  }
  out.push('', 'guards');
  for (const g of c.guards) {
    out.push(`  ${g.name.padEnd(14)} ${g.summary}`);
    out.push(...g.options.map(optionLine));
  }
  out.push('', 'options of every variant');
  out.push(...c.variantOptions.map((o) => `  ${o.option} (${o.takenBy ? `locks ${o.takenBy.join(', ')}; ` : ''}default ${o.default}): ${o.meaning}`));
  out.push('', 'faults (every fault: at: <time>, or rate: <n/m> drawn from the seed; with rate, a windowed one\'s duration may be a distribution)');
  for (const f of c.faults) out.push(`  ${f.kind.padEnd(14)} ${f.summary}`, `      fields: ${f.fields.join(', ')}`);
  out.push('', 'distributions (wherever a duration may vary): 5ms, uniform(a, b), exp(mean), normal(mean, sd), lognormal(median, p99),');
  out.push('  "mixture(95%: 200ms, 5%: uniform(5s, 8s))", empirical(file.csv[, unit]), "histogram(le: count, ..., +Inf: count)", histogram(file.prom)');
  out.push('', `redis topologies: ${c.topologies.join(', ')}`);
  out.push(`redis fields: ${c.redisFields.join(', ')}`);
  out.push('', 'metrics for expect: (p(...), mean(...), max(...), min(...) over sweeps)');
  for (const m of c.metrics) out.push(`  ${m.name.padEnd(24)} ${m.description}${m.time ? ' (a time)' : ''}`);
  const v = c.redisson;
  out.push('', `redisson versions (redisson-version: ${v.versions[0]} to ${v.versions[v.versions.length - 1]}, default ${v.default}); each keeps what the ones before it changed`);
  for (const change of v.changes) {
    out.push(`  ${change.since.padEnd(8)} ${change.what[0]}`, ...change.what.slice(1).map((w) => `           ${w}`), `           source: ${change.source}`);
  }
  return out.join('\n');
}
