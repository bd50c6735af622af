import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node'
import {
  announceReport,
  ASSERTION_ARTIFACT_TYPE,
  type AssertionRecord,
  assertionRecordSchema,
  type DeletedTestFileFailure,
  deletedTestFileFailures,
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
  /** This run's specifications asked for some tests only (a line, a name pattern, test ids or tags). */
  #specificationsFiltered = false
  /** Deleted test files' authorities found at the start of a CI run, to be counted by Vitest as errors. */
  #deletedTestFiles: readonly DeletedTestFileFailure[] = []
  #deletedTestFilesCounted = false

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

  /**
   * The set of test files is known here, before any test runs: a CI run of the whole project looks for the folders
   * of deleted test files now, so that Vitest counts them (see `#countDeletedTestFiles`).
   */
  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    this.#deletedTestFiles = []
    this.#deletedTestFilesCounted = false
    this.#specificationsFiltered = specifications.some(
      (specification) =>
        (specification.testLines?.length ?? 0) > 0 ||
        (specification.testIds?.length ?? 0) > 0 ||
        specification.testNamePattern !== undefined ||
        (specification.testTagsFilter?.length ?? 0) > 0,
    )
    const vitest = this.#vitest
    if (vitest === undefined || this.#options === undefined) {
      return
    }
    const wholeProject = await this.#wholeProject(vitest, specifications)
    this.#guard('onTestRunStart', () => {
      this.#deletedTestFiles = deletedTestFileFailures({
        testFiles: specifications.map((specification) => specification.moduleId),
        wholeProject,
        updateMode: updateModeOf({ _updateSnapshot: vitest.config.snapshotOptions.updateSnapshot }),
        updateCommand: 'vitest -u',
        root: vitest.config.root,
      })
    })
  }

  onTestModuleQueued(): void {
    this.#countDeletedTestFiles()
  }

  onTestModuleEnd(): void {
    this.#countDeletedTestFiles()
  }

  /**
   * Hands each deleted test file's failure to Vitest as an error of the run, which its summary counts ("Errors  1
   * error") and which fails the run. Not in onTestRunStart: Vitest clears the run's errors after that hook, and
   * before it queues the first test module.
   */
  #countDeletedTestFiles(): void {
    const vitest = this.#vitest
    if (this.#deletedTestFilesCounted || vitest === undefined) {
      return
    }
    this.#deletedTestFilesCounted = true
    this.#guard('onTestModuleQueued', () => {
      for (const { error } of this.#deletedTestFiles) {
        vitest.state.catchError(error, 'Obsolete Authorities')
      }
    })
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown> = [],
  ): Promise<void> {
    const vitest = this.#vitest
    const options = this.#options
    if (vitest === undefined || options === undefined) {
      return
    }
    const wholeProject = await this.#wholeProject(vitest, testModules)
    // What Vitest counted, and one of its console reporters printed among the run's errors, is not said again.
    const shown = printsRunErrors(vitest.config.reporters)
    const counted = new Set(
      this.#deletedTestFiles
        .filter((failure) => shown && unhandledErrors.includes(failure.error))
        .flatMap((failure) => failure.files),
    )
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
          counted,
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

  /** Whether the run covers the whole project; a failure to tell is a warning and "no". */
  async #wholeProject(vitest: Vitest, files: ReadonlyArray<TestFile>): Promise<boolean> {
    try {
      return await this.#coversWholeProject(vitest, files)
    } catch (error) {
      this.#warn(`could not tell whether this run covered every test file: ${String(error)}`)
      return false
    }
  }

  /**
   * Every test file of the project runs, every test of it asked for: no shard, no file filter, no changed-only
   * run, no test name pattern (`-t`) or line filter.
   */
  async #coversWholeProject(vitest: Vitest, files: ReadonlyArray<TestFile>): Promise<boolean> {
    if (
      vitest.config.shard !== undefined ||
      vitest.getGlobalTestNamePattern() !== undefined ||
      this.#specificationsFiltered
    ) {
      return false
    }
    const ran = new Set(files.map((file) => `${file.project.name}\0${file.moduleId}`))
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

/** Vitest's reporters that print the run's errors ("Unhandled Errors") in their summary. */
const CONSOLE_REPORTERS = new Set(['default', 'verbose', 'dot', 'tree', 'basic', 'agent', 'minimal'])

/**
 * Whether the configured reporters include one of Vitest's console reporters, which print the errors of a run;
 * with `rea-capture/reporter` alone (or only file reporters), nobody else shows the error REA handed Vitest.
 */
function printsRunErrors(reporters: unknown): boolean {
  if (!Array.isArray(reporters)) {
    return false
  }
  return reporters.some((entry: unknown) => {
    const reporter: unknown = Array.isArray(entry) ? entry[0] : entry
    if (typeof reporter === 'string') {
      return CONSOLE_REPORTERS.has(reporter)
    }
    // A reporter instance: Vitest's console reporters share a base class that prints the errors' summary.
    return typeof (reporter as { printErrorsSummary?: unknown } | null)?.printErrorsSummary === 'function'
  })
}

/** A test file of the run, as a specification (before it runs) or a test module (after). */
type TestFile = Pick<TestSpecification, 'moduleId'> & { readonly project: { readonly name: string } }

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
