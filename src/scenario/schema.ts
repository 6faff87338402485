/**
 * The scenario file schema (zod). Every object is strict: an unknown key is an error with a
 * did-you-mean. Value syntaxes (durations, distributions, rates) are parsed here so a bad
 * value is reported at its own line and column. Defaults are filled later, in resolve.ts.
 */
import { PARTITION_MODES } from '../spec/faults.js';
import { CLIENT_MODEL_NAMES, FENCE_CHECKS, REDLOCK_VERSIONS } from '../spec/variant.js';
import { quote } from '../spec/errors.js';
import { z } from 'zod';
import { FAULT_KINDS } from '../faults/index.js';
import { GUARD_NAMES, LOCK_NAMES } from '../variants/registry.js';
import { didYouMean } from './suggest.js';
import { keyPatternProblem } from '../own-code/key-attribution.js';
import { SERVER_VERSIONS, TOPOLOGIES } from '../spec/redis.js';
import { parseRedissonVersion } from './redisson-version.js';
import { parseSeedSpec } from './seeds.js';
import { parseDistribution, parseDuration, parseFaultClients, parseRate, parseSignedDuration, type Parsed } from './value-parsers.js';

/**
 * A value parsed by one of value-parsers.ts's parsers. `jsonSchema` says what an editor should
 * accept (the parser has the last word and the better message): it is what `lock-sim
 * schema` prints for the field.
 */
function parsedBy<T>(parse: (v: unknown) => Parsed<T>, jsonSchema: Record<string, unknown>) {
  return z
    .any()
    .transform((v, ctx): T => {
      const r = parse(v);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }
      return r.value;
    })
    .meta(jsonSchema);
}

const DURATION_PATTERN = '^\\s*\\d+(\\.\\d+)?\\s*(us|ms|s|m|h)\\s*$';
const durationJson = { anyOf: [{ type: 'string', pattern: DURATION_PATTERN }, { const: 0 }], description: 'a duration with a unit: 250us, 800ms, 5s, 2m, 1h' };
const duration = () => parsedBy(parseDuration, durationJson);
const distribution = () =>
  parsedBy(parseDistribution, {
    anyOf: [
      { type: 'string', pattern: DURATION_PATTERN },
      { type: 'string', pattern: '^\\s*(uniform|exp|normal|lognormal|mixture|empirical|histogram)\\s*\\(.*\\)\\s*$' },
      { const: 0 },
    ],
    description: 'a duration (5ms) or a distribution: uniform(a, b), exp(mean), normal(mean, sd), lognormal(median, p99), mixture(95%: a, 5%: b), empirical(file), histogram(le: count, ..., +Inf: count) or histogram(file)',
  });
