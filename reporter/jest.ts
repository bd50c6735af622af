import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  announceReport,
  type AssertionRecord,
  assertionRecordSchema,
  deletedTestFileFailures,
  errorMessage,
  obsoleteAuthoritiesError,
  RECORDS_DIRECTORY,
  resetReportFolder,
  type TestFileRun,
  updateModeOf,
  USED_AUTHORITIES_EXTENSION,
  withdrawRecordsFolder,
} from '../src/front-end.js'
import {
  checkObsolete,
  guarded,
  reporterWarning,
  finishRunReport,
  configuresJUnitReporter,
  resolveReporterOptions,
  type ReaReporterOptions,
  type ResolvedReporterOptions,
} from './report-run.js'

export type { ReaReporterOptions } from './report-run.js'

/** The parts of Jest's aggregated results the reporter reads. */
interface JestAggregatedResults {
  readonly testResults: readonly {
    readonly testFilePath: string
    readonly testExecError?: unknown
    readonly testResults: readonly {
      readonly fullName: string
      readonly status: string
      readonly failing?: boolean
    }[]
  }[]
}

/**
 * The parts of Jest's aggregated results the reporter changes, while the run goes on, to count a deleted test
 * file's authorities as a failed test suite (`addResult` of @jest/test-result does the same for a real one).
 */
interface JestRunningResults {
  numFailedTestSuites: number
  numRuntimeErrorTestSuites: number
  numTotalTestSuites: number
  testResults: unknown[]
}

/** The parts of Jest's global config the reporter reads. */
interface JestGlobalConfig {
  readonly rootDir: string
  readonly updateSnapshot?: string
  readonly shard?: unknown
  readonly testPathPatterns?: { readonly patterns?: readonly unknown[] } | readonly unknown[]
  readonly nonFlagArgs?: readonly unknown[]
  readonly onlyChanged?: boolean
  readonly onlyFailures?: boolean
  readonly testNamePattern?: string
  readonly findRelatedTests?: boolean
  readonly changedSince?: string
  readonly lastCommit?: boolean
  readonly watch?: boolean
  readonly reporters?: readonly unknown[]
}

/**
 * Every test file of the project runs, every test of it asked for: no shard, no path pattern, no changed-only or
 * failed-only run, no test name pattern (`-t`).
 */
function coversWholeProject(config: JestGlobalConfig | undefined): boolean {
  if (config === undefined) {
    return false
  }
  const patterns = Array.isArray(config.testPathPatterns)
    ? config.testPathPatterns
    : ((config.testPathPatterns as { patterns?: readonly unknown[] } | undefined)?.patterns ?? [])
  return (
    config.shard == null &&
    patterns.length === 0 &&
    (config.nonFlagArgs ?? []).length === 0 &&
    config.onlyChanged !== true &&
    config.onlyFailures !== true &&
    (config.testNamePattern ?? '') === '' &&
    config.findRelatedTests !== true &&
    (config.changedSince ?? '') === '' &&
    config.lastCommit !== true &&
    config.watch !== true
  )
}

/** A test suite that failed to run, as Jest's `buildFailureTestResult` makes one: no test, one error. */
function failedSuite(testFilePath: string, error: Error) {
  return {
    console: undefined,
    displayName: undefined,
    failureMessage: error.message,
    leaks: false,
    numFailingTests: 0,
    numPassingTests: 0,
    numPendingTests: 0,
    numTodoTests: 0,
    openHandles: [],
    perfStats: {
      end: 0,
      loadTestEnvironmentEnd: 0,
      loadTestEnvironmentStart: 0,
      runtime: 0,
      setupAfterEnvEnd: 0,
      setupAfterEnvStart: 0,
      setupFilesEnd: 0,
      setupFilesStart: 0,
      slow: false,
      start: 0,
    },
    skipped: false,
    snapshot: {
      added: 0,
      fileDeleted: false,
      matched: 0,
      unchecked: 0,
      uncheckedKeys: [],
      unmatched: 0,
      updated: 0,
    },
    testExecError: { message: error.message, stack: error.stack },
    testFilePath,
    testResults: [],
  }
}

