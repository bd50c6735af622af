import type {} from 'expect'
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import {
  type AssertionRecord,
  captureProcess as capture,
  type CaptureProcessOptions,
  checkObsoleteInFile,
  errorMessage,
  type Evidence,
  type MatcherOptions,
  type ProcessScenarioInput,
  REPORT_RECORDS_ENV,
  type TraceSpecInput,
  updateModeOf,
  USED_AUTHORITIES_EXTENSION,
  withTestDefaults,
  writeFileAtomicSync,
} from '../src/front-end.js'
import type { CaptureMatcher } from './capture-matcher.js'
import { AssertionCounter, createMatchers, hintWithoutReporter, UsedAuthorities } from './create-matchers.js'
import { projectOptions } from './project-options.js'
import { RunnerDeadline } from './runner-deadline.js'
import { JestSnapshotCounts } from './snapshot-summary.js'

/**
 * `rea/jest`: list it in `setupFilesAfterEnv` to register `toMatchCapture` and `toSatisfyTrace`; import
 * `captureProcess` from it for captures that are cancelled when their test ends.
 */

interface JestGlobals {
  readonly expect: { extend(matchers: object): void; getState(): unknown }
  readonly beforeEach: (fn: () => void) => void
  readonly afterEach: (fn: () => Promise<void>) => void
  readonly afterAll: (fn: () => Promise<void>) => void
}

const globals = globalThis as unknown as Partial<JestGlobals>
if (
  globals.expect === undefined ||
  globals.beforeEach === undefined ||
  globals.afterEach === undefined ||
  globals.afterAll === undefined
) {
  throw new Error(
    'rea/jest must be loaded by Jest with its globals (list it in setupFilesAfterEnv; injectGlobals must not be false).',
  )
}

/** Files that make a folder Jest's default `rootDir`: where its configuration lives. */
const ROOT_MARKERS = [
  'jest.config.js',
  'jest.config.cjs',
  'jest.config.mjs',
  'jest.config.ts',
  'jest.config.json',
  'package.json',
]

/**
 * Jest's `rootDir`. Jest does not expose its configuration to tests; its snapshot state keeps the root in the
 * private `_rootDir`. Without it: the nearest folder above the test file holding a Jest config file or a
 * package.json (how Jest picks its default), else the current directory.
 */
export function jestRoot(): string {
  const state = globals.expect?.getState() as
    { testPath?: string; snapshotState?: { _rootDir?: unknown } } | undefined
  const rootDir = state?.snapshotState?._rootDir
  if (typeof rootDir === 'string' && rootDir !== '') {
    return rootDir
  }
  return state?.testPath === undefined ? process.cwd() : nearestConfigRoot(state.testPath)
}

function nearestConfigRoot(file: string): string {
  for (let directory = path.dirname(file); ; directory = path.dirname(directory)) {
    if (ROOT_MARKERS.some((marker) => existsSync(path.join(directory, marker)))) {
      return directory
    }
    if (path.dirname(directory) === directory) {
      return process.cwd()
    }
  }
}

/**
 * Jest has no channel from a test to a reporter: with `rea/jest-reporter` configured, each assertion's record
 * is a side file in the folder the reporter named. Jest reloads this module for every test file in the same
 * worker, so names come from the process's monotonic clock, not a module counter: one worker's records sort
 * in the order they were written (a retried test's last attempt wins).
 */
function writeRecord(record: AssertionRecord): void {
  writeSideFile('.json', JSON.stringify(record))
}

function writeSideFile(extension: string, text: string): void {
  const recordsDir = process.env[REPORT_RECORDS_ENV]
  if (recordsDir === undefined || recordsDir === '') {
    return
  }
  mkdirSync(recordsDir, { recursive: true })
  const name = `${process.pid}-${process.hrtime.bigint().toString().padStart(20, '0')}${extension}`
  // Renamed into place whole: a worker killed meanwhile leaves no half record for the reporter to reject.
  writeFileAtomicSync(path.join(recordsDir, name), text)
}

/**
 * When the test file has run, the authority files its assertions used go to the reporter as one more side file,
 * which also says that REA's matchers saw the whole file; the reporter finds obsolete authorities with it.
 */
function writeUsedAuthorities(): void {
  const testPath = (globals.expect?.getState() as { testPath?: string } | undefined)?.testPath
  if (testPath === undefined) {
    return
  }
  try {
    writeSideFile(
      USED_AUTHORITIES_EXTENSION,
      JSON.stringify({ test_file: testPath, authorities: used.of(testPath) }),
    )
  } catch (error) {
    process.stderr.write(
      `rea: could not tell the reporter which authority files ${testPath} used: ${errorMessage(error)}\n`,
    )
  }
}

const counter = new AssertionCounter()
const entries = new AssertionCounter()
const used = new UsedAuthorities()
const snapshotCounts = new JestSnapshotCounts()
globals.expect.extend(
  createMatchers(
    {
      updateCommand: 'jest -u',
      root: jestRoot,
      project: () => '',
      recording: () => (process.env[REPORT_RECORDS_ENV] ?? '') !== '',
      record: (_, record) => writeRecord(record),
      countSnapshot: (state, count) => snapshotCounts.count(state, count),
    },
    counter,
    entries,
    used,
  ),
)

export { configureRea } from './project-options.js'

interface CircusEntry {
  readonly type: string
  readonly name: string
  readonly status?: string | null
  readonly errors?: readonly unknown[]
  readonly failing?: boolean
  readonly children?: readonly CircusEntry[]
}

/**
 * The tests of the running file from jest-circus's state (which it keeps on the test's global under a symbol),
 * by the full name authorities are named after (Jest joins describe blocks with a space); null when unreadable.
 */
