import { escapeControlCharacters } from '../internal/escape-controls.js'
import { errorMessage } from '../internal/error-message.js'
import type { AssertionCaptures } from '../report/assertion-page.js'
import { locationInTestFile, type AssertionRecord } from '../report/assertion-record.js'
import { junitAttachmentLines } from '../report/junit-attachments.js'
import type { RunnerAdapter, RunnerMatcherState } from './runner-adapter.js'

/** Where the assertion is written: the first frame in the test file, past the runner's matcher wrappers. */
export function assertionLocation(testPath: string) {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 50
  try {
    return locationInTestFile(testPath, new Error('location').stack)
  } finally {
    Error.stackTraceLimit = limit
  }
}

/**
 * Hands the assertion to the reporter and, when it failed, to the runner's failure hook. Neither may change the
 * assertion's outcome: their failures are warnings. The record is built at most once (it numbers the entry).
 */
export function report(
  adapter: RunnerAdapter,
  state: RunnerMatcherState,
  failed: boolean,
  captures: AssertionCaptures,
  build: () => AssertionRecord,
): void {
  let record: AssertionRecord | undefined
  const once = (): AssertionRecord => (record ??= build())
  try {
    if (adapter.recording()) {
      adapter.record(state, once())
      const lines = junitAttachmentLines(once())
      if (lines.length > 0) {
        console.log(lines.join('\n'))
      }
    }
  } catch (error) {
    warnMatcher('could not record this assertion for the reporter', error)
  }
  try {
    if (failed && adapter.failed !== undefined) {
      adapter.failed(state, once(), captures)
    }
  } catch (error) {
    warnMatcher('could not annotate this failure', error)
  }
}

function warnMatcher(what: string, error: unknown): void {
  process.stderr.write(`rea: ${what}: ${escapeControlCharacters(errorMessage(error))}\n`)
}

/** The runner inverts `pass` for `.not`: the assertion fails when `pass` equals `isNot`. */
export function failedAsWritten(state: RunnerMatcherState, pass: boolean): boolean {
  return pass === (state.isNot === true)
}
