import type { SnapshotCount } from '../src/host.js'
import type { RunnerMatcherState } from './create-matchers.js'

/**
 * How each runner keeps its snapshot summary, for authority assertions to count in it like snapshots.
 *
 * Vitest keeps a CounterMap per summary field, keyed by test id, so a retry clears what the failed attempt
 * counted.
 */
export function countVitestSnapshot(state: RunnerMatcherState, count: SnapshotCount): void {
  const counter = (state.snapshotState as Partial<Record<SnapshotCount, unknown>> | undefined)?.[count]
  if (typeof counter === 'object' && counter !== null && 'increment' in counter) {
    ;(counter as { increment(key: string): void }).increment(state.task?.id ?? state.currentTestName ?? '')
  }
}

/**
 * Jest keeps plain numbers it cannot undo on a retry, so a mismatch is not counted there (the failing test
 * already says so) and a retry that passes does not fail the run.
 */
export function countJestSnapshot(state: RunnerMatcherState, count: SnapshotCount): void {
  const counters = state.snapshotState as Partial<Record<SnapshotCount, unknown>> | undefined
  const counter = counters?.[count]
  if (counters !== undefined && typeof counter === 'number' && count !== 'unmatched') {
    counters[count] = counter + 1
  }
}
