import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  announceReport,
  type AssertionRecord,
  assertionRecordSchema,
  withdrawPendingFolder,
} from '../src/host.js'
import { PENDING_DIRECTORY, resetReportFolder } from './artifact-writer.js'
import {
  describe,
  guarded,
  reporterWarning,
  finishRunReport,
  resolveReporterOptions,
  type ReaReporterOptions,
  type ResolvedReporterOptions,
} from './report-run.js'

export type { ReaReporterOptions } from './report-run.js'

/** The parts of Jest's aggregated results the reporter reads. */
interface JestAggregatedResults {
  readonly testResults: readonly {
    readonly testFilePath: string
    readonly testResults: readonly { readonly fullName: string; readonly status: string }[]
  }[]
}

/** The parts of Jest's global config the reporter reads. */
interface JestGlobalConfig {
  readonly rootDir: string
}

/**
 * `rea/jest-reporter`: the Jest reporter. Jest has no channel from tests to reporters, so `rea/jest` writes
 * each assertion's record into `<outputDir>/.pending/` and this reporter turns them into the report folder
 * when the run completes.
 *
 * @example
 * // jest.config.js
 * module.exports = { setupFilesAfterEnv: ['rea/jest'], reporters: ['default', 'rea/jest-reporter'] }
 */
export default class ReaJestReporter {
  readonly #root: string
  #options: ResolvedReporterOptions | undefined
  #pendingDir: string | undefined

  constructor(globalConfig: JestGlobalConfig | undefined, reporterOptions?: ReaReporterOptions) {
    this.#root = globalConfig?.rootDir ?? process.cwd()
    this.#guard('constructor', () => {
      this.#options = resolveReporterOptions(reporterOptions, this.#root, (message) => this.#warn(message))
      this.#pendingDir = path.join(this.#options.outputDir, PENDING_DIRECTORY)
      // Set before Jest starts its workers, which inherit the environment.
      announceReport(this.#options.outputDir, this.#root, this.#options.junitAttachments, this.#pendingDir)
    })
  }

  onRunStart(): void {
    if (this.#options === undefined || this.#pendingDir === undefined) {
      return
    }
    try {
      // The previous run's files go now, so nothing stale sits next to this run's records.
      resetReportFolder(this.#options.outputDir, (message) => this.#warn(message))
      mkdirSync(this.#pendingDir, { recursive: true })
    } catch (error) {
      // No report this run: matchers must not write records into a folder that is not ours.
      withdrawPendingFolder()
      this.#options = undefined
      this.#warn(`no report this run: ${describe(error)}`)
    }
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
      finishRunReport(
        this.#records(),
        this.#options,
        {
          root: this.#root,
          runner: 'jest',
          log: (text) => process.stderr.write(`${text}\n`),
          warn: (message) => this.#warn(message),
        },
        (record) => passed.has(`${record.test_file}\0${record.test_name}`),
      )
    })
  }

  /** Never an error: a reporter problem must not fail the run. */
  getLastError(): undefined {
    return undefined
  }

  #records(): AssertionRecord[] {
    const directory = this.#pendingDir
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
      process.stderr.write(`${reporterWarning('rea/jest-reporter', message)}\n`)
    } catch {
      // Nothing left to report with.
    }
  }
}
