import type { AssertionCaptures } from '../report/assertion-page.js'
import type { AssertionRecord } from '../report/assertion-record.js'
import type { SnapshotCount } from '../authority/match-capture.js'

/** The parts of a matcher's `this` both runners provide (Vitest `MatcherState`, Jest `MatcherContext`). */
export interface RunnerMatcherState {
  readonly isNot?: boolean
  readonly testPath?: string | undefined
  readonly currentTestName?: string | undefined
  readonly snapshotState?: unknown
  /** Vitest ≥ 4.1 only. */
  readonly task?:
    | {
        readonly id?: string
        readonly result?: { readonly retryCount?: number; readonly repeatCount?: number }
      }
    | undefined
}

/** What the matchers need from the runner that runs them: each runner's entry gives one. */
export interface RunnerAdapter {
  /** Shown in failure messages: how to re-record authorities. */
  readonly updateCommand: string
  /** The runner's root: the capture root inside tests and the base of paths in messages. */
  readonly root: () => string
  /** The runner project's name; empty when unnamed. */
  readonly project: () => string
  /** Whether assertions are recorded for a reporter at all: building a record serializes the Evidence. */
  readonly recording: () => boolean
  /** Hands each assertion's record to the reporter (Vitest: an artifact; Jest: a side file). */
  readonly record: (state: RunnerMatcherState, record: AssertionRecord) => void
  /** Called for each assertion that fails as written, with the captures it saw (Vitest: annotations). */
  readonly failed?: (state: RunnerMatcherState, record: AssertionRecord, captures: AssertionCaptures) => void
  /** Adds an authority assertion to the runner's snapshot summary, in that runner's own bookkeeping. */
  readonly countSnapshot: (state: RunnerMatcherState, count: SnapshotCount) => void
}