const rate = () =>
  parsedBy(parseRate, { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*/\\s*(s|m|h)\\s*$', description: 'a rate: 200/s, 30/m, 2/h' });

function oneOf(names: readonly string[], what: string) {
  return z.any().meta({ enum: [...names], description: `a ${what}` }).transform((v, ctx): string => {
    if (typeof v === 'string' && names.includes(v)) return v;
    const found = typeof v === 'string' ? `${quote(v)}` : String(v);
    ctx.addIssue({
      code: 'custom',
      message: `unknown ${what} ${found}${typeof v === 'string' ? didYouMean(v, names) : ''}; expected one of: ${names.join(', ')}`,
    });
    return z.NEVER;
  });
}

const int = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * Names (scenario, variants, dependencies, steps) are printed in tables, stories and
 * commands: 100 characters is more than any real one, and keeps a table's width (and the
 * table library's time, which grows with the square of a cell's length) small.
 */
export const MAX_NAME_LENGTH = 100;
const name = () => z.string().min(1).max(MAX_NAME_LENGTH);

/** `workload.requests[].skus`: a cart locked by one multi-lock, written by hand. */
const MAX_CART_SKUS = 100;
/** `workload.requests`: a script is written by hand; more than this is a generated load (use arrival). */
const MAX_SCRIPTED_REQUESTS = 1_000;

/** A field that no longer exists: any value is an error that names what replaced it. */
const removed = (message: string) =>
  z
    .any()
    .transform((_v, ctx) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .meta({ not: {}, description: message })
    .optional();

/** One SKU, or with `count` that many consecutive SKUs with the same stock each. */
const stockRow = z.strictObject({
  sku: int(0, Number.MAX_SAFE_INTEGER).optional(),
  available: int(0, 1_000_000_000),
  count: int(1, 10_000).optional(),
});

const clientRef = int(1, 1000);
/**
 * The clients a client fault hits: one (3), every one ("all"), or a list ([1, 2, 5]). Each
 * becomes a fault of its own (scenario/resolve-faults.ts); with `rate`, each client draws
 * its own occurrences.
 */
const faultClients = () =>
  parsedBy(parseFaultClients, {
    anyOf: [{ type: 'integer', minimum: 1, maximum: 1000 }, { const: 'all' }, { type: 'array', items: { type: 'integer', minimum: 1, maximum: 1000 }, minItems: 1, maxItems: 1000 }],
    description: 'a client number (1), all, or a list of client numbers ([1, 3])',
  });
const host = z.string().regex(/^(client-\d+|redis-\d+|primary)$/, 'expected a host: client-N, redis-N or primary');

/**
 * When a fault happens: at a fixed time, or drawn from the seed at a rate (every kind: a crash
 * at a random instant is how `compare` samples the timing `explore` searches). With `rate`,
 * a windowed fault's duration may be a distribution (each occurrence draws its own).
 */
const timing = {
  at: duration().optional(),
  rate: rate().optional(),
};
const windowed = { ...timing, duration: distribution() };

export const faultSchemas = {
  'gc-pause': z.strictObject({ kind: z.literal('gc-pause'), client: faultClients(), ...windowed }),
  'slow-call': z.strictObject({
    kind: z.literal('slow-call'),
    dependency: name(),
    ...windowed,
    latency: distribution(),
  }),
  'primary-crash': z.strictObject({
    kind: z.literal('primary-crash'),
    ...timing,
    'replication-stalled-for': duration().optional(),
    'restart-after': duration().optional(),
  }),
  crash: z.strictObject({
    kind: z.literal('crash'),
    client: faultClients(),
    ...timing,
    point: z.enum(['between-setnx-and-expire']).optional(),
    'restart-after': duration().optional(),
  }),
  partition: z.strictObject({
    kind: z.literal('partition'),
    ...windowed,
    isolate: z.array(host).min(1).max(100),
    from: z.array(host).min(1).max(100).optional(),
    mode: z.enum(PARTITION_MODES).optional(),
  }),
  'clock-jump': z.strictObject({ kind: z.literal('clock-jump'), target: host, ...timing, by: parsedBy(parseSignedDuration, { type: 'string', pattern: '^\\s*[+-]?\\s*\\d+(\\.\\d+)?\\s*(us|ms|s|m|h)\\s*$', description: 'a clock step: +20s forward, -5s backward' }) }),
  'clock-drift': z.strictObject({
    kind: z.literal('clock-drift'),
    target: host,
    ...timing,
    duration: duration(),
    ppm: z.number().int().min(-500_000).max(500_000),
  }),
  'redis-pause': z.strictObject({ kind: z.literal('redis-pause'), node: host, ...windowed }),
  'redis-restart': z.strictObject({
    kind: z.literal('redis-restart'),
    node: host,
    ...timing,
    'down-for': duration().optional(),
    persistence: z.enum(['none', 'always']).optional(),
  }),
  'network-delay': z.strictObject({ kind: z.literal('network-delay'), target: host, ...windowed, delay: duration() }),
  'db-slow': z.strictObject({ kind: z.literal('db-slow'), ...windowed, factor: z.number().min(1).max(10_000) }),
} satisfies Record<(typeof FAULT_KINDS)[number], z.ZodType>;

const faultSchema = z.discriminatedUnion('kind', [
  faultSchemas['gc-pause'],
  faultSchemas['slow-call'],
  faultSchemas['primary-crash'],
  faultSchemas.crash,
  faultSchemas.partition,
  faultSchemas['clock-jump'],
  faultSchemas['clock-drift'],
  faultSchemas['redis-pause'],
  faultSchemas['redis-restart'],
  faultSchemas['network-delay'],
  faultSchemas['db-slow'],
]);

const waitValue = z
  .any()
  .meta({ anyOf: [...durationJson.anyOf, { const: 'forever' }], description: 'how long acquire may keep trying, or "forever"' })
  .transform((v, ctx): number => {
    if (v === 'forever') return Number.POSITIVE_INFINITY;
    const r = parseDuration(v);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: `${r.message} (or "forever", the retry-forever anti-pattern)` });
      return z.NEVER;
    }
    return r.value;
  });

