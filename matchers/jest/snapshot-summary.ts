import type { RunnerMatcherState, SnapshotCount } from '../../src/front-end.js'

/**
 * Counts authority assertions in Jest's snapshot summary, like snapshots. Jest keeps plain numbers, which it
 * cannot undo on a retry: REA keeps what each attempt of the running test counted and takes it back when
 * jest-circus retries the test (`retryAttempt`), so a mismatch is counted as a failed snapshot ("1 failed", never
 * hidden behind another test's "1 passed") and a retry that passes does not fail the run.
 */
export class JestSnapshotCounts {
  /** What each test's latest attempt counted; jest-circus defers retries until its other tests have run. */
  readonly #byTest = new WeakMap<object, { counters: Record<string, unknown>; counts: SnapshotCount[] }>()
  #current: object | undefined

  count(state: RunnerMatcherState, count: SnapshotCount): void {
    const counters = state.snapshotState as Record<string, unknown> | undefined
    const counter = counters?.[count]
    if (counters === undefined || typeof counter !== 'number') {
      return
    }
    counters[count] = counter + 1
    if (this.#current !== undefined) {
      const attempt = this.#byTest.get(this.#current) ?? { counters, counts: [] }
      attempt.counts.push(count)
      this.#byTest.set(this.#current, attempt)
    }
  }

  /** An attempt of `test` starts running (jest-circus's test object). */
  testStarted(test: object | undefined): void {
    this.#current = test
  }

  /** `test` is about to run again: what its failed attempt counted no longer stands. */
  retryAttempt(test: object | undefined): void {
    const attempt = test === undefined ? undefined : this.#byTest.get(test)
    if (test === undefined || attempt === undefined) {
      return
    }
    this.#byTest.delete(test)
    for (const count of attempt.counts) {
      const counter = attempt.counters[count]
      if (typeof counter === 'number') {
        attempt.counters[count] = counter - 1
      }
    }
  }
}
