import { createHash } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, expect, recordArtifact, test as baseTest, type TestArtifactBase } from 'vitest'
import {
  ASSERTION_ARTIFACT_TYPE,
  type AssertionCaptures,
  type AssertionRecord,
  captureProcess as capture,
  type CaptureProcessOptions,
  checkObsoleteInFile,
  errorMessage,
  type Evidence,
  failureHeadline,
  type MatcherOptions,
  type ProcessScenarioInput,
  renderAssertionImage,
  renderAssertionPage,
  REPORT_DIR_ENV,
  REPORT_RECORD_ENV,
  type TraceSpecInput,
  updateModeOf,
  USED_AUTHORITIES_KEY,
  withTestDefaults,
  writeFileAtomicSync,
} from '../src/front-end.js'
import type { CaptureMatcher } from './capture-matcher.js'
import {
  AssertionCounter,
  createMatchers,
  type RunnerMatcherState,
  UsedAuthorities,
} from './create-matchers.js'
import { RunnerDeadline } from './runner-deadline.js'
import { countVitestSnapshot } from './snapshot-summary.js'
import { projectOptions } from './project-options.js'

/**
 * `rea/vitest`: import it once from `setupFiles` (or from a test file) to register `toMatchCapture` and
 * `toSatisfyTrace`; import `test` from it for a `captureProcess` fixture bound to each test.
 */

interface VitestWorkerState {
  readonly config?: { readonly root?: string; readonly name?: string | { readonly label?: string } }
}

function workerConfig(): VitestWorkerState['config'] {
  return (globalThis as { __vitest_worker__?: VitestWorkerState }).__vitest_worker__?.config
}

/** Vitest's `config.root`, read from its worker state (not public API; the current directory otherwise). */
export function vitestRoot(): string {
  return workerConfig()?.root ?? process.cwd()
}

/** The Vitest project's name (`test.name`, or a project's in `projects`); empty when unnamed. */
function vitestProject(): string {
  const name = workerConfig()?.name
  return (typeof name === 'object' ? name.label : name) ?? ''
}

/**
 * Assertions are recorded when a reporter announced itself to the workers, or on request with
 * `REA_REPORT_RECORD=1` (shards that write only a blob report for a later `--merge-reports`). Otherwise a
 * record would serialize every capture for nobody.
 */
function recording(): boolean {
  return (process.env[REPORT_DIR_ENV] ?? '') !== '' || process.env[REPORT_RECORD_ENV] === '1'
}

/**
 * Artifacts and annotations being sent to the main process. `recordArtifact` is not among the promises Vitest
 * awaits for a test, and an annotation made by a failing assertion is not awaited either (the test has thrown),
 * while a synchronous matcher cannot await them: the `afterEach` below does, so they arrive before the file ends.
 */
const pendingArtifacts = new Set<Promise<void>>()

function recordForReporter(task: unknown, record: AssertionRecord): void {
  if (typeof task !== 'object' || task === null) {
    return
  }
  const artifact: ReaAssertionArtifact = { type: ASSERTION_ARTIFACT_TYPE, record }
  const sent = recordArtifact(task as Parameters<typeof recordArtifact>[0], artifact).then(
    () => undefined,
    (error: unknown) => {
      process.stderr.write(`rea: could not send a capture record to the reporter: ${errorMessage(error)}\n`)
    },
  )
  pendingArtifacts.add(sent)
  void sent.finally(() => pendingArtifacts.delete(sent))
}

/** The annotation a failing capture assertion adds to its test, shown by `vitest --ui` and the HTML reporter. */
export const DIVERGENCE_ANNOTATION_TYPE = 'rea:divergence'
/** The second annotation: both screens at the first divergent checkpoint, as an SVG image. */
export const SCREENS_ANNOTATION_TYPE = 'rea:screens'
const SCREENS_ANNOTATION_MESSAGE = 'both screens at the first checkpoint where they differ'
/** `0` turns the annotations off (each one renders and writes a page). */
export const ANNOTATE_ENV = 'REA_VITEST_ANNOTATE'
/** Vitest names its copy of an attachment after the message: keep that file name within 255 bytes. */
const ANNOTATION_MESSAGE_CHARACTERS = 160
/** Pages wait here until Vitest has copied them into its attachmentsDir. */
const PAGE_DIRECTORY = path.join(tmpdir(), `rea-vitest-pages-${process.pid}`)

interface AnnotatingContext {
  annotate(
    message: string,
    type: string,
    attachment: { readonly path: string; readonly contentType: string },
  ): Promise<unknown>
}

