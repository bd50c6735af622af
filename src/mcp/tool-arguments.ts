import { ReaError, type ReaIssue } from '../errors.js'

/**
 * Checks for the few wrapper arguments the tools add around REA documents (`output_path`, `authority`, …).
 * The documents themselves are validated by the same functions the CLI uses, so their messages are the CLI's;
 * these issues use the same rule names (`required`, `type`, `unknown_field`, `choice`, `minimum`).
 */
export type ToolArguments = Readonly<Record<string, unknown>>

export function unknownFieldIssues(args: ToolArguments, fields: readonly string[]): ReaIssue[] {
  return Object.keys(args)
    .filter((key) => !fields.includes(key))
    .map((key) => ({
      path: key,
      rule: 'unknown_field',
      message:
        fields.length === 0
          ? 'is not a known field; this tool takes no arguments'
          : `is not a known field; valid fields here: ${fields.join(', ')}`,
    }))
}

export function requiredIssue(path: string): ReaIssue {
  return { path, rule: 'required', message: 'is required' }
}

/** A non-empty string without NUL, or an issue. */
export function pathIssues(path: string, value: unknown): ReaIssue[] {
  if (value === undefined) {
    return [requiredIssue(path)]
  }
  if (typeof value !== 'string') {
    return [{ path, rule: 'type', message: `must be a string (a file path): got ${describeArgument(value)}` }]
  }
  if (value === '') {
    return [{ path, rule: 'minimum', message: 'must be a non-empty path' }]
  }
  if (value.includes('\0')) {
    return [{ path, rule: 'no_nul', message: 'a path may not contain a NUL character' }]
  }
  return []
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function describeArgument(value: unknown): string {
  if (value === undefined) {
    return 'nothing'
  }
  if (Array.isArray(value)) {
    return `an array of ${value.length}`
  }
  if (isRecord(value)) {
    return 'an object'
  }
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

export function invalidArguments(tool: string, issues: readonly ReaIssue[], consequence: string): ReaError {
  const count = issues.length
  return new ReaError(
    'INVALID_ARGUMENTS',
    `Invalid arguments for ${tool} (${count} ${count === 1 ? 'problem' : 'problems'}); ${consequence}:`,
    { issues },
  )
}
