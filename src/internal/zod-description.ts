import * as z from 'zod'

/**
 * `schema`, described for JSON Schema. zod's `.describe()` returns a described copy, and each copy is one more
 * schema to construct: the scenario schema, which every `rea capture-process` builds as it starts, had 47 of them.
 * This records the description for `schema` itself, so `schema` must be made for this one place: a shared base
 * (`z.int().min(0)` kept in a constant) described here would carry the text into every other field built on it.
 * Describing one schema twice is refused for that reason.
 */
export function described<T extends z.ZodType>(schema: T, description: string): T {
  if (z.globalRegistry.has(schema)) {
    throw new Error(`a schema is described twice ("${description}"): describe a schema made for one field`)
  }
  z.globalRegistry.add(schema, { description })
  return schema
}
