import pc from 'picocolors'
import { matchCapture, type SnapshotCount } from '../src/authority/match-capture.js'
import { matchTrace } from '../src/authority/match-trace.js'
import { updateModeOf } from '../src/authority/update-mode.js'
import type { Evidence } from '../src/evidence/schema.js'

/** The parts of a matcher's `this` both runners provide (Vitest `MatcherState`, Jest `MatcherContext`). */
export interface RunnerMatcherState {
  readonly isNot?: boolean
  readonly testPath?: string | undefined
  readonly currentTestName?: string | undefined
  readonly snapshotState?: unknown
  /** Vitest ≥ 4.1 only. */
  readonly task?: { readonly result?: { readonly retryCount?: number } } | undefined
}

export interface RunnerAdapter {
  /** Shown in failure messages: how to re-record authorities. */
  readonly updateCommand: string
  /** The runner's root: the capture root inside tests and the base of paths in messages. */
  readonly root: () => string
}

/** Counts `toMatchCapture()` calls per test, like snapshot keys, so each assertion has its own file. */
export class AssertionCounter {
  readonly #byTask = new WeakMap<object, { retry: number; count: number }>()
  readonly #byName = new Map<string, number>()

  next(state: RunnerMatcherState): number {
    const task = state.task
    if (task !== undefined) {
      // A retried test starts its assertions from 1 again.
      const retry = task.result?.retryCount ?? 0
      const entry = this.#byTask.get(task)
      const count = entry === undefined || entry.retry !== retry ? 1 : entry.count + 1
      this.#byTask.set(task, { retry, count })
      return count
    }
    const key = `${state.testPath ?? ''}\0${state.currentTestName ?? ''}`
    const count = (this.#byName.get(key) ?? 0) + 1
    this.#byName.set(key, count)
    return count
  }

  /** For runners without a task object: called before each test. */
  resetNames(): void {
    this.#byName.clear()
  }
}

/** Vitest keeps CounterMaps keyed by test name; Jest keeps plain numbers. */
function countSnapshot(snapshotState: unknown, count: SnapshotCount | null, testName: string): void {
  if (count === null || typeof snapshotState !== 'object' || snapshotState === null) {
    return
  }
  const state = snapshotState as Record<SnapshotCount, unknown>
  const counter = state[count]
  if (typeof counter === 'number') {
    state[count] = counter + 1
  } else if (typeof counter === 'object' && counter !== null && 'increment' in counter) {
    ;(counter as { increment(key: string): void }).increment(testName)
  }
}

function requireTest(state: RunnerMatcherState, matcher: string): { testPath: string; testName: string } {
  if (state.testPath === undefined || state.currentTestName === undefined) {
    throw new Error(
      `${matcher}() must be called inside a test: it keeps its authority next to the test file.`,
    )
  }
  return { testPath: state.testPath, testName: state.currentTestName }
}

/** The matcher functions given to `expect.extend`, for either runner. */
export function createMatchers(adapter: RunnerAdapter, counter: AssertionCounter) {
  return {
    toMatchCapture(this: RunnerMatcherState, received: unknown, authority?: string | Evidence) {
      const { testPath, testName } = requireTest(this, 'toMatchCapture')
      const result = matchCapture({
        received,
        authority,
        testPath,
        testName,
        assertion: authority === undefined ? counter.next(this) : 0,
        updateMode: updateModeOf(this.snapshotState),
        isNot: this.isNot === true,
        updateCommand: adapter.updateCommand,
        root: adapter.root(),
        color: pc.isColorSupported,
      })
      countSnapshot(this.snapshotState, result.count, testName)
      return {
        pass: result.pass,
        message: () => result.message,
        ...(result.actual === undefined ? {} : { actual: result.actual, expected: result.expected }),
      }
    },
    toSatisfyTrace(this: RunnerMatcherState, received: unknown, spec: unknown) {
      const { testPath } = requireTest(this, 'toSatisfyTrace')
      const result = matchTrace({ received, spec, testPath, isNot: this.isNot === true })
      return { pass: result.pass, message: () => result.message }
    },
  }
}