/** `lock: { module: ./locks/x.mjs }`: a user lock module (src/own-code), resolved from the scenario file. */
const moduleLockSchema = z.strictObject({
  module: z.string().min(1).max(4096).meta({ description: 'path of an ES or CommonJS module, relative to the scenario file' }),
  export: z.string().min(1).max(MAX_NAME_LENGTH).optional().meta({ description: 'the factory export (default: the default export)' }),
  options: z.record(z.string(), z.unknown()).optional().meta({ description: 'passed to the factory with the variant options' }),
  keys: z
    .union([z.string().min(1).max(MAX_NAME_LENGTH), z.array(z.string().min(1).max(MAX_NAME_LENGTH)).min(1).max(8)])
    .superRefine((v, ctx) => {
      for (const p of typeof v === 'string' ? [v] : v) {
        const problem = keyPatternProblem(p);
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
      }
    })
    .optional()
    .meta({ description: "the Redis keys the module's lock lives under, {key} standing for the request's key (e.g. 'mutex:{key}'); lock-key metrics read those (default: the key itself)" }),
  client: z.enum(['ioredis', 'node-redis', 'node-redis@4', 'node-redis@5']).optional().meta({ description: "the client family the factory receives: ioredis-compatible (default), or node-redis: the `redis` package's v5 API (node-redis, node-redis@5) or v4 API (node-redis@4)" }),
  'time-zone': z
    .string()
    .min(1)
    .max(MAX_NAME_LENGTH)
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'an IANA time zone (e.g. "UTC", "Asia/Shanghai")')
    .optional()
    .meta({ description: "the time zone Date's local time and Intl read in the module (default: UTC)" }),
  locale: z
    .string()
    .min(1)
    .max(MAX_NAME_LENGTH)
    .refine((tag) => {
      try {
        return Intl.getCanonicalLocales(tag).length === 1;
      } catch {
        return false;
      }
    }, 'a BCP 47 locale (e.g. "en-US", "de-DE")')
    .optional()
    .meta({ description: 'the locale Intl and the toLocale* methods default to in the module (default: en-US)' }),
});

/** A built-in lock by name, or a user module. */
function lockField() {
  const { $schema: _, ...moduleJson } = z.toJSONSchema(moduleLockSchema);
  const named = oneOf(LOCK_NAMES, 'lock');
  return z
    .any()
    .meta({ anyOf: [{ enum: [...LOCK_NAMES], description: 'a built-in lock' }, moduleJson], description: 'a built-in lock, or { module: path } for your own lock code' })
    .transform((v, ctx): string | z.infer<typeof moduleLockSchema> => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const r = moduleLockSchema.safeParse(v);
        if (r.success) return r.data;
        for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path as PropertyKey[] });
        return z.NEVER;
      }
      const r = named.safeParse(v);
      if (r.success) return r.data;
      const message = r.error.issues[0]?.message ?? 'invalid lock';
      ctx.addIssue({ code: 'custom', message: `${message}, or { module: ./path/to/lock.mjs }` });
      return z.NEVER;
    });
}

const variantSchema = z.strictObject({
  lock: lockField(),
  guard: oneOf(GUARD_NAMES, 'guard').optional(),
  lease: duration().optional(),
  wait: waitValue.optional(),
  'retry-interval': duration().optional(),
  'order-key': z.enum(['none', 'unique']).optional(),
  'unlock-always': z.boolean().optional(),
  'sync-replicas': z.boolean().optional(),
  'watchdog-on-error': z.enum(['stop', 'continue']).optional(),
  'redlock-version': oneOf(REDLOCK_VERSIONS, 'redlock version').optional(),
  'redisson-version': parsedBy(parseRedissonVersion, { type: 'string', description: 'a Redisson release from 3.11.0 ("3.25.0"), or a minor line ("3.25": its last release)' }).optional(),
  'command-retries': int(0, 100).optional(),
  'command-retry-interval': duration().optional(),
  'lock-watchdog-timeout': duration().optional(),
  'slaves-sync-timeout': duration().optional(),
  'retry-count': int(0, 1000).optional(),
  'retry-delay': duration().optional(),
  'retry-jitter': duration().optional(),
  'drift-factor': z.number().min(0).max(0.5).optional(),
  'instance-timeout': duration().optional(),
  'cas-retries': int(0, 100).optional(),
  'cas-backoff': duration().optional(),
  'cas-jitter': duration().optional(),
  'fence-check': z.enum(FENCE_CHECKS).optional(),
  client: z.enum(CLIENT_MODEL_NAMES).optional(),
  'client-pool': int(1, 4096).optional(),
  permits: int(1, 10_000).optional(),
  'thread-wait-time': duration().optional(),
  'lock-order': z.enum(['as-given', 'sorted']).optional(),
});

