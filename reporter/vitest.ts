import type { Reporter, TestModule, Vitest } from 'vitest/node'
import {
  announceReport,
  ASSERTION_ARTIFACT_TYPE,
  type AssertionRecord,
  assertionRecordSchema,
  type TestFileRun,
  updateModeOf,
  USED_AUTHORITIES_KEY,
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

/**
 * `rea-capture/reporter`: the Vitest reporter. Matchers record every capture assertion as a `rea:assertion` test
 * artifact; at the end of the run this reporter writes them to the report folder. Artifacts travel inside
 * blob reports, so `--merge-reports` rebuilds the whole folder from the shards' blobs.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { setupFiles: ['rea-capture/vitest'], reporters: ['default', 'rea-capture/reporter'] } })
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
      this.#options = resolveReporterOptions(
        this.#rawOptions,
        vitest.config.root,
        (message) => this.#warn(message),
        configuresJUnitReporter(vitest.config.reporters),
      )
      // Workers start after onInit and inherit the environment: the matchers learn where entries will be.
      announceReport(this.#options.outputDir, vitest.config.root, this.#options.junitAttachments, null)
    })
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const vitest = this.#vitest
    const options = this.#options
    if (vitest === undefined || options === undefined) {
      return
    }
    let wholeProject = false
    try {
      wholeProject = await this.#coversWholeProject(vitest, testModules)
    } catch (error) {
      this.#warn(`could not tell whether this run covered every test file: ${String(error)}`)
    }
    this.#guard('onTestRunEnd', () => {
      const io = {
        root: vitest.config.root,
        runner: 'vitest' as const,
        log: (text: string) => vitest.logger.log(text),
        warn: (message: string) => this.#warn(message),
        error: (text: string) => vitest.logger.error(text),
      }
      const obsolete = checkObsolete(
        {
          runs: testModules.map(testFileRun),
          wholeProject,
          updateMode: updateModeOf({ _updateSnapshot: vitest.config.snapshotOptions.updateSnapshot }),
        },
        io,
      )
      finishRunReport(this.#records(testModules), options, io, undefined, obsolete)
      if (obsolete?.failure != null) {
        // The deliberate exception to "the reporter never fails the run": a CI run with obsolete authorities
        // fails, as it does for obsolete snapshots.
        process.exitCode = 1
      }
    })
  }

  /** Every test file of the project ran in this run: no shard, no file filter, no changed-only run. */
  async #coversWholeProject(vitest: Vitest, testModules: ReadonlyArray<TestModule>): Promise<boolean> {
    if (vitest.config.shard !== undefined) {
      return false
    }
    const ran = new Set(testModules.map((module) => `${module.project.name}\0${module.moduleId}`))
    const all = await vitest.globTestSpecifications()
    return all.every((specification) => ran.has(`${specification.project.name}\0${specification.moduleId}`))
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
    const text = reporterWarning('rea-capture/reporter', message)
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

/** A test module as the obsolete-authority check sees it. */
function testFileRun(testModule: TestModule): TestFileRun {
  const used = (testModule.meta() as Record<string, unknown>)[USED_AUTHORITIES_KEY]
  return {
    testFile: testModule.moduleId,
    tests: [...testModule.children.allTests()].map((testCase) => ({
      name: testCase.fullName,
      // `test.fails` passes by throwing, so its later assertions never ran.
      complete: testCase.result().state === 'passed' && testCase.options.fails !== true,
    })),
    used: Array.isArray(used) && used.every((file) => typeof file === 'string') ? used : null,
    broken: testModule.errors().length > 0,
  }
}
