import type * as z from 'zod'
import type { ReaIssue } from '../errors.js'
import { showName } from './escape-controls.js'

type Path = readonly PropertyKey[]

/** `['events', 3, 'columns']` → `events[3].columns`; a key that needs escapes is quoted (`environment."A\nB"`). */
export function formatPath(path: Path): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') {
      text += `[${segment}]`
    } else {
      const key = showName(String(segment))
      text += text === '' ? key : `.${key}`
    }
  }
  return text
}

/** A short rendering of an offending value for "got …" clauses. */
export function describeValue(value: unknown): string {
  if (value === undefined) {
    return 'nothing'
  }
  if (typeof value === 'number') {
    return Number.isFinite(value)
      ? value.toLocaleString('en-US', { maximumFractionDigits: 20 })
      : String(value)
  }
  if (typeof value === 'bigint') {
    return `${value}n`
  }
  if (Array.isArray(value)) {
    return `an array of ${value.length}`
  }
  if (typeof value === 'object' && value !== null) {
    return 'an object'
  }
  // JSON.stringify returns undefined for functions and symbols, which no parsed JSON holds, but a caller might.
  const text = (JSON.stringify(value) as string | undefined) ?? typeof value
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/**
 * Turns zod issues into REA issues with messages that say what was expected and what was got.
 * `root` is the schema that was parsed and `input` the value given to it, used to list valid field names.
 */
export function zodIssuesToReaIssues(error: z.ZodError, root: z.ZodType, input: unknown): ReaIssue[] {
  return error.issues.flatMap((issue) => convertIssue(issue, root, input))
}

function convertIssue(issue: z.core.$ZodIssue, root: z.ZodType, input: unknown): ReaIssue[] {
  const path = formatPath(issue.path)
  const got = 'input' in issue ? issue.input : valueAt(input, issue.path)
  switch (issue.code) {
    case 'invalid_type': {
      if (got === undefined) {
        return [{ path, rule: 'required', message: 'is required' }]
      }
      const expected =
        issue.expected === 'int' ? 'an integer' : `${article(issue.expected)} ${issue.expected}`
      return [{ path, rule: 'type', message: `must be ${expected}: got ${describeValue(got)}` }]
    }
    case 'too_small':
      return [
        {
          path,
          rule: 'minimum',
          message: `${boundText(issue.origin, 'at least', issue.minimum)}: got ${sizeOf(got)}`,
        },
      ]
    case 'too_big':
      return [
        {
          path,
          rule: 'maximum',
          message: `${boundText(issue.origin, 'at most', issue.maximum)}: got ${sizeOf(got)}`,
        },
      ]
    case 'unrecognized_keys': {
      const valid = objectKeysAt(root, issue.path, input)
      const choices = valid === undefined ? '' : `; valid fields here: ${valid.join(', ')}`
      return issue.keys.map((key) => ({
        path: formatPath([...issue.path, key]),
        rule: 'unknown_field',
        message: `is not a known field${choices}`,
      }))
    }
    case 'invalid_value':
      return [
        {
          path,
          rule: 'choice',
          message: `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}: got ${describeValue(got)}`,
        },
      ]
    case 'invalid_union': {
      const discriminated = issue as { discriminator?: unknown; options?: unknown }
      if (discriminated.discriminator !== undefined && Array.isArray(discriminated.options)) {
        const options = (discriminated.options as unknown[]).map((value) => JSON.stringify(value)).join(', ')
        return [
          {
            path,
            rule: 'choice',
            message: `must be one of ${options}: got ${describeValue(valueAt(input, issue.path))}`,
          },
        ]
      }
      return [
        { path, rule: 'variant', message: `does not match any accepted shape: got ${describeValue(got)}` },
      ]
    }
    case 'invalid_format':
      return [{ path, rule: 'format', message: `must be ${issue.format}: got ${describeValue(got)}` }]
    case 'custom':
      return [{ path, rule: ruleOf(issue), message: issue.message }]
    case 'invalid_key':
    case 'invalid_element': {
      // The wrapper says only "Invalid key in record"; the inner issue carries the rule that was broken.
      const inner = issue.issues[0]
      if (inner?.code === 'custom') {
        return [{ path, rule: ruleOf(inner), message: `${inner.message}: got ${describeValue(got)}` }]
      }
      return [
        { path, rule: issue.code, message: `${inner?.message ?? issue.message}: got ${describeValue(got)}` },
      ]
    }
    case 'not_multiple_of':
      return [{ path, rule: issue.code, message: issue.message }]
  }
}

function ruleOf(issue: z.core.$ZodIssueCustom): string {
  const rule: unknown = issue.params?.['rule']
  return typeof rule === 'string' ? rule : 'invalid'
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a'
}

function boundText(origin: string, relation: 'at least' | 'at most', bound: number | bigint): string {
  switch (origin) {
    case 'string':
      return Number(bound) === 1 && relation === 'at least'
        ? 'must not be empty'
        : `must have ${relation} ${bound} characters`
    case 'array':
      return `must have ${relation} ${bound} items`
    default:
      return `must be ${relation === 'at least' ? '≥' : '≤'} ${describeValue(Number(bound))}`
  }
}

function sizeOf(value: unknown): string {
  if (typeof value === 'string') {
    return `${value.length} characters`
  }
  if (Array.isArray(value)) {
    return `${value.length} items`
  }
  return describeValue(value)
}

function valueAt(input: unknown, path: Path): unknown {
  let current = input
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) {
      return undefined
    }
    current = (current as Record<PropertyKey, unknown>)[segment]
  }
  return current
}

