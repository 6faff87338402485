/**
 * The generator of features-fuzz.test.ts: cases for what was added since the scenario fuzzer
 * (mutate.ts) was written, as fast-check arbitraries so that a failing case shrinks:
 *   - sweep: one to three --param (paths of the file, arguments of its distributions, typos),
 *     value lists and ranges (reversed, empty, too many values, of mixed kinds), seeds,
 *     shards, --output / --report, and --find conditions from the condition grammar;
 *   - distributions: mixtures nested from 0 to 3,000 deep, with their parentheses and commas
 *     sometimes broken, as a dependency's latency;
 *   - sample files for empirical(...) and histogram(...): their lines (samples, bare numbers,
 *     bucket lines, a line of megabytes), line ends, encodings (UTF-16/32, Latin-1, NUL) and
 *     file types (a FIFO, /dev/zero, a folder, a link to /dev/zero, a 300 MB sparse file);
 *   - merge: real shards of one compare and one sweep, edited (a field given a hostile value,
 *     an identity field changed, the text cut short, the format of an older version) or
 *     replaced by a hostile file;
 *   - outputs: --output / --report naming an input (the scenario, a sample file, a link or a
 *     hard link to one, a tally being merged) or the other output.
 */
import fc from 'fast-check';

/** The scenario sweeps and distributions are set in: small, so a case costs little. */
export const BASE = `name: fz
duration: 2s
stock: { sku: 1, available: 20 }
workload: { clients: 2, workers: 2, arrival: 20/s, steps: [lock, read, risk, deduct, order, unlock] }
dependencies: { risk: "uniform(1ms, 30ms)" }
faults:
  - { kind: gc-pause, client: 1, at: 500ms, duration: 300ms }
variants:
  a: { lock: lua-unlock, lease: 100ms }
  b: { lock: lua-unlock, lease: 100ms, guard: conditional }
`;

/** Every path of BASE a --param can name, the arguments of its distribution, and near misses. */
export const PARAM_PATHS = [
  'duration', 'stock.available', 'stock.sku', 'workload.arrival', 'workload.clients', 'workload.workers', 'workload.steps.2', 'workload.steps.9',
  'dependencies.risk', 'dependencies.risk.min', 'dependencies.risk.max', 'dependencies.risk.p99', 'dependencies.lock',
  'faults.0.duration', 'faults.0.at', 'faults.0.client', 'faults.1.at', 'faults[0].duration',
  'variants.a.lease', 'variants.b.lease', 'variants.a.wait', 'variants.a.guard', 'variants.b.lock', 'variants.lese.lease', 'variants.a.lease.x',
  'name', 'seed', 'redis.replicas', '', '.', '..', 'variants..a', 'a'.repeat(300), 'variants.\u0000', '日本.語',
];

/** Paths of BASE whose values are durations or distributions: most sweeps of them run. */
const SWEEPABLE = ['variants.a.lease', 'variants.b.lease', 'dependencies.risk', 'dependencies.risk.max', 'faults.0.duration', 'faults.0.at', 'variants.a.wait'];

const durations = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom('us', 'ms', 's')).map(([n, u]) => `${n}${u}`) },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom('m', 'h')).map(([n, u]) => `${n}${u}`) },
  { weight: 1, arbitrary: fc.constantFrom('0us', '1.5s', '-1s', '25h', '1e3ms', '5', 'ms', '', ' 2s ', 'forever') },
);
const rates = fc.oneof(fc.integer({ min: 0, max: 2_000_000 }).map((n) => `${n}/s`), fc.constantFrom('30/m', '1/h', '0.5/s', 'x/s', '/s', '1//s'));
const numbers = fc.oneof(fc.integer({ min: -5, max: 100_000 }).map(String), fc.constantFrom('0.5', '1e9', 'NaN', 'Infinity', '9007199254740993', '-0'));
const junk = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom('x'.repeat(5_000), '((((', '))', ',,,', '..', '/', '\u0000', 'true', 'null', '[]', '{}'));
const quantity = fc.oneof(durations, rates, numbers);

