import { REPORT_DIR_ENV, REPORT_RECORD_ENV } from '../../src/front-end.js'

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
