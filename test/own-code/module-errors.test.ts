/**
 * A bad lock module is a located scenario error (exit 2 from the CLI), not a crash in the
 * middle of a run: no such file, no such export, a factory of the wrong shape, a module that
 * throws while loading. A good module loads, and the variant round-trips through to-yaml.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { scenarioJsonSchema } from '../../src/scenario/json-schema.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/spec/scenario.js';
import { scenarioToYaml } from '../../src/scenario/to-yaml.js';

const HERE = dirname(fileURLToPath(import.meta.url));

const yaml = (lock: string, extra = ''): string => `name: m
duration: 1s
stock: { sku: 1, available: 1 }
workload: { arrival: 1/s }
variants:
  mine: { lock: ${lock}${extra} }
`;

const errorOf = (text: string): string => {
  try {
    parseScenario(text, join(HERE, 'scenario.yaml'));
  } catch (err) {
    return String((err as Error).message);
  }
  return 'no error';
};

describe('lock modules that cannot be used', () => {
  it('names a file that does not exist', () => {
    expect(errorOf(yaml('{ module: ./modules/nope.mjs }'))).toMatch(/scenario\.yaml:6:\d+: variants\.mine\.lock\.module: no such file: .*modules\/nope\.mjs/);
  });

  it('names an export the module does not have, and lists the ones it has', () => {
    expect(errorOf(yaml('{ module: ./modules/bad-shape.mjs, export: makeLock }'))).toMatch(/variants\.mine\.lock\.module: the module has no export "makeLock" \(it exports answer\)/);
  });

  it('refuses an export that is not a function', () => {
    expect(errorOf(yaml('{ module: ./modules/bad-shape.mjs, export: answer }'))).toMatch(/export "answer" is a number, not a factory function/);
  });

  it('refuses a factory that returns no release', () => {
    expect(errorOf(yaml('{ module: ./modules/bad-shape.mjs }'))).toMatch(/the factory returned an object with acquire; it must return \{ acquire\(key\), release\(handle\) \}/);
  });

  it('reports a module that throws while loading, with its message', () => {
    expect(errorOf(yaml('{ module: ./modules/throws-on-load.mjs }'))).toMatch(/throws while loading or in its factory: cannot start without REDIS_URL/);
  });

  it('refuses an unknown field of lock, and an unknown lock name with a did-you-mean', () => {
    expect(errorOf(yaml('{ module: ./modules/hangs.mjs, exprot: x }'))).toMatch(/variants\.mine\.lock/);
    expect(errorOf(yaml('lua-unlok'))).toMatch(/unknown lock "lua-unlok".*lua-unlock/);
  });

  it('refuses a top-level await that does not settle when the module loads, naming the file', () => {
    expect(() => parseScenario(yaml('{ module: ./modules/tla-never.mjs }'), join(HERE, 'scenario.yaml'))).toThrow(/tla-never\.mjs has a top-level await that does not settle when the module loads/);
  });

  it('... while one on what is already settled (a dynamic import) loads', () => {
    expect(parseScenario(yaml('{ module: ./modules/tla-settled.mjs }'), join(HERE, 'scenario.yaml')).variants[0].lock).toBe('module');
  });

  it('... while a good module loads, relative to the scenario file, with its options', () => {
    const s = parseScenario(yaml('{ module: ./modules/hangs.mjs, options: { prefix: "x" } }', ', lease: 2s'), join(HERE, 'scenario.yaml'));
    expect(s.variants[0].lock).toBe('module');
    expect(s.variants[0].lockModule).toEqual({ module: './modules/hangs.mjs', file: join(HERE, 'modules/hangs.mjs'), export: null, keys: null, options: { prefix: 'x' }, client: 'ioredis', timeZone: 'UTC', locale: 'en-US' });
  });

  it('a variant with a module refuses options of other locks (redlock retry-count)', () => {
    expect(errorOf(yaml('{ module: ./modules/hangs.mjs }', ', retry-count: 3'))).toMatch(/retry-count applies to lock redlock, not to this variant \(lock module/);
  });
});

const placeless = (s: Scenario) => ({ ...s, file: '', workloadLocation: '', expectations: s.expectations.map((e) => ({ ...e, location: '' })) });

describe('own-code scenarios round-trip through to-yaml', () => {
  it.each(readdirSync('scenarios/own-code').filter((f) => f.endsWith('.yaml')))('round-trips scenarios/own-code/%s', (file) => {
    const original = loadScenario(`scenarios/own-code/${file}`);
    const again = parseScenario(scenarioToYaml(original, ['a header']), `scenarios/own-code/again.yaml`);
    expect(placeless(again)).toEqual(placeless(original));
  });

  it('writes export and options back', () => {
    const original = parseScenario(yaml('{ module: ./modules/hangs.mjs, export: default, options: { a: 1, b: [x] } }'), join(HERE, 's.yaml'));
    const text = scenarioToYaml(original, []);
    expect(text).toContain('module: ./modules/hangs.mjs');
    expect(placeless(parseScenario(text, join(HERE, 's.yaml')))).toEqual(placeless(original));
  });
});

describe('the scenario JSON Schema and lock modules', () => {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(scenarioJsonSchema());

  it.each(readdirSync('scenarios/own-code').filter((f) => f.endsWith('.yaml')))('accepts scenarios/own-code/%s', (file) => {
    const ok = validate(parse(readFileSync(`scenarios/own-code/${file}`, 'utf8')));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('marks a lock module without its path, and one with an unknown field', () => {
    expect(validate(parse(yaml('{ export: makeLock }')))).toBe(false);
    expect(validate(parse(yaml('{ module: ./x.mjs, exprot: makeLock }')))).toBe(false);
    expect(validate(parse(yaml('{ module: ./x.mjs, export: makeLock, options: { a: 1 } }')))).toBe(true);
  });
});