/** A distribution as the file writes it, nested `depth` deep at most (the arbitrary's own depth). */
const distribution: fc.Arbitrary<string> = fc.letrec<{ d: string }>((tie) => ({
  d: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    durations,
    fc.tuple(durations, durations).map(([a, b]) => `uniform(${a}, ${b})`),
    durations.map((a) => `exp(${a})`),
    fc.tuple(durations, durations).map(([a, b]) => `lognormal(${a}, ${b})`),
    fc.tuple(durations, durations).map(([a, b]) => `normal(${a}, ${b})`),
    fc.array(fc.tuple(fc.oneof(durations, fc.constant('+Inf')), fc.integer({ min: -1, max: 200 })), { minLength: 0, maxLength: 5 }).map((bs) => `histogram(${bs.map(([le, n]) => `${le}: ${n}`).join(', ')})`),
    // Percentages that add up to 100 (or plain weights) mostly, so that many mixtures load.
    fc.array(tie('d'), { minLength: 1, maxLength: 4 }).chain((ds) =>
      fc
        .oneof(
          { weight: 4, arbitrary: fc.constant(ds.map((_, i) => (i === 0 ? `${100 - 10 * (ds.length - 1)}%` : '10%'))) },
          { weight: 2, arbitrary: fc.constant(ds.map((_, i) => String(i + 1))) },
          { weight: 1, arbitrary: fc.array(fc.constantFrom('50%', '95%', '5%', '0%', '100%', '33.3%', '1', '0', '-1', 'x'), { minLength: ds.length, maxLength: ds.length }) },
        )
        .map((ws) => `mixture(${ds.map((d, i) => `${ws[i]}: ${d}`).join(', ')})`),
    ),
  ),
})).d;

/** Mixtures of mixtures `depth` deep: the case that overflowed the stack at 2,000. */
const deepMixture = fc.integer({ min: 1, max: 3_000 }).map((depth) => {
  let d = '1ms';
  for (let i = 0; i < depth; i++) d = `mixture(50%: ${d}, 50%: 2ms)`;
  return d;
});

/** A distribution with one character of its syntax dropped, doubled or replaced. */
const broken = fc.tuple(fc.oneof(distribution, deepMixture), fc.nat(), fc.constantFrom('drop', '(', ')', ',', ':', '%')).map(([d, at, how]) => {
  const i = d.length === 0 ? 0 : at % d.length;
  return how === 'drop' ? d.slice(0, i) + d.slice(i + 1) : d.slice(0, i) + how + d.slice(i);
});

export const distributions = fc.oneof(distribution, deepMixture, broken);

/** Values a sweep of a duration can run: a rising range, or a short list. */
const sensibleValues = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2, max: 6 })).map(([a, d, n]) => `${a}ms..${a + d}ms/${n}`),
  fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 4 }).map((xs) => [...new Set(xs)].map((x) => `${x}ms`).join(',')),
);

const valueSpec = fc.oneof(
  { weight: 4, arbitrary: sensibleValues },
  fc.array(distribution, { minLength: 1, maxLength: 3 }).map((ds) => ds.join(',')),
  fc.tuple(quantity, quantity, fc.constantFrom(0, 1, 2, 3, 4, 6, 201, 100_000)).map(([a, b, n]) => `${a}..${b}/${n}`),
  fc.tuple(quantity, quantity, fc.constantFrom(1, 2, 3, 5, 300)).map(([a, b, n]) => `log:${a}..${b}/${n}`),
  fc.array(fc.oneof(quantity, distribution, junk), { minLength: 1, maxLength: 5 }).map((xs) => xs.join(',')),
  fc.constantFrom('', ',', '2s,2s', '1s..', '..2s', 'log:', '2s..30s', '2s..30s/x'),
);

const condition = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('p', 'mean', 'max', 'q'),
      fc.constantFrom('oversold', 'double-holders', 'stuck', 'orphan', 'orders/s', 'p99', 'busy-share', 'nope', ''),
      fc.constantFrom('', ' > 0', ' >= 3', ' > 9', ' > 10', ' > -1', ' = 1'),
      fc.constantFrom('<', '<=', '>', '>=', '==', ''),
      fc.constantFrom('0', '0.01', '1%', '150%', '-1', '5s', '2m', 'x', '1e400', ''),
    )
    .map(([fn, metric, inner, op, threshold]) => `${fn}(${metric}${inner}) ${op} ${threshold}`),
  junk,
);

/** Seeds small enough to run; the hostile ones are refused (a valid million seeds would just take long). */
const seeds = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('1', '1..2', '2,1', '3') }, { weight: 1, arbitrary: fc.constantFrom('0', '2..1', '1..2000000', 'x', '1,1', '-1', '4294967296', '') });

