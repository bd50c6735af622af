import { describe, expect, test } from 'vitest'
import * as z from 'zod'
import { describeValue, formatPath, zodIssuesToReaIssues } from '../../../src/internal/zod-issues.js'
import { processScenarioSchema, SCENARIO_SIGNALS } from '../../../src/scenario/schema.js'

const TOP_LEVEL_FIELDS = Object.keys(processScenarioSchema.shape).join(', ')

function issuesOf(input: unknown, reportInput = false) {
  const result = processScenarioSchema.safeParse(input, { reportInput })
  if (result.success) {
    throw new Error(`expected ${JSON.stringify(input)} to be rejected`)
  }
  return zodIssuesToReaIssues(result.error, processScenarioSchema, input)
}

function issuesOfSchema(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input)
  if (result.success) {
    throw new Error(`expected ${JSON.stringify(input)} to be rejected`)
  }
  return zodIssuesToReaIssues(result.error, schema, input)
}

describe('formatPath', () => {
  test.for([
    [[], ''],
    [['executable'], 'executable'],
    [['terminal', 'columns'], 'terminal.columns'],
    [['events', 3, 'columns'], 'events[3].columns'],
    [['events', 0], 'events[0]'],
    [[2], '[2]'],
    [[0, 'a'], '[0].a'],
    [['matrix', 1, 2], 'matrix[1][2]'],
  ] as const)('formats %j as %j', ([path, expected]) => {
    expect(formatPath(path)).toBe(expected)
  })

  test('formats a symbol segment by its description', () => {
    expect(formatPath(['a', Symbol('b')])).toBe('a.Symbol(b)')
  })
})

describe('describeValue', () => {
  test.for([
    ['a bigint', 10n, '10n'],
    ['NaN', Number.NaN, 'NaN'],
    ['infinity', Number.POSITIVE_INFINITY, 'Infinity'],
    ['undefined', undefined, 'nothing'],
    ['an integer', 1234567, '1,234,567'],
    ['a negative number', -42, '-42'],
    ['a fraction', 0.5, '0.5'],
    ['a fraction with many digits', 1.123456789, '1.123456789'],
    ['an array', [1, 2, 3], 'an array of 3'],
    ['an empty array', [], 'an array of 0'],
    ['an object', { a: 1 }, 'an object'],
    ['null', null, 'null'],
    ['a string', 'abc', '"abc"'],
    ['a string with a quote', 'a"b', '"a\\"b"'],
    ['a boolean', false, 'false'],
  ] as const)('describes %s', ([, value, expected]) => {
    expect(describeValue(value)).toBe(expected)
  })

  test('keeps a description of exactly 60 characters whole', () => {
    const value = 'x'.repeat(58)
    expect(describeValue(value)).toBe(`"${value}"`)
  })

  test('shortens a longer description to 57 characters and an ellipsis', () => {
    const description = describeValue('x'.repeat(59))
    expect(description).toBe(`"${'x'.repeat(56)}…`)
    expect(description).toHaveLength(58)
  })

  test.for([
    ['a function', () => undefined, 'function'],
    ['a symbol', Symbol('s'), 'symbol'],
  ] as const)('describes %s by its type', ([, value, expected]) => {
    expect(describeValue(value)).toBe(expected)
  })
})

