import type { RunnerMatcherState, SnapshotCount } from '../../src/front-end.js'

/**
 * Counts an authority assertion in Vitest's snapshot summary, like a snapshot. Vitest keeps a CounterMap per
 * summary field, keyed by test id, so a retry clears what the failed attempt counted.
 */
export function countVitestSnapshot(state: RunnerMatcherState, count: SnapshotCount): void {
  const counter = (state.snapshotState as Partial<Record<SnapshotCount, unknown>> | undefined)?.[count]
  if (typeof counter === 'object' && counter !== null && 'increment' in counter) {
    ;(counter as { increment(key: string): void }).increment(state.task?.id ?? state.currentTestName ?? '')
  }
}