export interface SweepCase {
  kind: 'sweep';
  params: Array<{ path: string; values: string }>;
  seeds: string;
  find: string | null;
  report: boolean;
  output: boolean;
  shard: string | null;
  jobs: 1 | 2;
}

/** A sweep that should run: 1 or 2 duration fields, rising values, valid seeds; --find on one range; a shard with its output. */
const runnableSweep: fc.Arbitrary<SweepCase> = fc
  .record({
    params: fc.uniqueArray(fc.constantFrom(...SWEEPABLE), { minLength: 1, maxLength: 2 }).chain((paths) =>
      fc.tuple(...paths.map((path) => (path === 'dependencies.risk' ? fc.oneof(sensibleValues, fc.array(distribution, { minLength: 1, maxLength: 3 }).map((ds) => ds.join(','))) : sensibleValues).map((values) => ({ path, values })))),
    ),
    seeds: fc.constantFrom('1', '1..2', '2,1'),
    mode: fc.constantFrom('plain', 'find', 'shard', 'report'),
    find: fc.constantFrom('p(oversold > 0) <= 0.01', 'p(double-holders > 0) < 0.5', 'mean(orders/s) >= 3', 'mean(stuck) <= 1s', 'p(oversold >= 2) < 10%'),
    jobs: fc.constantFrom(1 as const, 2 as const),
  })
  .map(({ params, seeds, mode, find, jobs }) => ({
    kind: 'sweep' as const,
    params: mode === 'find' ? [{ path: params[0].path, values: rising(params[0].values) }] : params,
    seeds,
    find: mode === 'find' ? find : null,
    report: mode === 'report' || mode === 'find',
    output: mode === 'shard',
    shard: mode === 'shard' ? '1/2' : null,
    jobs,
  }));

/** A range, or the list's durations sorted and unique: what --find bisects. */
function rising(values: string): string {
  if (values.includes('..')) return values;
  const ms = [...new Set(values.split(',').map((v) => Number.parseInt(v, 10)).filter((n) => Number.isFinite(n)))].sort((a, b) => a - b);
  return ms.length > 0 ? ms.map((n) => `${n}ms`).join(',') : '1ms,2ms';
}

/** Any combination of parameters, seeds, conditions and flags: most are refused, located. */
const anySweep: fc.Arbitrary<SweepCase> = fc.record({
  kind: fc.constant('sweep' as const),
  params: fc.array(fc.record({ path: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SWEEPABLE) }, { weight: 3, arbitrary: fc.constantFrom(...PARAM_PATHS) }, { weight: 1, arbitrary: junk }), values: valueSpec }), { minLength: 0, maxLength: 3 }),
  seeds,
  find: fc.option(fc.oneof({ weight: 2, arbitrary: fc.constantFrom('p(oversold > 0) <= 0.01', 'p(double-holders > 0) < 0.5', 'mean(orders/s) >= 3', 'mean(stuck) <= 1s') }, { weight: 1, arbitrary: condition }), { freq: 2 }),
  report: fc.boolean(),
  output: fc.boolean(),
  shard: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('1/2', '2/2', '3/2', '0/1', 'x') }),
  jobs: fc.constantFrom(1 as const, 2 as const),
});

export const sweepCase: fc.Arbitrary<SweepCase> = fc.oneof({ weight: 2, arbitrary: runnableSweep }, { weight: 1, arbitrary: anySweep });

export interface MixtureCase {
  kind: 'mixture';
  distribution: string;
  command: 'run' | 'compare';
}

export const mixtureCase: fc.Arbitrary<MixtureCase> = fc.record({ kind: fc.constant('mixture' as const), distribution: distributions, command: fc.constantFrom('run' as const, 'compare' as const) });

export type FileType = 'regular' | 'fifo' | 'dev-zero' | 'folder' | 'link-dev-zero' | 'missing' | 'sparse-300MB';
export type Encoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16le-bom' | 'utf16be-bom' | 'utf32le' | 'latin1' | 'nul';

export interface SamplesCase {
  kind: 'samples';
  shape: 'empirical' | 'empirical-ms' | 'histogram' | 'in-mixture';
  type: FileType;
  lines: string[];
  ending: '\n' | '\r\n' | '\r';
  encoding: Encoding;
}

