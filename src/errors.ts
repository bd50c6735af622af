import { escapeControlCharacters } from './internal/escape-controls.js'

/** Every way REA itself can fail; a failing target is never one of these, it is Evidence. */
export type ReaErrorCode =
  | 'INVALID_SCENARIO'
  | 'INVALID_EVIDENCE'
  | 'EVIDENCE_DIGEST_MISMATCH'
  | 'UNSUPPORTED_EVIDENCE_VERSION'
  | 'CONTRACT_MISMATCH'
  | 'INVALID_TRACE_SPEC'
  | 'INVALID_ARGUMENTS'
  | 'CAPABILITY_UNAVAILABLE'
  /** A finished document could not be written where it was asked for (a full disk, a closed terminal). */
  | 'OUTPUT_FAILED'
  /** A test fixture ended a capture before the test runner's own timeout would end the test. */
  | 'TEST_TIMEOUT'
  | 'INTERNAL'

/** One problem found in an input, named by its field path and the rule it broke. */
export interface ReaIssue {
  /** Dotted path with array indexes, e.g. `events[3].columns`; empty for the whole input. */
  readonly path: string
  /** Stable rule identifier, e.g. `cell_budget`, `event_order`, `unknown_key`. */
  readonly rule: string
  readonly message: string
}

const REA_ERROR_BRAND = Symbol.for('rea.error')

export interface ReaErrorOptions {
  readonly issues?: readonly ReaIssue[]
  readonly cause?: unknown
  /** What the user can do about it, printed after the message. */
  readonly hint?: string
}

/**
 * The only error REA throws. Check it with {@link isReaError}, not `instanceof`.
 *
 * @example
 * try { await captureProcess(scenario) } catch (error) {
 *   if (isReaError(error) && error.code === 'INVALID_SCENARIO') console.error(error.issues)
 * }
 */
export class ReaError extends Error {
  readonly code: ReaErrorCode
  readonly issues: readonly ReaIssue[]
  readonly hint: string | undefined

  constructor(code: ReaErrorCode, message: string, options: ReaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.issues = options.issues ?? []
    this.hint = options.hint
    Object.defineProperty(this, REA_ERROR_BRAND, { value: true })
  }
}

Object.defineProperty(ReaError.prototype, 'name', { value: 'ReaError', enumerable: false })

/** Unlike `instanceof`, this works across realms (Vitest workers, VM contexts, duplicate installs). */
export function isReaError(value: unknown): value is ReaError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[REA_ERROR_BRAND] === true
  )
}

/**
 * Renders an error and its issues as the one paragraph the CLI and MCP server print. Messages quote input
 * (paths, keys, values, JSON excerpts), so control characters in them are made visible: printed raw, an ESC
 * from a file could drive the reader's terminal.
 */
export function formatReaError(error: ReaError): string {
  const lines = [error.message]
  for (const issue of error.issues) {
    const where = issue.path === '' ? '(input)' : issue.path
    lines.push(`  - ${where}: ${issue.message} [${issue.rule}]`)
  }
  if (error.hint !== undefined) {
    lines.push(error.hint)
  }
  return escapeControlCharacters(lines.join('\n'))
}