describe('zodIssuesToReaIssues', () => {
  test('reports an unknown top-level field and lists the valid fields', () => {
    expect(issuesOf({ executable: 'x', colour: 'red' })).toEqual([
      {
        path: 'colour',
        rule: 'unknown_field',
        message: `is not a known field; valid fields here: ${TOP_LEVEL_FIELDS}`,
      },
    ])
  })

  test('reports each unknown field separately', () => {
    expect(issuesOf({ executable: 'x', one: 1, two: 2 }).map((issue) => issue.path)).toEqual(['one', 'two'])
  })

  test.for([
    [{ type: 'input', at_ms: 0, data: 'x', extra: 1 }, 'type, at_ms, after, data, keys, sensitive'],
    [{ type: 'resize', at_ms: 0, columns: 80, rows: 24, extra: 1 }, 'type, at_ms, after, columns, rows'],
    [{ type: 'signal', at_ms: 0, signal: 'SIGINT', extra: 1 }, 'type, at_ms, after, signal'],
  ] as const)('lists the fields of the event type given for an unknown field in %o', ([event, fields]) => {
    const input = { executable: 'x', events: [{ type: 'input', at_ms: 0, data: 'ok' }, event] }
    expect(issuesOf(input)).toEqual([
      {
        path: 'events[1].extra',
        rule: 'unknown_field',
        message: `is not a known field; valid fields here: ${fields}`,
      },
    ])
  })

  test.for([
    [
      'terminal',
      { terminal: { columns: 80, colour: true } },
      'terminal.colour',
      'columns, rows, scrollback, answer_queries, width_model',
    ],
    [
      'normalization.patterns[i]',
      { normalization: { patterns: [{ pattern: 'a', replacement: 'b', flags: 'g' }] } },
      'normalization.patterns[0].flags',
      'pattern, replacement',
    ],
  ] as const)('lists the valid fields for an unknown field inside %s', ([, fields, path, valid]) => {
    expect(issuesOf({ executable: 'x', ...fields })).toEqual([
      { path, rule: 'unknown_field', message: `is not a known field; valid fields here: ${valid}` },
    ])
  })

  test('reports an unknown field without a list when the schema there is not an object', () => {
    const schema = z.record(
      z.string(),
      z.strictObject({ a: z.number() }).or(z.strictObject({ b: z.number() })),
    )
    expect(issuesOfSchema(schema, { key: { a: 1, c: 2 } })).toEqual([
      { path: 'key.c', rule: 'unknown_field', message: 'is not a known field' },
    ])
  })

  test('reports a value that matches no union option as a variant', () => {
    expect(issuesOfSchema(z.union([z.string(), z.number()]), true)).toEqual([
      { path: '', rule: 'variant', message: 'does not match any accepted shape: got true' },
    ])
  })

  test.for([false, true])('reports a missing required field as required (reportInput %s)', (reportInput) => {
    expect(issuesOf({}, reportInput)).toEqual([
      { path: 'executable', rule: 'required', message: 'is required' },
    ])
    expect(
      issuesOf({ executable: 'x', events: [{ type: 'resize', at_ms: 0, rows: 2 }] }, reportInput),
    ).toEqual([{ path: 'events[0].columns', rule: 'required', message: 'is required' }])
  })

  test.for([
    [{ executable: 5 }, 'executable', 'must be a string: got 5'],
    [{ executable: 'x', arguments: 'a b' }, 'arguments', 'must be an array: got "a b"'],
    [{ executable: 'x', terminal: 80 }, 'terminal', 'must be an object: got 80'],
    [{ executable: 'x', timeout_ms: 1.5 }, 'timeout_ms', 'must be an integer: got 1.5'],
    [
      { executable: 'x', normalization: { ports: 'yes' } },
      'normalization.ports',
      'must be a boolean: got "yes"',
    ],
    [{ executable: 'x', events: [5] }, 'events[0]', 'must be an object: got 5'],
    [{ executable: 'x', events: {} }, 'events', 'must be an array: got an object'],
  ] as const)('reports a wrong type in %o', ([input, path, message]) => {
    for (const reportInput of [false, true]) {
      expect(issuesOf(input, reportInput)).toEqual([{ path, rule: 'type', message }])
    }
  })

  test('reports an enum mismatch as a choice and lists the choices', () => {
    const input = { executable: 'x', events: [{ type: 'signal', at_ms: 0, signal: 'SIGFOO' }] }
    const choices = SCENARIO_SIGNALS.map((signal) => `"${signal}"`).join(', ')
    expect(issuesOf(input)).toEqual([
      { path: 'events[0].signal', rule: 'choice', message: `must be one of ${choices}: got "SIGFOO"` },
    ])
  })

  test.for([false, true])(
    'reports an unknown discriminator as a choice of the event types (reportInput %s)',
    (reportInput) => {
      const input = { executable: 'x', events: [{ type: 'click', at_ms: 0 }] }
      expect(issuesOf(input, reportInput)).toEqual([
        {
          path: 'events[0].type',
          rule: 'choice',
          message: 'must be one of "input", "resize", "signal": got "click"',
        },
      ])
    },
  )

  test.for([false, true])(
    'reports a missing discriminator as a choice that got nothing (reportInput %s)',
    (reportInput) => {
      const input = { executable: 'x', events: [{ at_ms: 0 }] }
      expect(issuesOf(input, reportInput)).toEqual([
        {
          path: 'events[0].type',
          rule: 'choice',
          message: 'must be one of "input", "resize", "signal": got nothing',
        },
      ])
    },
  )

  test.for([
    [{ executable: '' }, 'executable', 'must not be empty: got 0 characters'],
    [{ executable: 'x', terminal: { columns: 1 } }, 'terminal.columns', 'must be ≥ 2: got 1'],
    [{ executable: 'x', timeout_ms: 0 }, 'timeout_ms', 'must be ≥ 1: got 0'],
    [{ executable: 'x', limits: { output_bytes: -1 } }, 'limits.output_bytes', 'must be ≥ 0: got -1'],
    [
      { executable: 'x', events: [{ type: 'input', at_ms: 0, data: '' }] },
      'events[0].data',
      'must not be empty: got 0 characters',
    ],
  ] as const)('reports a value below its minimum in %o', ([input, path, message]) => {
    expect(issuesOf(input)).toEqual([{ path, rule: 'minimum', message }])
  })

  test.for([
    [{ executable: 'x', terminal: { rows: 70_000 } }, 'terminal.rows', 'must be ≤ 65,535: got 70,000'],
    [
      { executable: 'x', events: [{ type: 'resize', at_ms: 0, columns: 65_536, rows: 1 }] },
      'events[0].columns',
      'must be ≤ 65,535: got 65,536',
    ],
  ] as const)('reports a value above its maximum in %o', ([input, path, message]) => {
    expect(issuesOf(input)).toEqual([{ path, rule: 'maximum', message }])
  })

  test.for([
    [z.string().min(3), 'ab', 'must have at least 3 characters: got 2 characters', 'minimum'],
    [z.string().max(2), 'abc', 'must have at most 2 characters: got 3 characters', 'maximum'],
    [z.string().max(1), 'ab', 'must have at most 1 characters: got 2 characters', 'maximum'],
    [z.array(z.number()).min(2), [1], 'must have at least 2 items: got 1 items', 'minimum'],
    [z.array(z.number()).max(1), [1, 2], 'must have at most 1 items: got 2 items', 'maximum'],
  ] as const)(
    'words string and array bounds in characters and items (%#)',
    ([schema, input, message, rule]) => {
      expect(issuesOfSchema(schema, input)).toEqual([{ path: '', rule, message }])
    },
  )

  test('reports a failed refinement at its path with its message', () => {
    expect(issuesOf({ executable: 'a\0b' })).toEqual([
      { path: 'executable', rule: expect.any(String), message: 'executable may not contain a NUL character' },
    ])
  })

  test('gives a custom issue without a rule param the rule invalid', () => {
    const schema = z.strictObject({
      name: z.string().refine((value) => value !== 'x', { error: 'may not be x' }),
    })
    expect(issuesOfSchema(schema, { name: 'x' })).toEqual([
      { path: 'name', rule: 'invalid', message: 'may not be x' },
    ])
  })

  test('takes the rule of a custom issue from its params', () => {
    const schema = z
      .number()
      .refine((value) => value > 0, { error: 'must be positive', params: { rule: 'sign' } })
    expect(issuesOfSchema(schema, -1)).toEqual([{ path: '', rule: 'sign', message: 'must be positive' }])
  })

  test('reports every problem at once', () => {
    const issues = issuesOf({ executable: 5, timeout_ms: 0, bogus: true, terminal: { rows: 0 } })
    expect(issues.map(({ path, rule }) => `${path}:${rule}`).sort()).toEqual([
      'bogus:unknown_field',
      'executable:type',
      'terminal.rows:minimum',
      'timeout_ms:minimum',
    ])
  })
})
