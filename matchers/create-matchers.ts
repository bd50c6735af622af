import pc from 'picocolors'
import {
  type AssertionCaptures,
  type AssertionRecord,
  badAuthorityArgument,
  captureAssertionRecord,
  captureMatchResult,
  errorMessage,
  escapeControlCharacters,
  type Evidence,
  invalidMatcherOptions,
  junitAttachmentLines,
  locationInTestFile,
  matchCapture,
  MATCHER_TIMING_DEFAULT,
  type MatcherOptions,
  matcherOptionsIssues,
  matchTrace,
  obsoleteHintWithoutReporter,
  type RecordContext,
  type SnapshotCount,
  traceAssertionRecord,
  updateModeOf,
} from '../src/front-end.js'
import { projectOptions } from './project-options.js'

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

/**
 * Numbers `toMatchCapture()` calls like snapshot keys: per test name within a file, so two tests with the same
 * name get `1` and `2` as Vitest's snapshots do, and a retried or repeated test starts again from its own
 * first number instead of writing new files.
 */
export class AssertionCounter {
  readonly #usedByName = new Map<string, number>()
  readonly #byTask = new WeakMap<object, { attempt: string; base: number; count: number }>()

  next(state: RunnerMatcherState): number {
    const key = `${state.testPath ?? ''}\0${state.currentTestName ?? ''}`
    const task = state.task
    if (task === undefined) {
      // Jest has no task object: numbering restarts for every test (see resetNames).
      const count = (this.#usedByName.get(key) ?? 0) + 1
      this.#usedByName.set(key, count)
      return count
    }
    const attempt = `${task.result?.retryCount ?? 0}:${task.result?.repeatCount ?? 0}`
    let entry = this.#byTask.get(task)
    if (entry === undefined) {
      entry = { attempt, base: this.#usedByName.get(key) ?? 0, count: 0 }
    } else if (entry.attempt !== attempt) {
      entry = { attempt, base: entry.base, count: 0 }
    }
    entry.count++
    this.#byTask.set(task, entry)
    this.#usedByName.set(key, Math.max(this.#usedByName.get(key) ?? 0, entry.base + entry.count))
    return entry.base + entry.count
  }

  /** Jest: called before each test, which has no task object to tell a retry from the next test. */
  resetNames(): void {
    this.#usedByName.clear()
  }
}

/**
 * The authority files each test file's assertions read or wrote in this process: the obsolete-authority check
 * needs them, per test file, once the file has run (retries and repeats add to the same set).
 */
export class UsedAuthorities {
  readonly #byTestFile = new Map<string, Set<string>>()

  add(testPath: string, file: string): void {
    let files = this.#byTestFile.get(testPath)
    if (files === undefined) {
      files = new Set()
      this.#byTestFile.set(testPath, files)
    }
    files.add(file)
  }

  /** The files used by the test file's assertions, sorted; empty when none used a file. */
  of(testPath: string): string[] {
    return [...(this.#byTestFile.get(testPath) ?? [])].sort()
  }
}

/**
 * Obsolete authorities are found by REA's reporter only. When a test file ends in a `-u` run without it, and its
 * `__captures__` folder holds authorities the file did not use, one line says so instead of leaving the user to
 * wonder why `-u` kept them.
 */
export function hintWithoutReporter(
  testPath: string | undefined,
  used: UsedAuthorities,
  snapshotState: unknown,
  reporter: string,
  root: string,
): void {
  if (testPath === undefined || updateModeOf(snapshotState) !== 'all') {
    return
  }
  try {
    const hint = obsoleteHintWithoutReporter(testPath, used.of(testPath), reporter, root)
    if (hint !== null) {
      process.stderr.write(`${hint}\n`)
    }
  } catch (error) {
    // A hint must never fail a test file.
    process.stderr.write(`rea: ${errorMessage(error)}\n`)
  }
}

/**
 * `toMatchCapture(authority?, options?)`, and `toMatchCapture(options)` for the default file: an object without
 * Evidence's `format` field is the options.
 */
function captureArguments(first: unknown, second: unknown): { authority: unknown; options: unknown } {
  const isOptions =
    second === undefined &&
    typeof first === 'object' &&
    first !== null &&
    !Array.isArray(first) &&
    !('format' in first)
  return isOptions ? { authority: undefined, options: first } : { authority: first, options: second }
}

/** The policy an assertion uses: its own option, else the project's (`configureRea`), else the default. */
function timingOf(options: MatcherOptions | undefined) {
  return options?.timing ?? projectOptions().timing ?? MATCHER_TIMING_DEFAULT
}

/** Whether an unfinished run may be recorded: the assertion's option, else the project's, else no. */
function recordUnfinishedOf(options: MatcherOptions | undefined): boolean {
  return options?.recordUnfinished ?? projectOptions().recordUnfinished ?? false
}

/** Likewise the terminal comparison level; the stream unless a test or the project asks for screens. */
function terminalOf(options: MatcherOptions | undefined) {
  return options?.terminal ?? projectOptions().terminal ?? 'stream'
}

function isAuthorityArgument(value: unknown): value is string | Evidence | undefined {
  return (
    value === undefined ||
    (typeof value === 'string' && value !== '') ||
    (typeof value === 'object' && value !== null)
  )
}

function requireTest(state: RunnerMatcherState, matcher: string): { testPath: string; testName: string } {
  if (state.testPath === undefined || state.currentTestName === undefined) {
    throw new Error(
      `${matcher}() must be called inside a test: it keeps its authority next to the test file.`,
    )
  }
  return { testPath: state.testPath, testName: state.currentTestName }
}

/** Where the assertion is written: the first frame in the test file, past the runner's matcher wrappers. */
function assertionLocation(testPath: string) {
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
function report(
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
function failedAsWritten(state: RunnerMatcherState, pass: boolean): boolean {
  return pass === (state.isNot === true)
}

/** What the matchers share across a test file: the runner, the two counters and the authority files used. */
interface MatcherDeps {
  readonly adapter: RunnerAdapter
  readonly counter: AssertionCounter
  readonly entries: AssertionCounter
  readonly used: UsedAuthorities
}

/**
 * The matcher functions given to `expect.extend`, for either runner. `counter` numbers default authority
 * files; `entries` numbers every capture assertion of a test for the report folder.
 */
export function createMatchers(
  adapter: RunnerAdapter,
  counter: AssertionCounter,
  entries: AssertionCounter,
  used: UsedAuthorities = new UsedAuthorities(),
) {
  const deps: MatcherDeps = { adapter, counter, entries, used }
  // Each matcher is its body, with no wrapper frame: Vitest places an annotation by the stack of the call that
  // made it, within its stack trace limit, and the test file's frame must stay inside it.
  return { toMatchCapture: matchCaptureWith(deps), toSatisfyTrace: satisfyTraceWith(deps) }
}

/** Where an assertion's record goes in the report: the project, the attempt, the test and its entry number. */
function recordContext(
  deps: MatcherDeps,
  state: RunnerMatcherState,
  testPath: string,
  testName: string,
): RecordContext {
  return {
    project: deps.adapter.project(),
    attempt: {
      retry: state.task?.result?.retryCount ?? 0,
      repeat: state.task?.result?.repeatCount ?? 0,
    },
    testFile: testPath,
    testName,
    entry: deps.entries.next(state),
    location: assertionLocation(testPath),
    negated: state.isNot === true,
  }
}

/** `toMatchCapture(authority?, options?)`: compares with an authority file or Evidence, or records one. */
function matchCaptureWith(deps: MatcherDeps) {
  return function toMatchCapture(
    this: RunnerMatcherState,
    received: unknown,
    first?: unknown,
    second?: unknown,
  ) {
    const { adapter } = deps
    const { testPath, testName } = requireTest(this, 'toMatchCapture')
    const { authority, options } = captureArguments(first, second)
    const optionIssues = matcherOptionsIssues(options, 'options')
    if (!isAuthorityArgument(authority) || optionIssues.length > 0) {
      // Called from JavaScript with something else: say so instead of failing deep inside.
      const message = isAuthorityArgument(authority)
        ? invalidMatcherOptions('toMatchCapture(authority, options)', optionIssues)
        : badAuthorityArgument(typeof authority === 'string' ? 'an empty string' : typeof authority)
      const pass = this.isNot === true
      report(adapter, this, true, {}, () =>
        captureAssertionRecord(
          recordContext(deps, this, testPath, testName),
          captureMatchResult(pass, message),
          null,
          null,
        ),
      )
      return { pass, message: () => message }
    }
    const result = matchCapture({
      received,
      authority,
      testPath,
      testName,
      assertion: authority === undefined ? deps.counter.next(this) : 0,
      updateMode: updateModeOf(this.snapshotState),
      isNot: this.isNot === true,
      updateCommand: adapter.updateCommand,
      root: adapter.root(),
      color: pc.isColorSupported,
      timing: timingOf(options as MatcherOptions | undefined),
      recordUnfinished: recordUnfinishedOf(options as MatcherOptions | undefined),
      terminal: terminalOf(options as MatcherOptions | undefined),
    })
    if (result.authorityPath !== null) {
      deps.used.add(testPath, result.authorityPath)
    }
    for (const warning of result.warnings) {
      process.stderr.write(`${warning}\n`)
    }
    if (result.count !== null) {
      adapter.countSnapshot(this, result.count)
    }
    report(
      adapter,
      this,
      failedAsWritten(this, result.pass),
      { received: result.received, authority: result.authorityEvidence },
      () =>
        captureAssertionRecord(
          recordContext(deps, this, testPath, testName),
          result,
          result.received,
          result.authorityEvidence,
        ),
    )
    return {
      pass: result.pass,
      message: () => result.message,
      ...(result.actual === undefined ? {} : { actual: result.actual, expected: result.expected }),
    }
  }
}

/** `toSatisfyTrace(spec, options?)`: checks the capture's journal against a trace specification. */
function satisfyTraceWith(deps: MatcherDeps) {
  return function toSatisfyTrace(
    this: RunnerMatcherState,
    received: unknown,
    spec: unknown,
    options?: unknown,
  ) {
    const { testPath, testName } = requireTest(this, 'toSatisfyTrace')
    // A trace never reads times, so `timing` changes nothing here; it is checked so that a typo still shows.
    const optionIssues = matcherOptionsIssues(options, 'options')
    if (optionIssues.length > 0) {
      return {
        pass: this.isNot === true,
        message: () => invalidMatcherOptions('toSatisfyTrace(spec, options)', optionIssues),
      }
    }
    const result = matchTrace({ received, spec, testPath, isNot: this.isNot === true })
    report(deps.adapter, this, failedAsWritten(this, result.pass), { received: result.received }, () =>
      traceAssertionRecord(recordContext(deps, this, testPath, testName), result, result.received),
    )
    return { pass: result.pass, message: () => result.message }
  }
}
