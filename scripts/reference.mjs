/**
 * The reference pages' generated parts, built from the code itself (the built dist/): a page
 * holds a region between `<!-- generated: NAME -->` and `<!-- end generated -->`, which
 * `npm run generate` rewrites and test/docs/reference.test.ts checks is current.
 *
 * - scenario-fields (docs/reference/scenario-format.md): every field of a scenario file, from
 *   the JSON Schema (its meaning from field-docs.ts, its syntax from the schema) and its
 *   default with the default's source, read off `explain` of probe scenarios;
 * - cli-options (docs/reference/cli.md): every command with its arguments and options, from
 *   the commander program's own definitions;
 * - metrics (docs/reference/metrics.md): every metric an expectation may name;
 * - exit-codes (docs/reference/exit-codes.md): every exit code and what it means.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = (p) => import(join(ROOT, 'dist', p));

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A scenario of each topology, with a variant of every lock and guard and a fault of every kind. */
function probes() {
  const base = (topology, variants, extra = '') => `name: probe
duration: 60s
stock: { available: 10 }
workload: { arrival: 1/s, steps: [lock, read, risk, deduct, order, unlock] }
dependencies: { risk: 10ms }
redis: { topology: ${topology} }
${extra}variants:
${variants.map((v) => `  ${v}`).join('\n')}
`;
  const locks = ['n: { lock: none }', 's: { lock: setnx-expire }', 'p: { lock: set-nx-px }', 't: { lock: token-get-del }', 'l: { lock: lua-unlock, guard: version-cas }', 'r: { lock: redisson }', 'f: { lock: fenced, guard: fenced-write }'];
  const faults = `faults:
  - { kind: gc-pause, client: 1, at: 1s, duration: 1s }
  - { kind: slow-call, dependency: risk, at: 1s, duration: 1s, latency: 1s }
  - { kind: crash, client: 1, at: 1s }
  - { kind: partition, at: 1s, duration: 1s, isolate: [client-1] }
  - { kind: clock-jump, target: client-1, at: 1s, by: 1s }
  - { kind: clock-drift, target: client-1, at: 1s, duration: 1s, ppm: 10 }
  - { kind: redis-pause, node: redis-0, at: 1s, duration: 1s }
  - { kind: redis-restart, node: redis-0, at: 1s }
  - { kind: network-delay, target: client-1, at: 1s, duration: 1s, delay: 1ms }
  - { kind: db-slow, at: 1s, duration: 1s, factor: 2 }
`;
  return [
    { label: 'standalone', text: base('standalone', locks, faults) },
    { label: 'sentinel', text: base('sentinel', locks, '  - { kind: primary-crash, at: 1s }\n'.replace(/^/, 'faults:\n')) },
    { label: 'cluster', text: base('cluster', locks) },
    { label: 'independent', text: base('independent', ['v4: { lock: redlock }', 'spec: { lock: redlock, redlock-version: spec }', 'v5: { lock: redlock, redlock-version: v5 }']) },
  ];
}

/** The file path of an explained field as field-docs.ts keys it: variants.*.x, faults.<kind>.x. */
function docPath(field, scenarioRaw) {
  const variant = /^variants\.[^.]+\.(.*)$/.exec(field);
  if (variant) return `variants.*.${variant[1]}`;
  const fault = /^faults\.(\d+)\.(.*)$/.exec(field);
  if (fault) return `faults.${scenarioRaw.faults[Number(fault[1])].kind}.${fault[2]}`;
  return field.replace(/^stock\.\d+\./, 'stock.');
}

/** Each documented field's default (value as a file writes it, and source), by path. */
async function defaults() {
  const { parseScenario } = await dist('scenario/load.js');
  const { explainScenario } = await dist('scenario/explain.js');
  const { parse } = await import('yaml');
  const found = new Map();
  for (const probe of probes()) {
    const raw = parse(probe.text);
    for (const f of explainScenario(parseScenario(probe.text, 'probe.yaml'), raw)) {
      if (f.origin !== 'default') continue;
      const path = docPath(f.field, raw);
      const value = typeof f.value === 'string' ? f.value : JSON.stringify(f.value);
      const seen = found.get(path) ?? [];
      if (!seen.some((s) => s.value === value)) seen.push({ value, source: f.source, where: probe.label });
      found.set(path, seen);
    }
  }
  return found;
}

