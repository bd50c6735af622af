import { REPORT_DIR_ENV, REPORT_RECORD_ENV } from '../../src/front-end.js'
import type { VitestWorkerCoverage } from './coverage.js'

interface VitestWorkerState {
  readonly config?: {
    readonly root?: string
    readonly name?: string | { readonly label?: string }
    readonly coverage?: VitestWorkerCoverage
  }
  /** The test file being collected and run (Vitest 4 and 5 set it before the setup files run). */
  readonly current?: object
}

function workerState(): VitestWorkerState | undefined {
  return (globalThis as { __vitest_worker__?: VitestWorkerState }).__vitest_worker__
}

/** The configuration Vitest hands its worker (not public API). */
export function workerConfig(): VitestWorkerState['config'] {
  return workerState()?.config
}

/** Test files for which a copy of this entry registered REA's matchers and hooks, shared by every copy. */
const REGISTERED_FILES = Symbol.for('rea-capture.vitest.registered-files')

function registeredFiles(): WeakSet<object> {
  const holder = globalThis as Record<symbol, WeakSet<object> | undefined>
  const registered = holder[REGISTERED_FILES] ?? new WeakSet()
  holder[REGISTERED_FILES] = registered
  return registered
}

/**
 * Whether this evaluation of `rea-capture/vitest` is the first for the test file being collected. Vitest evaluates a
 * setup file anew for each entry of `setupFiles`, and from Vitest 5 an inline project inherits the root's
 * `setupFiles` and appends its own, so a project that lists `rea-capture/vitest` in both has it twice. A second copy
 * must register nothing: its hooks would see none of the assertions the first copy's matchers made, and report every
 * authority of the file obsolete. True outside a test file (nothing to share there).
 */
export function firstRegistrationForThisFile(): boolean {
  const file = workerState()?.current
  if (file === undefined) {
    return true
  }
  const registered = registeredFiles()
  if (registered.has(file)) {
    return false
  }
  registered.add(file)
  return true
}

/** Vitest's `config.root`, read from its worker state (not public API; the current directory otherwise). */
export function vitestRoot(): string {
  return workerConfig()?.root ?? process.cwd()
}

/** The Vitest project's name (`test.name`, or a project's in `projects`); empty when unnamed. */
export function vitestProject(): string {
  const name = workerConfig()?.name
  return (typeof name === 'object' ? name.label : name) ?? ''
}

/**
 * Assertions are recorded when a reporter announced itself to the workers, or on request with
 * `REA_REPORT_RECORD=1` (shards that write only a blob report for a later `--merge-reports`). Otherwise a
 * record would serialize every capture for nobody.
 */
export function recording(): boolean {
  return (process.env[REPORT_DIR_ENV] ?? '') !== '' || process.env[REPORT_RECORD_ENV] === '1'
}