/** Walks the schema along `path` (following the input through unions) and lists the object's field names. */
function objectKeysAt(root: z.ZodType, path: Path, input: unknown): string[] | undefined {
  let schema: z.core.$ZodType | undefined = root
  let value = input
  for (const segment of [...path, undefined]) {
    schema = unwrap(schema, value)
    if (schema === undefined) {
      return undefined
    }
    if (segment === undefined) {
      break
    }
    const def = schema._zod.def as unknown as Record<string, unknown>
    if (def['type'] === 'object') {
      schema = (def['shape'] as Record<string, z.core.$ZodType>)[String(segment)]
    } else if (def['type'] === 'array') {
      schema = def['element'] as z.core.$ZodType
    } else if (def['type'] === 'record') {
      schema = def['valueType'] as z.core.$ZodType
    } else {
      return undefined
    }
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<PropertyKey, unknown>)[segment]
        : undefined
  }
  const def = schema?._zod.def as unknown as Record<string, unknown> | undefined
  return def?.['type'] === 'object' ? Object.keys(def['shape'] as object) : undefined
}

function unwrap(schema: z.core.$ZodType | undefined, value: unknown): z.core.$ZodType | undefined {
  let current = schema
  for (let depth = 0; current !== undefined && depth < 16; depth++) {
    const def = current._zod.def as unknown as Record<string, unknown>
    switch (def['type']) {
      case 'default':
      case 'prefault':
      case 'nullable':
      case 'optional':
      case 'readonly':
        current = def['innerType'] as z.core.$ZodType
        continue
      case 'pipe':
        current = def['in'] as z.core.$ZodType
        continue
      case 'union': {
        const options = def['options'] as z.core.$ZodType[]
        current = options.find((option) => matchesDiscriminant(option, value))
        continue
      }
      default:
        return current
    }
  }
  return current
}

/** For discriminated unions: the option whose literal `type` (or other literal field) equals the input's. */
function matchesDiscriminant(option: z.core.$ZodType, value: unknown): boolean {
  const def = option._zod.def as unknown as Record<string, unknown>
  if (def['type'] !== 'object' || typeof value !== 'object' || value === null) {
    return false
  }
  const shape = def['shape'] as Record<string, z.core.$ZodType>
  return Object.entries(shape).some(([key, field]) => {
    const fieldDef = field._zod.def as unknown as Record<string, unknown>
    return (
      fieldDef['type'] === 'literal' &&
      (fieldDef['values'] as unknown[]).includes((value as Record<string, unknown>)[key])
    )
  })
}