/** The rows of the fields table: path, meaning, syntax, default. */
async function fieldRows() {
  const { scenarioJsonSchema } = await dist('scenario/json-schema.js');
  const { fieldDoc } = await dist('scenario/field-docs.js');
  const known = await defaults();
  const rows = [];
  const seen = new Set();
  const syntaxOf = (node) => {
    if (node.enum) return node.enum.map((e) => `\`${e}\``).join(', ');
    if (node.const !== undefined) return `\`${node.const}\``;
    const d = typeof node.description === 'string' ? / Value: (.*)\.$/.exec(node.description)?.[1] : undefined;
    if (d) return d;
    if (node.type === 'integer') return `integer${node.minimum !== undefined ? ` ${node.minimum}..${node.maximum}` : ''}`;
    if (node.type === 'number') return `number${node.minimum !== undefined ? ` ${node.minimum}..${node.maximum}` : ''}`;
    if (node.type === 'boolean') return '`true` or `false`';
    if (node.type === 'array') return 'a list';
    if (node.type === 'object' || node.properties) return 'a mapping';
    if (node.type === 'string') return 'text';
    if (node.anyOf) return node.anyOf.map(syntaxOf).filter(Boolean).join(', or ');
    return '';
  };
  const walk = (node, path) => {
    if (!node || typeof node !== 'object') return;
    if (node.properties) {
      const kind = node.properties.kind?.const;
      for (const [key, child] of Object.entries(node.properties)) {
        const p = path === 'faults' && typeof kind === 'string' ? `faults.${kind}.${key}` : path === '' ? key : `${path}.${key}`;
        // A field that no longer exists (it only names what replaced it) is no field to document.
        const removed = child.not !== undefined && Object.keys(child.not).length === 0;
        if (!seen.has(p) && !(path === 'faults' && key === 'kind') && !removed) {
          seen.add(p);
          const d = known.get(p) ?? known.get(p.replace(/^faults\.[^.]+\./, 'faults.*.'));
          const dflt = d === undefined ? '' : d.map((x) => `\`${x.value}\`${d.length > 1 ? ` (${x.where})` : ''}: ${x.source}`).join('; ');
          rows.push([p, fieldDoc(p) ?? '', syntaxOf(child), dflt]);
        }
        walk(child, p);
      }
    }
    for (const k of ['anyOf', 'oneOf', 'allOf']) (node[k] ?? []).forEach((b) => walk(b, path));
    if (node.items && typeof node.items === 'object') walk(node.items, path.endsWith('requests') ? `${path}[]` : path);
    if (path === 'variants' && node.additionalProperties && typeof node.additionalProperties === 'object') walk(node.additionalProperties, 'variants.*');
  };
  walk(scenarioJsonSchema(), '');
  return rows;
}

const SCALARS = new Set(['name', 'description', 'seed', 'seeds', 'duration', 'drain', 'expect']);

/** The table a field belongs to: the scenario's own fields, a section, or one fault kind. */
function groupOf(path) {
  const [top, second] = path.split('.');
  if (SCALARS.has(top)) return 'The scenario';
  if (top === 'faults' && second !== undefined) return `\`faults\`: \`${second}\``;
  return `\`${top}\``;
}

async function scenarioFields() {
  const rows = await fieldRows();
  const groups = new Map();
  for (const row of rows) {
    const g = groupOf(row[0]);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(row);
  }
  const lines = [];
  for (const [heading, members] of groups) {
    if (lines.length > 0) lines.push('');
    lines.push(`### ${heading}`, '', '| field | meaning | value | default (source) |', '|---|---|---|---|');
    for (const [p, doc, syntax, dflt] of members) lines.push(`| \`${p}\` | ${cell(doc)} | ${cell(syntax)} | ${cell(dflt)} |`);
  }
  return lines.join('\n');
}

async function cliOptions() {
  const { buildProgram } = await dist('cli/program.js');
  const program = await buildProgram({ io: { out() {}, err() {}, progress: null, stdoutIsTTY: false }, setExitCode() {} });
  const lines = [];
  for (const c of program.commands) {
    const args = c.registeredArguments.map((a) => (a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`)).join(' ');
    lines.push(`### \`lock-sim ${c.name()}${args ? ` ${args}` : ''}\``, '', cell(c.description()), '');
    if (c.options.length > 0) {
      lines.push('| option | meaning | default |', '|---|---|---|');
      for (const o of c.options) {
        const empty = o.defaultValue === undefined || (Array.isArray(o.defaultValue) && o.defaultValue.length === 0);
        const dflt = empty ? '' : `\`${typeof o.defaultValue === 'string' ? o.defaultValue : JSON.stringify(o.defaultValue)}\``;
        lines.push(`| \`${o.flags}\` | ${cell(o.description)} | ${dflt} |`);
      }
      lines.push('');
    }
  }
  return lines.join('\n').trimEnd();
}

async function metrics() {
  const { METRICS } = await dist('checker/metric-names.js');
  return ['| metric | meaning |', '|---|---|', ...METRICS.map((m) => `| \`${m.name}\` | ${cell(m.description)}${m.isTime ? ' (a time)' : ''} |`)].join('\n');
}

async function exitCodes() {
  const { EXIT_CODES } = await dist('cli/exit-codes.js');
  return ['| code | meaning |', '|---|---|', ...EXIT_CODES.map((e) => `| ${e.code} | ${cell(e.meaning)} |`)].join('\n');
}

export const REGIONS = [
  { page: 'docs/reference/scenario-format.md', name: 'scenario-fields', build: scenarioFields },
  { page: 'docs/reference/cli.md', name: 'cli-options', build: cliOptions },
  { page: 'docs/reference/metrics.md', name: 'metrics', build: metrics },
  { page: 'docs/reference/exit-codes.md', name: 'exit-codes', build: exitCodes },
];

const open = (name) => `<!-- generated: ${name} (npm run generate writes this part; edit the code it comes from) -->`;
const close = '<!-- end generated -->';

/** A page's region text, or null when the page has no such region. */
export function regionOf(text, name) {
  const start = text.indexOf(open(name));
  const end = text.indexOf(close, start);
  if (start === -1 || end === -1) return null;
  return text.slice(start + open(name).length, end).replace(/^\n/, '').replace(/\n$/, '');
}

export async function generated(region) {
  return region.build();
}

async function writeAll() {
  for (const region of REGIONS) {
    const path = join(ROOT, region.page);
    const text = readFileSync(path, 'utf8');
    const body = await region.build();
    const start = text.indexOf(open(region.name));
    if (start === -1) throw new Error(`${region.page} has no region ${region.name}: add the line ${open(region.name)} and ${close}`);
    const end = text.indexOf(close, start);
    const next = `${text.slice(0, start)}${open(region.name)}\n${body}\n${text.slice(end)}`;
    if (next !== text) {
      writeFileSync(path, next);
      process.stdout.write(`updated ${region.page} (${region.name})\n`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeAll();