/**
 * Annotates the failing assertion's test with its first divergence and attaches the divergence page, then, when
 * two screens differ, a second annotation with their picture (an inline image in the UI). The calls must happen
 * while the test still runs (Vitest refuses annotations after), so the files are written here, synchronously;
 * Vitest copies them into its attachmentsDir, after which the temporary files are removed.
 */
function annotateFailure(
  state: RunnerMatcherState,
  record: AssertionRecord,
  captures: AssertionCaptures,
): void {
  const task = state.task as { context?: Partial<AnnotatingContext>; result?: { state?: string } } | undefined
  const context = task?.context
  if (process.env[ANNOTATE_ENV] === '0' || typeof context?.annotate !== 'function') {
    return
  }
  // An assertion that runs after its test has ended (the test timed out, its code went on) can no longer
  // annotate it: Vitest would refuse, and the warning would only add noise under the test's own failure.
  if (task?.result?.state !== undefined && task.result.state !== 'run') {
    return
  }
  const annotate = context.annotate.bind(context)
  const name = createHash('sha256')
    .update(
      `${record.test_file}\0${record.test_name}\0${record.entry}\0${record.attempt.retry}\0${record.attempt.repeat}`,
    )
    .digest('hex')
    .slice(0, 16)
  const headline = failureHeadline(record)
  const message =
    headline.length > ANNOTATION_MESSAGE_CHARACTERS
      ? `${headline.slice(0, ANNOTATION_MESSAGE_CHARACTERS - 1)}…`
      : headline
  attach(
    annotate,
    message,
    DIVERGENCE_ANNOTATION_TYPE,
    `${name}.html`,
    'text/html',
    renderAssertionPage(record, captures),
  )
  const image = renderAssertionImage(record, captures)
  if (image !== null) {
    attach(
      annotate,
      SCREENS_ANNOTATION_MESSAGE,
      SCREENS_ANNOTATION_TYPE,
      `${name}.svg`,
      'image/svg+xml',
      image,
    )
  }
}

function attach(
  annotate: AnnotatingContext['annotate'],
  message: string,
  type: string,
  fileName: string,
  contentType: string,
  content: string,
): void {
  mkdirSync(PAGE_DIRECTORY, { recursive: true })
  const file = path.join(PAGE_DIRECTORY, fileName)
  writeFileAtomicSync(file, content)
  const sent = annotate(message, type, { path: file, contentType })
    .then(
      () => undefined,
      (error: unknown) => {
        process.stderr.write(`rea: could not annotate the test (${type}): ${errorMessage(error)}\n`)
      },
    )
    .finally(() => rmSync(file, { force: true }))
  pendingArtifacts.add(sent)
  void sent.finally(() => pendingArtifacts.delete(sent))
}

async function flushArtifacts(): Promise<void> {
  await Promise.all(pendingArtifacts)
}

const used = new UsedAuthorities()

interface RunnerTask {
  readonly type: string
  readonly name: string
  readonly mode?: string
  readonly fails?: boolean
  readonly result?: { readonly state?: string }
  readonly tasks?: readonly RunnerTask[]
}

function isTestFile(
  value: unknown,
): value is { filepath: string; meta: Record<string, unknown>; tasks: readonly RunnerTask[] } {
  const file = value as { filepath?: unknown; meta?: unknown; tasks?: unknown } | null | undefined
  return (
    typeof file?.filepath === 'string' &&
    typeof file.meta === 'object' &&
    file.meta !== null &&
    Array.isArray(file.tasks)
  )
}

/** Every test of the file by the full name authorities are named after (Vitest joins suites with ' > '). */
function testsOf(tasks: readonly RunnerTask[], prefix = ''): { name: string; complete: boolean }[] {
  return tasks.flatMap((task) => {
    const name = prefix === '' ? task.name : `${prefix} > ${task.name}`
    if (task.type === 'suite') {
      return testsOf(task.tasks ?? [], name)
    }
    // Ran to its end: passed, was neither skipped nor a todo, and does not pass by failing.
    return [{ name, complete: task.result?.state === 'pass' && task.fails !== true }]
  })
}

