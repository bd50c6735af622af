import {
  type CaptureProcessOptions,
  type Evidence,
  type ProcessScenarioInput,
  RunnerDeadline,
  TestCaptures,
} from '../../src/front-end.js'
import { runningTestFunction } from './circus.js'
import { jestRoot } from './root.js'

/** The captures of this test file's tests, cancelled after each test and again when the file ends. */
const captures = new TestCaptures({ root: jestRoot })

/**
 * `captureProcess` for Jest tests: the capture root is Jest's rootDir; a capture still running shortly before
 * its test's timeout is ended, and rejects with REA's account of what it waited for (instead of Jest's bare
 * "Exceeded timeout"); one still running when its test ends is cancelled and waited for, so no process outlives
 * the test.
 */
export function captureProcess(
  scenario: ProcessScenarioInput,
  options: Omit<CaptureProcessOptions, 'root'> = {},
): Promise<Evidence> {
  const testFunction = runningTestFunction()
  const deadline = new RunnerDeadline(
    'Jest',
    testFunction?.startMs ?? performance.now(),
    testFunction?.timeoutMs,
  )
  return captures.start(scenario, options, deadline)
}

/** Cancels the captures still running when their test ends (it failed or timed out first), and awaits them. */
export function cancelPendingCaptures(): Promise<void> {
  return captures.cancelPending()
}
