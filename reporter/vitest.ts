import type { Reporter, TestModule, Vitest } from 'vitest/node'
import {
  announceReport,
  ASSERTION_ARTIFACT_TYPE,
  type AssertionRecord,
  assertionRecordSchema,
} from '../src/host.js'
import {
  guarded,
  reporterWarning,
  finishRunReport,
  resolveReporterOptions,
  type ReaReporterOptions,
  type ResolvedReporterOptions,
} from './report-run.js'

export type { ReaReporterOptions } from './report-run.js'

/**
 * `rea/reporter`: the Vitest reporter. Matchers record every capture assertion as a `rea:assertion` test
 * artifact; at the end of the run this reporter writes them to the report folder. Artifacts travel inside
 * blob reports, so `--merge-reports` rebuilds the whole folder from the shards' blobs.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { setupFiles: ['rea/vitest'], reporters: ['default', 'rea/reporter'] } })
 */
export default class ReaVitestReporter implements Reporter {
  readonly #rawOptions: unknown
  #vitest: Vitest | undefined
  #options: ResolvedReporterOptions | undefined

  constructor(options: ReaReporterOptions = {}) {
    this.#rawOptions = options
  }

  onInit(vitest: Vitest): void {
    this.#guard('onInit', () => {
      this.#vitest = vitest
      this.#options = resolveReporterOptions(this.#rawOptions, vitest.config.root, (message) =>
        this.#warn(message),
      )
      // Workers start after onInit and inherit the environment: the matchers learn where entries will be.
      announceReport(this.#options.outputDir, vitest.config.root, this.#options.junitAttachments, null)
    })
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    this.#guard('onTestRunEnd', () => {
      const vitest = this.#vitest
      const options = this.#options
      if (vitest === undefined || options === undefined) {
        return
      }
      finishRunReport(this.#records(testModules), options, {
        root: vitest.config.root,
        runner: 'vitest',
        log: (text) => vitest.logger.log(text),
        warn: (message) => this.#warn(message),
      })
    })
  }

  #records(testModules: ReadonlyArray<TestModule>): AssertionRecord[] {
    const records: AssertionRecord[] = []
    let invalid = 0
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const testPassed = testCase.result().state === 'passed'
        for (const artifact of testCase.artifacts()) {
          if ((artifact as { type?: unknown }).type !== ASSERTION_ARTIFACT_TYPE) {
            continue
          }
          const parsed = assertionRecordSchema.safeParse((artifact as { record?: unknown }).record)
          if (parsed.success) {
            // A test that passed expected its failing assertion (`test.fails`, or caught): not a failure.
            records.push(testPassed && !parsed.data.passed ? { ...parsed.data, passed: true } : parsed.data)
          } else {
            invalid++
          }
        }
      }
    }
    if (invalid > 0) {
      this.#warn(
        `skipped ${invalid} capture record${invalid === 1 ? '' : 's'} this version cannot read (a blob from another REA version?).`,
      )
    }
    return records
  }

  #guard(hook: string, body: () => void): void {
    guarded(hook, body, (message) => this.#warn(message))
  }

  #warn(message: string): void {
    const text = reporterWarning('rea/reporter', message)
    try {
      if (this.#vitest === undefined) {
        process.stderr.write(`${text}\n`)
      } else {
        this.#vitest.logger.warn(text)
      }
    } catch {
      // Nothing left to report with; never fail the run over it.
    }
  }
}
