/**
 * `lock-sim explain`: every value a scenario runs with, as it would be written in the file,
 * and where it comes from: the file itself, or a default and that default's source. Values are
 * read from the resolved scenario (scenarioToObject writes every one); sources from the
 * resolver's own default tables (DEFAULT_ENTRIES, VARIANT_DEFAULT_ENTRIES,
 * FAULT_DEFAULT_ENTRIES), so an explained default is the default that ran.
 */
import { DEFAULT_ENTRIES, type Default } from './resolve.js';
import { FAULT_DEFAULT_ENTRIES } from './resolve-faults.js';
import { optionApplies, VARIANT_DEFAULT_ENTRIES, VARIANT_DERIVED_SOURCES } from './resolve-variants.js';
import { scenarioToObject } from './to-yaml.js';
import type { Scenario } from '../spec/scenario.js';
import { CLIENT_MODELS, describeClientModel } from '../world/client-model.js';
import type { ClientModelName } from '../spec/variant.js';

export interface ExplainedField {
  /** The field as a path in the file: `redis.down-after`, `variants.lua.retry-interval`, `faults.0.at`. */
  field: string;
  /** The value as the file would write it. */
  value: unknown;
  origin: 'file' | 'default';
  /** For a default: where its value comes from ('' when the field is from the file). */
  source: string;
  /** A variant's client field: what that client library does, with its upstream sources (client-model.ts). */
  model?: string;
}

type Path = Array<string | number>;

/** Where `raw` (the file's own YAML data) has a value at `path`. */
function given(raw: unknown, path: Path): boolean {
  let at: unknown = raw;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return false;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at !== undefined && at !== null;
}

/** The default behind a scenario-level field, matching the topology where the default depends on it. */
function scenarioDefault(field: string, scenario: Scenario): Default<unknown> | undefined {
  const entries = Object.values(DEFAULT_ENTRIES) as Array<Default<unknown>>;
  return entries.find((e) => e.field === field && (e.topology === undefined || e.topology === scenario.redis.topology));
}

function variantDefault(option: string): string | undefined {
  const entry = Object.values(VARIANT_DEFAULT_ENTRIES).find((e) => e.option === option);
  return entry?.source ?? VARIANT_DERIVED_SOURCES[option];
}

function faultDefault(field: string): string | undefined {
  return Object.values(FAULT_DEFAULT_ENTRIES).find((e) => e.field === field)?.source;
}

/**
 * The raw index of each written fault: scenarioToObject writes the fixed faults, then the
 * random ones (those with a rate), each group in file order.
 */
function faultIndexes(raw: unknown): number[] {
  const faults = (raw as { faults?: Array<Record<string, unknown>> }).faults ?? [];
  const fixed = faults.map((f, i) => [f, i] as const).filter(([f]) => f.rate === undefined).map(([, i]) => i);
  const random = faults.map((f, i) => [f, i] as const).filter(([f]) => f.rate !== undefined).map(([, i]) => i);
  return [...fixed, ...random];
}

/** Maps a written path to the file's own path (faults reordered, a single stock row unwrapped). */
function rawPath(path: Path, raw: unknown, faults: number[]): Path {
  if (path[0] === 'faults' && typeof path[1] === 'number') return ['faults', faults[path[1]], ...path.slice(2)];
  if (path[0] === 'stock' && !Array.isArray((raw as { stock?: unknown }).stock)) return ['stock', ...path.slice(2)];
  return path;
}

function sourceOf(path: Path, scenario: Scenario): string | undefined {
  const [head] = path;
  if (head === 'variants') return variantDefault(String(path[2]));
  if (head === 'faults' && path.length > 1) return faultDefault(String(path[path.length - 1]));
  if (head === 'stock') return scenarioDefault(`stock.${String(path[path.length - 1])}`, scenario)?.source;
  const named = path.filter((p) => typeof p === 'string').join('.');
  return scenarioDefault(named, scenario)?.source;
}

/** Leaves of the written scenario: scalars, and lists of scalars (steps) as one value. */
function leaves(value: unknown, path: Path, out: Array<{ path: Path; value: unknown }>): void {
  const isScalarList = Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object');
  if (value !== null && typeof value === 'object' && !isScalarList) {
    for (const [k, v] of Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value)) leaves(v, [...path, k], out);
    return;
  }
  out.push({ path, value });
}

/**
 * Every field the scenario runs with. `raw` is the file's YAML data as parsed (before
 * defaults), which says which fields the file gave.
 */
export function explainScenario(scenario: Scenario, raw: unknown): ExplainedField[] {
  const written = scenarioToObject(scenario);
  const all: Array<{ path: Path; value: unknown }> = [];
  leaves(written, [], all);
  const faults = faultIndexes(raw);
  const fields: ExplainedField[] = all.map(({ path, value }) => {
    const field = path.join('.');
    if (path[0] === 'expect' || given(raw, rawPath(path, raw, faults))) return { field, value, origin: 'file', source: '' };
    return { field, value, origin: 'default', source: sourceOf(path, scenario) ?? '' };
  });
  // The client model each variant runs on: what the library does, and where that comes from.
  for (const v of scenario.variants) {
    const at = fields.findIndex((f) => f.field === `variants.${v.name}.client`);
    if (at < 0) continue;
    const model = CLIENT_MODELS[v.client as ClientModelName];
    const field = fields[at];
    fields[at] = { ...field, model: `${describeClientModel(model, v.clientPool)} (${model.poolSource}; ${model.sources.join('; ')})` };
  }
  // A lease left out is no value to write: the lock picks its own.
  for (const v of scenario.variants) {
    // (RSemaphore permits have none: refused there.)
    if (v.leaseMs === null && v.lock !== 'none' && optionApplies('lease', v.lock, v.guard)) {
      const own = VARIANT_DERIVED_SOURCES[`lease (${v.lock})`] ?? VARIANT_DERIVED_SOURCES.lease;
      fields.push({ field: `variants.${v.name}.lease`, value: null, origin: 'default', source: own });
    }
  }
  return fields;
}

/** The explanation as text: one line per field, the defaults with their sources. */
export function renderExplain(scenario: Scenario, fields: readonly ExplainedField[]): string {
  const show = (v: unknown): string => (v === null ? "(the lock's own)" : Array.isArray(v) ? `[${v.join(', ')}]` : String(v));
  const width = Math.min(44, Math.max(...fields.map((f) => `${f.field}: ${show(f.value)}`.length)));
  const out = [
    `${scenario.name} (${scenario.file}): every value it runs with`,
    `"file": written in the scenario; "default": filled in, with where the value comes from`,
    '',
  ];
  for (const f of fields) {
    const left = `${f.field}: ${show(f.value)}`;
    const why = [f.source, f.model ?? ''].filter((t) => t !== '').join(': ');
    out.push(`${left.padEnd(width)}  ${f.origin === 'file' ? (why === '' ? 'file' : `file: ${why}`) : `default: ${why}`}`);
  }
  const defaults = fields.filter((f) => f.origin === 'default').length;
  out.push('', `${fields.length - defaults} values from the file, ${defaults} defaults`);
  return out.join('\n');
}
