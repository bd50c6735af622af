import type { Evidence } from '../evidence/schema.js'
import { MATCHER_TIMING_DEFAULT, type MatcherOptions } from '../authority/matcher-options.js'
import { projectOptions } from '../authority/project-options.js'
import type { RunnerMatcherState } from './runner-adapter.js'

/**
 * `toMatchCapture(authority?, options?)`, and `toMatchCapture(options)` for the default file: an object without
 * Evidence's `format` field is the options.
 */
export function captureArguments(first: unknown, second: unknown): { authority: unknown; options: unknown } {
  const isOptions =
    second === undefined &&
    typeof first === 'object' &&
    first !== null &&
    !Array.isArray(first) &&
    !('format' in first)
  return isOptions ? { authority: undefined, options: first } : { authority: first, options: second }
}

export function isAuthorityArgument(value: unknown): value is string | Evidence | undefined {
  return (
    value === undefined ||
    (typeof value === 'string' && value !== '') ||
    (typeof value === 'object' && value !== null)
  )
}

/** The policy an assertion uses: its own option, else the project's (`configureRea`), else the default. */
export function timingOf(options: MatcherOptions | undefined) {
  return options?.timing ?? projectOptions().timing ?? MATCHER_TIMING_DEFAULT
}

/** Whether an unfinished run may be recorded: the assertion's option, else the project's, else no. */
export function recordUnfinishedOf(options: MatcherOptions | undefined): boolean {
  return options?.recordUnfinished ?? projectOptions().recordUnfinished ?? false
}

/** The unknowns an authority may be recorded with: the assertion's and the project's reasons together. */
export function acceptUnknownsOf(options: MatcherOptions | undefined): readonly string[] {
  return [...(options?.acceptUnknowns ?? []), ...(projectOptions().acceptUnknowns ?? [])]
}

/** Likewise the terminal comparison level; the stream unless a test or the project asks for screens. */
export function terminalOf(options: MatcherOptions | undefined) {
  return options?.terminal ?? projectOptions().terminal ?? 'stream'
}

export function requireTest(
  state: RunnerMatcherState,
  matcher: string,
): { testPath: string; testName: string } {
  if (state.testPath === undefined || state.currentTestName === undefined) {
    throw new Error(
      `${matcher}() must be called inside a test: it keeps its authority next to the test file.`,
    )
  }
  return { testPath: state.testPath, testName: state.currentTestName }
}