/**
 * `rea-capture/jest-reporter`: the Jest reporter. Jest has no channel from tests to reporters, so `rea-capture/jest` writes
 * each assertion's record into `<outputDir>/.records/` and this reporter turns them into the report folder
 * when the run completes.
 *
 * @example
 * // jest.config.js
 * module.exports = { setupFilesAfterEnv: ['rea-capture/jest'], reporters: ['default', 'rea-capture/jest-reporter'] }
 */
export default class ReaJestReporter {
  readonly #root: string
  readonly #globalConfig: JestGlobalConfig | undefined
  #options: ResolvedReporterOptions | undefined
  #recordsDir: string | undefined
  #failure: Error | undefined
  /** Folders whose `__captures__` folder was looked in for deleted test files' authorities in this run. */
  readonly #foldersLookedIn = new Set<string>()
  /** The failed test suites this reporter added for deleted test files: not test files that ran. */
  readonly #deletedTestFileResults = new Set<unknown>()

  constructor(globalConfig: JestGlobalConfig | undefined, reporterOptions?: ReaReporterOptions) {
    this.#root = globalConfig?.rootDir ?? process.cwd()
    this.#globalConfig = globalConfig
    this.#guard('constructor', () => {
      this.#options = resolveReporterOptions(
        reporterOptions,
        this.#root,
        (message) => this.#warn(message),
        configuresJUnitReporter(globalConfig?.reporters),
      )
      this.#recordsDir = path.join(this.#options.outputDir, RECORDS_DIRECTORY)
      // Set before Jest starts its workers, which inherit the environment.
      announceReport(this.#options.outputDir, this.#root, this.#options.junitAttachments, this.#recordsDir)
    })
  }

  onRunStart(): void {
    // A watch run starts over: its own folders, its own added suites.
    this.#foldersLookedIn.clear()
    this.#deletedTestFileResults.clear()
    if (this.#options === undefined || this.#recordsDir === undefined) {
      return
    }
    try {
      // The previous run's files go now, so nothing stale sits next to this run's records.
      resetReportFolder(this.#options.outputDir, (message) => this.#warn(message))
      mkdirSync(this.#recordsDir, { recursive: true })
    } catch (error) {
      // No report this run: matchers must not write records into a folder that is not ours.
      withdrawRecordsFolder()
      this.#options = undefined
      this.#warn(`no report this run: ${errorMessage(error)}`)
    }
  }

  /**
   * Jest gives no reporter the list of test files before the run, but each file's result as it ends. The first
   * result from a folder is when its `__captures__` folder is looked in for deleted test files' authorities; in a
   * CI run of the whole project each such test file becomes one failed test suite in Jest's own counts, before
   * its summary is printed.
   */
  onTestFileResult(test: { readonly path: string }, _result: unknown, results: JestRunningResults): void {
    this.#guard('onTestFileResult', () => {
      const folder = path.dirname(test.path)
      if (this.#options === undefined || this.#foldersLookedIn.has(folder)) {
        return
      }
      this.#foldersLookedIn.add(folder)
      const failures = deletedTestFileFailures({
        testFiles: [test.path],
        wholeProject: coversWholeProject(this.#globalConfig),
        updateMode: updateModeOf({ _updateSnapshot: this.#globalConfig?.updateSnapshot }),
        updateCommand: 'jest -u',
        root: this.#root,
      })
      for (const { testFile, error } of failures) {
        const failed = failedSuite(testFile, error)
        this.#deletedTestFileResults.add(failed)
        results.testResults.push(failed)
        results.numFailedTestSuites++
        results.numRuntimeErrorTestSuites++
        results.numTotalTestSuites++
      }
    })
  }

  onRunComplete(_contexts?: unknown, results?: JestAggregatedResults): void {
    this.#guard('onRunComplete', () => {
      if (this.#options === undefined) {
        return
      }
      // A test that passed expected its failing assertion (caught by the test): not reported as a failure.
      const passed = new Set<string>()
      for (const file of results?.testResults ?? []) {
        for (const test of file.testResults) {
          if (test.status === 'passed') {
            passed.add(`${file.testFilePath}\0${test.fullName}`)
          }
        }
      }
      const io = {
        root: this.#root,
        runner: 'jest' as const,
        log: (text: string) => process.stderr.write(`${text}\n`),
        warn: (message: string) => this.#warn(message),
        error: (text: string) => process.stderr.write(`${text}\n`),
      }
      const used = this.#usedAuthorities()
      const obsolete = checkObsolete(
        {
          runs: (results?.testResults ?? [])
            .filter((file) => !this.#deletedTestFileResults.has(file))
            .map((file): TestFileRun => ({
              testFile: file.testFilePath,
              tests: file.testResults.map((test) => ({
                name: test.fullName,
                // `test.failing` passes by throwing, so its later assertions never ran.
                complete: test.status === 'passed' && test.failing !== true,
              })),
              used: used.get(file.testFilePath) ?? null,
              broken: file.testExecError != null,
            })),
          wholeProject: coversWholeProject(this.#globalConfig),
          updateMode: updateModeOf({ _updateSnapshot: this.#globalConfig?.updateSnapshot }),
        },
        io,
      )
      finishRunReport(
        this.#records(),
        this.#options,
        io,
        (record) => passed.has(`${record.test_file}\0${record.test_name}`),
        obsolete,
      )
      if (obsolete?.failure != null) {
        this.#failure = obsoleteAuthoritiesError(obsolete.failure)
      }
    })
  }

  /**
   * Jest fails the run when a reporter returns an error here. REA returns one only for obsolete authority files
   * in a CI run, as Jest fails on obsolete snapshots; a problem of the reporter itself never fails a run.
   */
  getLastError(): Error | undefined {
    return this.#failure
  }

  /** Per test file, the authority files its assertions used, from the side files `rea-capture/jest` wrote. */
  #usedAuthorities(): Map<string, string[]> {
    const used = new Map<string, string[]>()
    const directory = this.#recordsDir
    if (directory === undefined || !existsSync(directory)) {
      return used
    }
    for (const name of readdirSync(directory).filter((entry) => entry.endsWith(USED_AUTHORITIES_EXTENSION))) {
      try {
        const { test_file: testFile, authorities } = JSON.parse(
          readFileSync(path.join(directory, name), 'utf8'),
        ) as { test_file?: unknown; authorities?: unknown }
        if (
          typeof testFile === 'string' &&
          Array.isArray(authorities) &&
          authorities.every((file) => typeof file === 'string')
        ) {
          used.set(testFile, [...(used.get(testFile) ?? []), ...authorities])
        }
      } catch {
        // An unreadable side file proves nothing: its test file is left out of the obsolete check.
      }
    }
    return used
  }

  #records(): AssertionRecord[] {
    const directory = this.#recordsDir
    if (directory === undefined || !existsSync(directory)) {
      return []
    }
    // `<pid>-<monotonic nanoseconds>`: one worker's records sort in the order it wrote them.
    const names = readdirSync(directory)
      .filter((name) => name.endsWith('.json'))
      .sort()
    const records: AssertionRecord[] = []
    let unreadable = 0
    for (const name of names) {
      try {
        records.push(
          assertionRecordSchema.parse(JSON.parse(readFileSync(path.join(directory, name), 'utf8'))),
        )
      } catch {
        unreadable++
      }
    }
    if (unreadable > 0) {
      this.#warn(
        `skipped ${unreadable} unreadable capture record${unreadable === 1 ? '' : 's'} in ${directory}.`,
      )
    }
    return records
  }

  #guard(hook: string, body: () => void): void {
    guarded(hook, body, (message) => this.#warn(message))
  }

  #warn(message: string): void {
    try {
      process.stderr.write(`${reporterWarning('rea-capture/jest-reporter', message)}\n`)
    } catch {
      // Nothing left to report with.
    }
  }
}
