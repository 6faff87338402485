/** `lock-sim explain`: every value a scenario runs with has an origin, and every default a source. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { explainScenario, type ExplainedField } from '../../src/scenario/explain.js';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import { DEFAULT_ENTRIES } from '../../src/scenario/resolve.js';
import { FAULT_DEFAULT_ENTRIES } from '../../src/scenario/resolve-faults.js';
import { VARIANT_DEFAULT_ENTRIES } from '../../src/scenario/resolve-variants.js';
import { STARTER_TOPOLOGIES, starterScenario } from '../../src/scenario/starter.js';
import { LOCK_NAMES } from '../../src/variants/registry.js';

const DIR = join(__dirname, '..', '..', 'scenarios');
const casebook = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();

const explainFile = (file: string): ExplainedField[] => explainScenario(loadScenario(join(DIR, file)), parse(readFileSync(join(DIR, file), 'utf8')));
const explainText = (text: string): ExplainedField[] => explainScenario(parseScenario(text, 'x.yaml'), parse(text));
const starters = STARTER_TOPOLOGIES.flatMap((topology) => LOCK_NAMES.filter((l) => l !== 'redlock' || topology === 'independent').map((lock) => starterScenario({ topology, lock }).text));

const byField = (fields: ExplainedField[]): Map<string, ExplainedField> => new Map(fields.map((f) => [f.field, f]));

describe('explainScenario', () => {
  it.each(casebook)('%s: every resolved field is from the file or a default with a source', (file) => {
    const fields = explainFile(file);
    expect(fields.length).toBeGreaterThan(10);
    expect(fields.filter((f) => f.origin === 'default' && f.source === '').map((f) => f.field)).toEqual([]);
  });

  it('every starter of every topology and lock: every default has a source', () => {
    for (const text of starters) {
      expect(explainText(text).filter((f) => f.origin === 'default' && f.source === '').map((f) => f.field)).toEqual([]);
    }
  });

  it('tells a value written in the file from the default the resolver filled, with the value that runs', () => {
    const fields = byField(explainText(`name: x
duration: 10s
stock: { available: 5 }
workload: { clients: 3, arrival: 1/s }
redis: { topology: sentinel, down-after: 5s }
variants:
  a: { lock: lua-unlock }
  b: { lock: redlock-less, guard: conditional }
`.replace('redlock-less', 'set-nx-px')));
    expect(fields.get('workload.clients')).toMatchObject({ value: 3, origin: 'file' });
    expect(fields.get('workload.workers')).toMatchObject({ value: 16, origin: 'default' });
    expect(fields.get('redis.down-after')).toMatchObject({ value: '5s', origin: 'file' });
    expect(fields.get('redis.failover-timeout')).toMatchObject({ value: '3m', origin: 'default' });
    expect(fields.get('redis.failover-timeout')?.source).toContain('failover-timeout default 180000');
    expect(fields.get('stock.0.sku')).toMatchObject({ value: 10037, origin: 'default' });
    expect(fields.get('variants.a.retry-interval')).toMatchObject({ value: '50ms', origin: 'default' });
    expect(fields.get('variants.b.guard')).toMatchObject({ value: 'conditional', origin: 'file' });
    expect(fields.get('variants.a.guard')).toMatchObject({ value: 'none', origin: 'default' });
    expect(fields.get('variants.a.lease')).toMatchObject({ value: null, origin: 'default' });
    expect(fields.get('variants.a.lease')?.source).toContain('5 s for the hand-written locks');
  });

  it('takes redis.masters\' default by topology: Redlock\'s five, the Cluster\'s three', () => {
    const base = (topology: string, lock: string): string => `name: x\nduration: 10s\nstock: { available: 5 }\nworkload: { arrival: 1/s }\nredis: { topology: ${topology} }\nvariants: { a: { lock: ${lock} } }\n`;
    const independent = byField(explainText(base('independent', 'redlock'))).get('redis.masters');
    const cluster = byField(explainText(base('cluster', 'lua-unlock'))).get('redis.masters');
    expect(independent).toMatchObject({ value: 5, origin: 'default' });
    expect(independent?.source).toContain('N=5');
    expect(cluster).toMatchObject({ value: 3, origin: 'default' });
    expect(cluster?.source).toContain('three master nodes');
  });

  it('maps a random fault to its own line in the file: fixed faults are written first', () => {
    const fields = byField(explainText(`name: x
duration: 60s
stock: { available: 5 }
workload: { arrival: 1/s }
redis: { topology: sentinel }
faults:
  - { kind: gc-pause, client: 1, rate: 1/m, duration: 1s }
  - { kind: primary-crash, at: 30s }
variants: { a: { lock: lua-unlock } }
`));
    expect(fields.get('faults.0.kind')).toMatchObject({ value: 'primary-crash', origin: 'file' });
    expect(fields.get('faults.0.replication-stalled-for')).toMatchObject({ value: '0s', origin: 'default' });
    expect(fields.get('faults.1.rate')).toMatchObject({ value: '1/m', origin: 'file' });
  });

  it('has a source for every default entry, and every entry fills a field some scenario explains', () => {
    const explained = new Set<string>();
    const generic = (field: string): string => field.replace(/^variants\.[^.]+\./, 'variants.').replace(/\.\d+\./g, '.');
    for (const file of casebook) explainFile(file).forEach((f) => explained.add(generic(f.field)));
    for (const text of starters) explainText(text).forEach((f) => explained.add(generic(f.field)));
    for (const e of Object.values(DEFAULT_ENTRIES)) {
      expect(e.source.length, e.field).toBeGreaterThan(10);
      expect(explained.has(e.field), e.field).toBe(true);
    }
    for (const e of Object.values(VARIANT_DEFAULT_ENTRIES)) {
      expect(e.source.length, e.option).toBeGreaterThan(10);
      expect(explained.has(`variants.${e.option}`), e.option).toBe(true);
    }
    for (const e of Object.values(FAULT_DEFAULT_ENTRIES)) expect(explained.has(`faults.${e.field}`), e.field).toBe(true);
  });
});
