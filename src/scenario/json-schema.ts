/**
 * A JSON Schema for scenario files, generated from the zod schema (the one source of truth),
 * for editors: completion of keys, enums of locks, guards and fault kinds, and early marks
 * on typos. lock-sim's own validation stays the judge (it also checks cross-references). It has
 * no `$id`: it is addressed by path (schema/scenario.schema.json in the package, or wherever
 * `lock-sim schema --output` writes it), never by a web address.
 */
import { z } from 'zod';
import { scenarioSchema } from './schema.js';

export function scenarioJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: 'lock-sim scenario',
    description: 'A lock-sim scenario file: world, workload, faults, variants and expectations (lock-sim run / compare / check).',
    ...rest,
  };
}
