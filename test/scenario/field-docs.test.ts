/** Every field of the scenario schema is described, and every description names a field. */
import { describe, expect, it } from 'vitest';
import { FIELD_DOCS, fieldDoc } from '../../src/scenario/field-docs.js';
import { scenarioJsonSchema } from '../../src/scenario/json-schema.js';

type Node = Record<string, unknown>;

/** Each property's path as field-docs.ts keys it, with its schema node. */
function properties(): Array<{ path: string; node: Node }> {
  const out: Array<{ path: string; node: Node }> = [];
  const walk = (node: Node, path: string): void => {
    const props = node.properties as Record<string, Node> | undefined;
    if (props) {
      const kind = (props.kind as Node | undefined)?.const;
      for (const [key, child] of Object.entries(props)) {
        const p = path === 'faults' && typeof kind === 'string' ? `faults.${kind}.${key}` : path === '' ? key : `${path}.${key}`;
        out.push({ path: p, node: child });
        walk(child, p);
      }
    }
    for (const k of ['anyOf', 'oneOf', 'allOf']) ((node[k] as Node[] | undefined) ?? []).forEach((b) => walk(b, path));
    if (node.items && typeof node.items === 'object') walk(node.items as Node, path.endsWith('requests') ? `${path}[]` : path);
    if ((path === 'variants' || path === 'expect') && node.additionalProperties && typeof node.additionalProperties === 'object') walk(node.additionalProperties as Node, `${path}.*`);
  };
  walk(scenarioJsonSchema(), '');
  return out;
}

describe('FIELD_DOCS', () => {
  const props = properties();

  it('finds the fields (every fault kind and variant option among them)', () => {
    expect(props.length).toBeGreaterThan(100);
    expect(props.map((p) => p.path)).toContain('faults.redis-restart.persistence');
    expect(props.map((p) => p.path)).toContain('variants.*.fence-check');
  });

  it('describes every field of the schema, and the JSON Schema carries it', () => {
    expect(props.filter((p) => fieldDoc(p.path) === undefined).map((p) => p.path)).toEqual([]);
    expect(props.filter((p) => typeof p.node.description !== 'string' || !String(p.node.description).startsWith(fieldDoc(p.path) ?? '\u0000')).map((p) => p.path)).toEqual([]);
  });

  it('has no entry for a field that does not exist', () => {
    const paths = props.map((p) => p.path);
    const used = (key: string) => paths.some((p) => p === key || (key.includes('*') && new RegExp(`^${key.replace(/\./g, '\\.').replace(/\*/g, '[^.]+')}$`).test(p)));
    expect(Object.keys(FIELD_DOCS).filter((k) => !used(k))).toEqual([]);
  });
});