/** The `redis:` section, without the fields that no longer exist (`lock-sim list` shows these). */
export const redisFields = {
  topology: z.enum(TOPOLOGIES).optional(),
  server: z.enum(SERVER_VERSIONS).optional(),
  replicas: int(0, 16).optional(),
  masters: int(1, 15).optional(),
  'replication-backlog': distribution().optional(),
  'replication-lag': distribution().optional(),
  'repl-timeout': duration().optional(),
  'down-after': duration().optional(),
  'node-timeout': duration().optional(),
  'min-replicas-to-write': int(0, 16).optional(),
  'min-replicas-max-lag': duration().optional(),
  rediscover: distribution().optional(),
  sentinels: int(1, 15).optional(),
  quorum: int(1, 15).optional(),
  'failover-timeout': duration().optional(),
};
const removedRedisFields = {
  promotion: removed("no longer an option: the promotion follows Sentinel's own phases (down-after, sentinels, quorum) or the Cluster's election; to delay clients after the switch, use rediscover"),
};

/** Explore's limits: more faults multiply the placements beyond any budget; a budget is schedules (runs). */
export const MAX_EXPLORE_FAULTS = 4;
export const MAX_EXPLORE_BUDGET = 1_000_000;
const violationConditions = z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(20)]);
/** How `lock-sim explore` searches this scenario (flags override it). */
const exploreFields = {
  faults: int(0, MAX_EXPLORE_FAULTS).optional(),
  budget: int(1, MAX_EXPLORE_BUDGET).optional(),
  violation: violationConditions.optional(),
};
const metricValue = z.union([z.number(), z.string(), z.array(z.union([z.number(), z.string()])).min(1).max(4)]);
/** `expect: { v: { explore: { violations: 0 } } }`: what explore must find within its budget. */
const exploreExpectation = z.strictObject({ ...exploreFields, violations: z.union([z.number(), z.string()]) });

export const scenarioSchema = z.strictObject({
  name: name(),
  description: z.string().max(1_000).optional(),
  seed: int(0, 2 ** 32 - 1).optional(),
  /** The seeds `check` sweeps for this scenario's statistics (p(...), mean(...), ...). */
  seeds: parsedBy(parseSeedSpec, { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }], description: 'seeds for check: "1..200", 200, or "3,7,42"' }).optional(),
  duration: duration(),
  drain: duration().optional(),
  stock: z.union([stockRow, z.array(stockRow).min(1).max(10_000)]),
  workload: z.strictObject({
    clients: int(1, 1000).optional(),
    workers: int(1, 10_000).optional(),
    pool: int(1, 10_000).optional(),
    arrival: rate().optional(),
    users: int(1, 100_000).optional(),
    think: distribution().optional(),
    qty: int(1, 1_000_000).optional(),
    steps: z.array(name()).min(1).max(50).optional(),
    'queue-limit': int(0, 10_000_000).optional(),
    resubmit: z.number().min(0).max(1).optional(),
    'resubmit-after': distribution().optional(),
    requests: z.array(z.strictObject({ at: duration(), sku: int(0, Number.MAX_SAFE_INTEGER).optional(), skus: z.array(int(0, Number.MAX_SAFE_INTEGER)).min(1).max(MAX_CART_SKUS).optional(), client: clientRef.optional(), mode: z.enum(['read', 'write']).optional() })).min(1).max(MAX_SCRIPTED_REQUESTS).optional(),
    'read-share': z.number().min(0).max(1).optional(),
  }),
  dependencies: z.record(name(), distribution()).optional(),
  network: z
    .strictObject({ 'redis-latency': distribution().optional(), 'command-timeout': duration().optional() })
    .optional(),
  redis: z
    .strictObject({
      ...redisFields,
      ...removedRedisFields,
    })
    .optional(),
  database: z.strictObject({ 'statement-time': distribution().optional() }).optional(),
  faults: z.array(faultSchema).max(10_000).optional(),
  variants: z.record(name(), variantSchema),
  explore: z.strictObject(exploreFields).optional(),
  // One comparison, or a list of them for a range: `stuck-time: ["> 0", "<= 5s"]`; `explore:` a bound.
  expect: z.record(z.string(), z.object({ explore: exploreExpectation.optional() }).catchall(metricValue)).optional(),
});

export type RawScenario = z.output<typeof scenarioSchema>;