const sampleLine = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom('us', 'ms', 's')).map(([n, u]) => `${n}${u}`) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 5_000 }).map(String) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('0.005', '0.1', '1', '2.5', '+Inf', 'x', '-1'), fc.integer({ min: -1, max: 1000 }), fc.constantFrom('risk_seconds', 'other_seconds')).map(([le, n, name]) => `${name}_bucket{le="${le}"} ${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '# comment', 'risk_seconds_sum 3', '   ', '\t5ms') },
  { weight: 1, arbitrary: junk },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 3_000_000 }).map((n) => 'x'.repeat(n)) },
);

/** A file that should load: regular, UTF-8, samples with units (or bucket lines of one histogram). */
const loadableSamples: fc.Arbitrary<SamplesCase> = fc.record({
  kind: fc.constant('samples' as const),
  shape: fc.constantFrom('empirical' as const, 'in-mixture' as const, 'histogram' as const),
  type: fc.constant('regular' as const),
  lines: fc.array(fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom('us', 'ms', 's')).map(([n, u]) => `${n}${u}`), { minLength: 1, maxLength: 12 }),
  ending: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const),
  encoding: fc.constantFrom('utf8' as const, 'utf8-bom' as const),
}).map((c) => (c.shape === 'histogram' ? { ...c, lines: bucketLines(c.lines.length) } : c));

/** Cumulative bucket lines of one histogram, n finite bounds and +Inf. */
function bucketLines(n: number): string[] {
  const lines = Array.from({ length: n }, (_, i) => `risk_seconds_bucket{le="${(0.001 * 2 ** i).toFixed(3)}"} ${10 * (i + 1)}`);
  return ['# TYPE risk_seconds histogram', ...lines, `risk_seconds_bucket{le="+Inf"} ${10 * (n + 1)}`, `risk_seconds_sum 1`, `risk_seconds_count ${10 * (n + 1)}`];
}

const anySamples: fc.Arbitrary<SamplesCase> = fc.record({
  kind: fc.constant('samples' as const),
  shape: fc.constantFrom('empirical' as const, 'empirical-ms' as const, 'histogram' as const, 'in-mixture' as const),
  type: fc.oneof({ weight: 6, arbitrary: fc.constant('regular' as const) }, { weight: 4, arbitrary: fc.constantFrom('fifo' as const, 'dev-zero' as const, 'folder' as const, 'link-dev-zero' as const, 'missing' as const, 'sparse-300MB' as const) }),
  lines: fc.array(sampleLine, { minLength: 0, maxLength: 12 }),
  ending: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const),
  encoding: fc.oneof({ weight: 6, arbitrary: fc.constant('utf8' as const) }, { weight: 4, arbitrary: fc.constantFrom('utf8-bom' as const, 'utf16le' as const, 'utf16le-bom' as const, 'utf16be-bom' as const, 'utf32le' as const, 'latin1' as const, 'nul' as const) }),
});

export const samplesCase: fc.Arbitrary<SamplesCase> = fc.oneof({ weight: 1, arbitrary: loadableSamples }, { weight: 1, arbitrary: anySamples });

/** The bytes of a sample file in an encoding. */
export function encode(text: string, encoding: Encoding): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'utf8-bom':
      return Buffer.from(`\ufeff${text}`, 'utf8');
    case 'utf16le':
      return Buffer.from(text, 'utf16le');
    case 'utf16le-bom':
      return Buffer.from(`\ufeff${text}`, 'utf16le');
    case 'utf16be-bom': {
      const b = Buffer.from(`\ufeff${text}`, 'utf16le');
      return b.length % 2 === 0 ? b.swap16() : b;
    }
    case 'utf32le': {
      const points = [...text].map((c) => c.codePointAt(0) as number);
      const b = Buffer.alloc(points.length * 4);
      points.forEach((p, i) => b.writeUInt32LE(p, i * 4));
      return b;
    }
    case 'latin1':
      return Buffer.from(`${text}caf\u00e9\n`, 'latin1');
    case 'nul':
      return Buffer.from(`${text}\u0000`, 'utf8');
  }
}

export type TallyBase = 'c1' | 'c2' | 'codd' | 'w1' | 'w2';
export type IdentityField = 'version' | 'seeds.sha256' | 'seeds.count' | 'scenario.fingerprint' | 'scenario.code' | 'shard.n' | 'variants';

export type TallyFile =
  | { as: 'base'; base: TallyBase }
  | { as: 'edited'; base: TallyBase; edits: Array<[number, number]> }
  | { as: 'identity'; base: TallyBase; field: IdentityField }
  | { as: 'cut'; base: TallyBase; at: number }
  | { as: 'old-format'; base: TallyBase }
  | { as: 'hostile'; type: Exclude<FileType, 'regular'> | 'utf16' | 'empty' };

const tallyBase = fc.constantFrom<TallyBase>('c1', 'c2', 'codd', 'w1', 'w2');

export const tallyFile: fc.Arbitrary<TallyFile> = fc.oneof(
  { weight: 5, arbitrary: tallyBase.map((base) => ({ as: 'base' as const, base })) },
  { weight: 2, arbitrary: fc.record({ as: fc.constant('edited' as const), base: tallyBase, edits: fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ as: fc.constant('identity' as const), base: tallyBase, field: fc.constantFrom<IdentityField>('version', 'seeds.sha256', 'seeds.count', 'scenario.fingerprint', 'scenario.code', 'shard.n', 'variants') }) },
  { weight: 1, arbitrary: fc.record({ as: fc.constant('cut' as const), base: tallyBase, at: fc.nat() }) },
  { weight: 1, arbitrary: tallyBase.map((base) => ({ as: 'old-format' as const, base })) },
  { weight: 1, arbitrary: fc.constantFrom('fifo' as const, 'dev-zero' as const, 'folder' as const, 'link-dev-zero' as const, 'missing' as const, 'sparse-300MB' as const, 'utf16' as const, 'empty' as const).map((type) => ({ as: 'hostile' as const, type })) },
);

export interface MergeCase {
  kind: 'merge';
  files: TallyFile[];
  json: boolean;
}

/** The shards of one run, in any order, with one of them sometimes replaced by another file. */
const aSet: fc.Arbitrary<TallyFile[]> = fc
  .tuple(fc.constantFrom<[TallyBase, TallyBase]>(['c1', 'c2'], ['c2', 'c1'], ['w1', 'w2'], ['w2', 'w1']), fc.option(fc.tuple(fc.nat(1), tallyFile), { freq: 2 }))
  .map(([pair, swap]) => {
    const files: TallyFile[] = pair.map((base) => ({ as: 'base' as const, base }));
    if (swap !== null) files[swap[0]] = swap[1];
    return files;
  });

export const mergeCase: fc.Arbitrary<MergeCase> = fc.record({
  kind: fc.constant('merge' as const),
  files: fc.oneof({ weight: 2, arbitrary: aSet }, { weight: 1, arbitrary: fc.array(tallyFile, { minLength: 1, maxLength: 4 }) }),
  json: fc.boolean(),
});

export type CollisionTarget = 'scenario' | 'sample' | 'link-to-scenario' | 'hard-link-to-sample' | 'dot-dot-scenario' | 'other-output' | 'tally-input' | 'fresh';

export interface CollisionCase {
  kind: 'collision';
  command: 'run' | 'compare' | 'sweep' | 'shrink' | 'check' | 'merge';
  target: CollisionTarget;
}

export const collisionCase: fc.Arbitrary<CollisionCase> = fc.record({
  kind: fc.constant('collision' as const),
  command: fc.constantFrom('run' as const, 'compare' as const, 'sweep' as const, 'shrink' as const, 'check' as const, 'merge' as const),
  target: fc.constantFrom<CollisionTarget>('scenario', 'sample', 'link-to-scenario', 'hard-link-to-sample', 'dot-dot-scenario', 'other-output', 'tally-input', 'fresh'),
});

export type FeatureCase = SweepCase | MixtureCase | SamplesCase | MergeCase | CollisionCase;

export const featureCase: fc.Arbitrary<FeatureCase> = fc.oneof(sweepCase, mixtureCase, samplesCase, mergeCase, collisionCase);

/** Values an edited tally receives at a field (the JSON counterpart of mutate.ts's HOSTILE_VALUES). */
export const HOSTILE_JSON: unknown[] = [0, -1, 1, 1.5, 2 ** 53, 1e308, '', 'x', '5', null, true, [], {}, [1, 2], 'a'.repeat(100_000), { k: 1 }];
