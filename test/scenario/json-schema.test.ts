/** The JSON Schema for editors accepts every real scenario and marks typical mistakes. */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../src/scenario/json-schema.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validate = ajv.compile(scenarioJsonSchema());

describe('scenario JSON Schema', () => {
  it.each(readdirSync('scenarios').filter((f) => f.endsWith('.yaml')))('accepts scenarios/%s', (file) => {
    const ok = validate(parse(readFileSync(`scenarios/${file}`, 'utf8')));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('marks an unknown key, an unknown lock, a duration without unit and a missing field', () => {
    const doc = parse(`
name: x
duration: 10
stock: { available: 1 }
workload: { arival: 1/s }
variants: { v: { lock: lua-unlok } }
`);
    expect(validate(doc)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(paths).toContain('/duration anyOf');
    expect(paths).toContain('/workload additionalProperties');
    expect(paths).toContain('/variants/v/lock enum');
    expect(validate(parse('name: x\nvariants: {}\n'))).toBe(false);
  });
});
