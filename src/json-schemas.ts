import * as z from 'zod'
import { comparisonSchema } from './compare/comparison-schema.js'
import { traceSpecSchema } from './compare/trace/index.js'
import { evidenceSchema } from './evidence/schema.js'
import { processScenarioSchema } from './scenario/schema.js'

/** Documents REA can describe as JSON Schema. */
export const SCHEMA_NAMES = ['scenario', 'evidence', 'trace', 'comparison'] as const
export type SchemaName = (typeof SCHEMA_NAMES)[number]

/**
 * JSON Schema (draft 2020-12) generated from the zod schema, never written by hand. The scenario schema
 * and trace-specification schemas describe what a user may write (defaults make fields optional); the Evidence
 * and comparison schemas what REA writes.
 */
export function jsonSchemaFor(name: SchemaName): Record<string, unknown> {
  switch (name) {
    case 'scenario':
      return z.toJSONSchema(processScenarioSchema, { io: 'input', unrepresentable: 'any' })
    case 'evidence':
      return z.toJSONSchema(evidenceSchema, { io: 'output', unrepresentable: 'any' })
    case 'trace':
      return z.toJSONSchema(traceSpecSchema, { io: 'input', unrepresentable: 'any' })
    case 'comparison':
      return z.toJSONSchema(comparisonSchema, { io: 'output', unrepresentable: 'any' })
  }
}
