import { ReaError } from '../errors.js'
import { describeCondition, ms } from '../evidence/describe-run.js'
import { waitingAtEnd } from '../evidence/run-flaws.js'
import type { Evidence } from '../evidence/schema.js'
import { lastScreen, screenBox } from '../evidence/screen-text.js'

/**
 * A capture made through a test fixture must end before the test runner's own per-test timeout: the runner's
 * "Test timed out in 5000ms" says nothing of the event that waited, while REA knows which one, for what, since
 * when, and what the screen showed. The fixtures end the capture this long before the runner would end the test
 * (a fifth of the timeout, between 250 ms and 1 s), which leaves time to clean up, assemble the Evidence and
 * fail the test with REA's message.
 */
export function runnerTimeoutMarginMs(timeoutMs: number): number {
  return Math.min(1000, Math.max(250, Math.round(timeoutMs * 0.2)))
}

/**
 * When (on `performance.now()`'s clock) the fixture ends captures of a test that started at `startMs` with the
 * runner's `timeoutMs`; null when the test has no timeout (0 or infinite).
 */
export function runnerDeadlineMs(startMs: number, timeoutMs: number | undefined): number | null {
  if (timeoutMs === undefined || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    return null
  }
  return startMs + timeoutMs - runnerTimeoutMarginMs(timeoutMs)
}

export interface RunnerTimeout {
  /** `Vitest`, `Jest`. */
  readonly runner: string
  readonly timeoutMs: number
}

/**
 * The error a fixture's capture rejects with when it was ended before the runner's timeout: which event was
 * waiting, for what and since when (or that none was), the last screen, and what to change.
 */
export function captureEndedBeforeTimeout(evidence: Evidence, timeout: RunnerTimeout): ReaError {
  const waiting = waitingAtEnd(evidence)
  const contract = evidence.commitments.comparison_contract.value
  const what =
    waiting === null
      ? `the command was still running after ${ms(evidence.duration_ms)}, and no event was waiting`
      : `event ${waiting.event_index} (${waiting.type}) was still waiting for ${waiting.condition === null ? 'its condition' : describeCondition(waiting.condition)}, since ${waiting.since_ms === 0 ? 'launch' : ms(waiting.since_ms)} (${ms(waiting.ended_at_ms - waiting.since_ms)} before REA ended the run)`
  const screen = lastScreen(evidence)
  const lines = [
    `REA ended this capture ${ms(runnerTimeoutMarginMs(timeout.timeoutMs))} before ${timeout.runner}'s ${ms(timeout.timeoutMs)} test timeout: ${what}.`,
    ...(screen === null ? ['No screen was rendered.'] : screenBox(screen, 'Last screen')),
    `The scenario's own timeout_ms is ${ms(contract.timeout_ms)}. Fix what the event waits for, give the test more time, or lower timeout_ms (or a wait's within_ms) below the test's timeout.`,
  ]
  return new ReaError('TEST_TIMEOUT', lines.join('\n'))
}