try {
  afterEach(flushArtifacts)
  // The authority files this test file used travel in its module's meta to the reporter (and in blob reports),
  // which finds obsolete ones; the meta also says that REA's matchers saw the whole file.
  // Vitest 4.1 passes (fixtures, suite) and insists that the first parameter be a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  afterAll(({}, suite: unknown) => {
    if (isTestFile(suite)) {
      suite.meta[USED_AUTHORITIES_KEY] = used.of(suite.filepath)
      if ((process.env[REPORT_DIR_ENV] ?? '') === '') {
        // Without rea/reporter, the setup entry finds this file's obsolete authorities itself.
        const { failure, report } = checkObsoleteInFile({
          run: { testFile: suite.filepath, tests: testsOf(suite.tasks), used: used.of(suite.filepath) },
          updateMode: updateModeOf(expect.getState().snapshotState),
          updateCommand: 'vitest -u',
          root: vitestRoot(),
        })
        if (report !== null) {
          process.stderr.write(`${report}\n`)
        }
        if (failure !== null) {
          throw new Error(failure)
        }
      }
    }
  })
} catch {
  // Imported outside a test file or setup file (no suite to attach to): the fixture still flushes.
}

const counter = new AssertionCounter()
const entries = new AssertionCounter()
// No per-test reset here: numbering follows each test's task, so same-named tests get 1 and 2 like snapshots.
expect.extend(
  createMatchers(
    {
      updateCommand: 'vitest -u',
      root: vitestRoot,
      project: vitestProject,
      recording,
      record: (state, record) => recordForReporter(state.task, record),
      failed: annotateFailure,
      countSnapshot: countVitestSnapshot,
    },
    counter,
    entries,
    used,
  ),
)

export { configureRea } from './project-options.js'

export type BoundCaptureProcess = (
  scenario: ProcessScenarioInput,
  options?: Omit<CaptureProcessOptions, 'root'>,
) => Promise<Evidence>

/**
 * `test` with a `captureProcess` fixture: captures run with the runner's root as capture root (so committed
 * authority files compare in any clone), are ended shortly before the test's timeout (the capture then rejects
 * with REA's account of what it waited for: see `RunnerDeadline`), are cancelled through the test's signal when
 * the run is aborted, and are awaited before the test ends, so no process outlives its test.
 *
 * @example
 * import { test, expect } from 'rea/vitest'
 * test('greets', async ({ captureProcess }) => {
 *   expect(await captureProcess({ executable: 'node', arguments: ['./cli.mjs'] })).toMatchCapture()
 * })
 */
export const test = baseTest.extend<{ captureProcess: BoundCaptureProcess }>({
  captureProcess: async ({ task, signal }, use) => {
    const pending = new Set<Promise<unknown>>()
    const cancel = new AbortController()
    // Vitest's timeout for this test started a moment ago, with the fixtures: captures end before it does.
    const runnerDeadline = new RunnerDeadline('Vitest', performance.now(), task.timeout)
    const bound: BoundCaptureProcess = (scenario, options = {}) => {
      const beforeTimeout = runnerDeadline.signal()
      const signals = [
        signal,
        cancel.signal,
        beforeTimeout.signal,
        ...(options.signal === undefined ? [] : [options.signal]),
      ]
      const running = capture(withTestDefaults(scenario, projectOptions()), {
        ...options,
        root: vitestRoot(),
        signal: AbortSignal.any(signals),
      })
        .finally(() => beforeTimeout.dispose())
        .then((evidence) => {
          const meta = task.meta as { rea?: { captures: { identity_digest: string }[] } }
          meta.rea ??= { captures: [] }
          meta.rea.captures.push({ identity_digest: evidence.identity_digest })
          beforeTimeout.failIfEnded(evidence)
          return evidence
        })
      const settled = running.catch(() => undefined)
      pending.add(settled)
      void settled.finally(() => pending.delete(settled))
      return running
    }
    await use(bound)
    // A capture the test did not await (it failed or timed out first) is cancelled and waited for here.
    cancel.abort()
    await Promise.all(pending)
    await flushArtifacts()
  },
})
export const it = test
export { expect }

/** The test artifact each capture assertion records for `rea/reporter`. */
export interface ReaAssertionArtifact extends TestArtifactBase {
  readonly type: typeof ASSERTION_ARTIFACT_TYPE
  readonly record: AssertionRecord
}

declare module 'vitest' {
  interface TestArtifactRegistry {
    'rea:assertion': ReaAssertionArtifact
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- must match Vitest’s declaration exactly to merge
  interface Matchers<T = any> {
    /**
     * Compares the capture with its authority: the default file next to the test, a file path (relative to
     * the test file) or an Evidence object; `options.timing` sets how times count. See docs/vitest.md.
     */
    toMatchCapture: CaptureMatcher<
      T,
      (authority?: string | Evidence | MatcherOptions, options?: MatcherOptions) => void
    >
    /** Checks the capture's event journal against a trace specification (object or file path). */
    toSatisfyTrace: CaptureMatcher<T, (spec: string | TraceSpecInput, options?: MatcherOptions) => void>
  }
}
