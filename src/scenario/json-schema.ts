/**
 * A JSON Schema for scenario files, generated from the zod schema (the one source of truth),
 * for editors: completion of keys, enums of locks, guards and fault kinds, and early marks
 * on typos. lock-sim's own validation stays the judge (it also checks cross-references). It has
 * no `$id`: it is addressed by path (schema/scenario.schema.json in the package, or wherever
 * `lock-sim schema --output` writes it), never by a web address.
 */
import { z } from 'zod';
import { fieldDoc } from './field-docs.js';
import { scenarioSchema } from './schema.js';

export function scenarioJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  describeFields(generated, '');
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: 'lock-sim scenario',
    description: 'A lock-sim scenario file: world, workload, faults, variants and expectations (lock-sim run / compare / check).',
    ...rest,
  };
}

type Node = Record<string, unknown>;

/**
 * Every property gets its meaning (field-docs.ts) as its description, followed by the value's
 * syntax where the schema has one ("a duration with a unit: ..."). `path` is the field's path
 * as the file nests it: `stock` for a row in a list too, `faults.<kind>.<field>`, `variants.*`.
 */
function describeFields(node: Node, path: string): void {
  const properties = node.properties as Record<string, Node> | undefined;
  if (properties !== undefined) {
    const kind = (properties.kind as Node | undefined)?.const;
    for (const [key, child] of Object.entries(properties)) {
      const childPath = path === 'faults' && typeof kind === 'string' ? `faults.${kind}.${key}` : path === '' ? key : `${path}.${key}`;
      const doc = fieldDoc(childPath);
      const syntax = typeof child.description === 'string' ? child.description : undefined;
      if (doc !== undefined && doc !== syntax) child.description = syntax === undefined || key === 'promotion' ? doc : `${doc} Value: ${syntax}.`;
      describeFields(child, childPath);
    }
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = node[key] as Node[] | undefined;
    branches?.forEach((branch) => describeFields(branch, path));
  }
  if (node.items !== undefined && typeof node.items === 'object') describeFields(node.items as Node, path.endsWith('requests') ? `${path}[]` : path);
  if (node.additionalProperties !== undefined && typeof node.additionalProperties === 'object' && (path === 'variants' || path === 'expect')) describeFields(node.additionalProperties as Node, `${path}.*`);
}
