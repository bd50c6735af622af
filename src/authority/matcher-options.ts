import type { TerminalLevel, TimingPolicy } from '../compare/comparison-schema.js'
import { terminalLevelIssues } from '../compare/terminal/level.js'
import { timingPolicyIssues } from '../compare/timing.js'
import { ReaError, type ReaIssue } from '../errors.js'
import { isPlainObject, objectIssues } from '../internal/plain-object.js'
import { describeValue } from '../internal/zod-issues.js'

/**
 * Options of `toMatchCapture` and `toSatisfyTrace`, given to one assertion or once for the project
 * (`configureRea` in a setup file).
 */
export interface MatcherOptions {
  /**
   * How timing values count in the comparison: `'tolerant'`, `'strict'`, `'ignore'` or
   * `{ tolerance_ms, ratio }`. Default {@link MATCHER_TIMING_DEFAULT}.
   */
  readonly timing?: TimingPolicy
  /**
   * Record an authority even from a capture that did not run as its scenario expects: a wait that was never
   * met, a cancelled capture, or `timeout_ms`/`idle_timeout_ms` ending a scenario without `finalization_ms`.
   * Default false: such a capture fails the assertion instead of becoming an authority that proves nothing.
   */
  readonly recordUnfinished?: boolean
  /**
   * Unknowns, by their reason code as the Evidence spells it (`'unrelated_process_unverified'`), that an authority
   * may be recorded with. Default none: a capture carrying any unknown is not written as an authority, since
   * every later comparison with it would be unknown (docs/authority-files.md#unknowns).
   */
  readonly acceptUnknowns?: readonly string[]
  /**
   * How the terminal is compared: `'stream'` (default), the normalized output byte for byte and the checkpoint
   * frames as recorded; `'screens'`, what every checkpoint screen shows, cell by cell, for programs that draw the
   * same screens in a timing-dependent order (docs/comparison.md#comparing-screens).
   */
  readonly terminal?: TerminalLevel
}

/**
 * The matchers' timing policy unless a test or the project says otherwise: `tolerant`, the same default as the
 * CLI and MCP, so `rea compare-process-captures` on a failing test's two files gives the test's verdict. Two
 * times differ only when they are more than 500 ms apart and one is more than four times the other. Every
 * difference that is not a time still fails. See docs/authority-files.md.
 */
export const MATCHER_TIMING_DEFAULT: TimingPolicy = 'tolerant'

const OPTION_NAMES = ['timing', 'recordUnfinished', 'acceptUnknowns', 'terminal']

/** The problems of matcher options given from outside; `path` names them (`options`, `configureRea`). */
export function matcherOptionsIssues(value: unknown, path: string): ReaIssue[] {
  if (value === undefined) {
    return []
  }
  if (!isPlainObject(value)) {
    return objectIssues(value, path, "an object such as { timing: 'strict' } or { terminal: 'screens' }")
  }
  const issues: ReaIssue[] = []
  for (const [name, option] of Object.entries(value)) {
    if (!OPTION_NAMES.includes(name)) {
      issues.push({
        path: `${path}.${name}`,
        rule: 'unknown_key',
        message: `is not an option (valid: ${OPTION_NAMES.join(', ')})`,
      })
    } else if (name === 'acceptUnknowns') {
      if (
        option !== undefined &&
        (!Array.isArray(option) || option.some((reason) => typeof reason !== 'string' || reason === ''))
      ) {
        issues.push({
          path: `${path}.${name}`,
          rule: 'type',
          message: `must be a list of reason codes, such as ['unrelated_process_unverified']: got ${describeValue(option)}`,
        })
      }
    } else if (name === 'recordUnfinished') {
      if (option !== undefined && typeof option !== 'boolean') {
        issues.push({
          path: `${path}.${name}`,
          rule: 'type',
          message: `must be true or false: got ${typeof option}`,
        })
      }
    } else if (option !== undefined) {
      issues.push(
        ...(name === 'timing'
          ? timingPolicyIssues(option, `${path}.${name}`)
          : terminalLevelIssues(option, `${path}.${name}`)),
      )
    }
  }
  return issues
}

/** Project-wide options, checked when they are set so that a typo fails the setup file, not every test. */
export function parseMatcherOptions(value: unknown, subject: string): MatcherOptions {
  const issues = matcherOptionsIssues(value, subject)
  if (issues.length > 0) {
    // Runners print only the message of an error thrown in a setup file: it names every problem itself.
    const details = issues.map((issue) => `\n  - ${issue.path}: ${issue.message}`).join('')
    throw new ReaError('INVALID_ARGUMENTS', `${subject}: the options are not valid:${details}`)
  }
  const { timing, recordUnfinished, acceptUnknowns, terminal } = (value as MatcherOptions | undefined) ?? {}
  return {
    ...(timing === undefined ? {} : { timing }),
    ...(recordUnfinished === undefined ? {} : { recordUnfinished }),
    ...(acceptUnknowns === undefined ? {} : { acceptUnknowns: [...acceptUnknowns] }),
    ...(terminal === undefined ? {} : { terminal }),
  }
}