function circusTests(): { name: string; complete: boolean }[] | null {
  const symbol = Object.getOwnPropertySymbols(globalThis).find(
    (candidate) => candidate.description === 'JEST_STATE_SYMBOL',
  )
  const state = symbol === undefined ? undefined : (globalThis as Record<symbol, unknown>)[symbol]
  const root = (state as { rootDescribeBlock?: CircusEntry } | undefined)?.rootDescribeBlock
  if (root?.children === undefined) {
    return null
  }
  const walk = (entries: readonly CircusEntry[], prefix: string): { name: string; complete: boolean }[] =>
    entries.flatMap((entry) => {
      const name = prefix === '' ? entry.name : `${prefix} ${entry.name}`
      return entry.type === 'describeBlock'
        ? walk(entry.children ?? [], name)
        : [
            {
              name,
              complete:
                entry.status === 'done' && (entry.errors?.length ?? 0) === 0 && entry.failing !== true,
            },
          ]
    })
  return walk(root.children, '')
}
globals.beforeEach(() => {
  counter.resetNames()
  entries.resetNames()
})

const pending = new Set<{ readonly controller: AbortController; readonly settled: Promise<unknown> }>()
async function cancelPending(): Promise<void> {
  const running = [...pending]
  for (const entry of running) {
    entry.controller.abort()
  }
  await Promise.all(running.map((entry) => entry.settled))
}
// Captures still running when their test ends (it failed or timed out first) are cancelled and awaited.
// Jest runs no afterEach for test.concurrent, so afterAll catches what those left at the end of the file.
globals.afterEach(cancelPending)
globals.afterAll(async () => {
  await cancelPending()
  if ((process.env[REPORT_RECORDS_ENV] ?? '') === '') {
    const state = globals.expect?.getState() as { testPath?: string; snapshotState?: unknown } | undefined
    const tests = circusTests()
    if (state?.testPath === undefined || tests === null) {
      // Not jest-circus (or a version whose state REA cannot read): only the hint for -u is possible.
      hintWithoutReporter(state?.testPath, used, state?.snapshotState, 'rea/jest-reporter', jestRoot())
      return
    }
    // Without rea/jest-reporter, the setup entry finds this file's obsolete authorities itself.
    const { failure, report } = checkObsoleteInFile({
      run: { testFile: state.testPath, tests, used: used.of(state.testPath) },
      updateMode: updateModeOf(state.snapshotState),
      updateCommand: 'jest -u',
      root: jestRoot(),
    })
    if (report !== null) {
      process.stderr.write(`${report}\n`)
    }
    if (failure !== null) {
      throw new Error(failure)
    }
  } else {
    writeUsedAuthorities()
  }
})

/** The running test's function: when it started and Jest's timeout for it, as jest-circus announces them. */
let testFunction: { readonly startMs: number; readonly timeoutMs: number | undefined } | undefined

/**
 * jest-circus keeps its event handlers in a registered global array; a handler added here learns when each test
 * function starts (Jest's timeout starts with it) and which timeout applies (the test's own, else the
 * configured one), and when a test is retried (what its failed attempt counted in the snapshot summary is taken
 * back). Under another runner (jest-jasmine2) there is no such array: no deadline, and no retries to undo.
 */
function watchTestFunctions(): void {
  const handlers = (globalThis as Record<symbol, unknown>)[Symbol.for('EVENT_HANDLERS')]
  if (!Array.isArray(handlers)) {
    return
  }
  handlers.push((event: { name?: string; test?: { timeout?: number } }, state: { testTimeout?: number }) => {
    if (event.name === 'test_retry') {
      snapshotCounts.retryAttempt(event.test)
    } else if (event.name === 'test_fn_start') {
      snapshotCounts.testStarted(event.test)
      testFunction = { startMs: performance.now(), timeoutMs: event.test?.timeout || state.testTimeout }
    } else if (event.name === 'test_done') {
      testFunction = undefined
    }
  })
}
watchTestFunctions()

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
  const controller = new AbortController()
  const beforeTimeout = new RunnerDeadline(
    'Jest',
    testFunction?.startMs ?? performance.now(),
    testFunction?.timeoutMs,
  ).signal()
  const signal = AbortSignal.any([
    controller.signal,
    beforeTimeout.signal,
    ...(options.signal === undefined ? [] : [options.signal]),
  ])
  const running = capture(withTestDefaults(scenario, projectOptions()), {
    ...options,
    root: jestRoot(),
    signal,
  })
    .finally(() => beforeTimeout.dispose())
    .then((evidence) => {
      beforeTimeout.failIfEnded(evidence)
      return evidence
    })
  const entry = { controller, settled: running.catch(() => undefined) }
  pending.add(entry)
  void entry.settled.finally(() => pending.delete(entry))
  return running
}

declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    /** Compares the capture with its authority (default file, path relative to the test, or Evidence). */
    toMatchCapture: CaptureMatcher<
      T,
      (authority?: string | Evidence | MatcherOptions, options?: MatcherOptions) => R
    >
    /** Checks the capture's event journal against a trace specification (object or file path). */
    toSatisfyTrace: CaptureMatcher<T, (spec: string | TraceSpecInput, options?: MatcherOptions) => R>
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- @types/jest declares its matchers in this namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- must match @types/jest exactly to merge
    interface Matchers<R, T = {}> {
      toMatchCapture: CaptureMatcher<
        T,
        (authority?: string | Evidence | MatcherOptions, options?: MatcherOptions) => R
      >
      toSatisfyTrace: CaptureMatcher<T, (spec: string | TraceSpecInput, options?: MatcherOptions) => R>
    }
  }
}
