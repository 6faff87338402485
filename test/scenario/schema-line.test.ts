/** The schema modeline: built-in scenarios point at the shipped schema, which is current; init writes a line that resolves. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../src/scenario/json-schema.js';
import { MODELINE_PREFIX, schemaModeline, withModeline } from '../../src/scenario/schema-line.js';

const SCHEMA = 'schema/scenario.schema.json';

function yamlUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlUnder(join(dir, e.name)) : e.name.endsWith('.yaml') ? [join(dir, e.name)] : [],
  );
}

describe('the schema the package ships', () => {
  it(`${SCHEMA} is what lock-sim schema prints now (npm run generate writes it)`, () => {
    expect(readFileSync(SCHEMA, 'utf8')).toBe(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
  });

  it('names no web address of its own ($id): it is found by path', () => {
    expect(scenarioJsonSchema()).not.toHaveProperty('$id');
  });

  it.each([...yamlUnder('scenarios'), ...yamlUnder('docs/tutorial')])('%s starts with a modeline that reaches it', (file) => {
    const first = readFileSync(file, 'utf8').split('\n')[0];
    expect(first.startsWith(MODELINE_PREFIX)).toBe(true);
    const target = resolve(dirname(file), first.slice(MODELINE_PREFIX.length));
    expect(target).toBe(resolve(SCHEMA));
    expect(existsSync(target)).toBe(true);
  });
});

describe('schemaModeline and withModeline', () => {
  it('is relative to the scenario file, with ./ for a path below it', () => {
    expect(schemaModeline('/p/scenarios/a.yaml', '/p/schema/s.json')).toBe(`${MODELINE_PREFIX}../schema/s.json`);
    expect(schemaModeline('/p/a.yaml', '/p/node_modules/lock-sim/schema/s.json')).toBe(`${MODELINE_PREFIX}./node_modules/lock-sim/schema/s.json`);
  });

  it('replaces a modeline on the first line, and adds one where there is none', () => {
    expect(withModeline(`${MODELINE_PREFIX}old.json\nname: x\n`, `${MODELINE_PREFIX}new.json`)).toBe(`${MODELINE_PREFIX}new.json\nname: x\n`);
    expect(withModeline('# comment\nname: x\n', `${MODELINE_PREFIX}new.json`)).toBe(`${MODELINE_PREFIX}new.json\n# comment\nname: x\n`);
  });
});
