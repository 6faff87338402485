/**
 * A JSON Schema for scenario files, generated from the zod schema (the one source of truth),
 * for editors: completion of keys, enums of locks, guards and fault kinds, and early marks
 * on typos. lock-sim's own validation stays the judge (it also checks cross-references).
 */
import { z } from 'zod';
import { VERSION } from '../version.js';
import { scenarioSchema } from './schema.js';

export function scenarioJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: `https://lock-sim.dev/schema/scenario-${VERSION}.json`,
    title: 'lock-sim scenario',
    description: 'A lock-sim scenario file: world, workload, faults, variants and expectations (lock-sim run / compare / check).',
    ...rest,
  };
}
