import { describe, expect, test } from 'vitest'
import * as z from 'zod'
import { described } from '../../../src/internal/zod-description.js'
import { jsonSchemaFor } from '../../../src/json-schemas.js'

describe('described', () => {
  test('describes the schema itself, not a copy, for JSON Schema', () => {
    const schema = z.int().min(0)
    expect(described(schema, 'How many.')).toBe(schema)
    expect(schema.description).toBe('How many.')
    expect(z.toJSONSchema(z.object({ count: schema }))).toMatchObject({
      properties: { count: { type: 'integer', minimum: 0, description: 'How many.' } },
    })
  })

  test('refuses a schema described twice: a shared base would carry one field’s text into another', () => {
    const shared = z.string()
    described(shared, 'The first field.')
    expect(() => described(shared, 'The second field.')).toThrow(/described twice \("The second field\."\)/)
  })

  test('fields built on one base keep their own descriptions in the scenario’s JSON Schema', () => {
    type Described = { description?: string; properties?: Record<string, Described> }
    const scenario = jsonSchemaFor('scenario') as Described
    const field = (...path: string[]): string | undefined =>
      path.reduce<Described | undefined>((at, key) => at?.properties?.[key], scenario)?.description
    // settle_ms and finalization_ms wrap one base, as do the wait's five texts and the six limits.
    expect(field('settle_ms')).toBe('How long to observe the process tree after exit.')
    expect(field('finalization_ms')).toMatch(/^Grace after a deadline/)
    expect(field('limits', 'output_bytes')).toMatch(/^Budget for retained PTY chunks/)
    expect(field('limits', 'file_count')).toBe(
      'Entries enumerated per filesystem checkpoint, across all roots.',
    )
    const events = (scenario.properties?.['events'] as { items: { oneOf: Described[] } }).items.oneOf
    const input = events.find((event) => event.properties?.['data'] !== undefined)
    const wait = input?.properties?.['after']
    expect(wait?.properties?.['output']?.description).toMatch(/^Literal text that appears/)
    expect(wait?.properties?.['gone']?.description).toMatch(/^Literal text no longer visible/)
    expect(wait?.properties?.['quiet_ms']?.description).toMatch(/^After the match/)
    expect(input?.properties?.['at_ms']?.description).toMatch(/^Milliseconds from launch/)
    expect(input?.properties?.['keys']?.description).toMatch(/^Named keys sent in order/)
  })
})
