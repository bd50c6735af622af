import { CaptureCoverage, type CoverageOptions } from '../coverage/capture-coverage.js'
import { coverageFromSink } from '../coverage/coverage-sink.js'
import type { Evidence } from '../evidence/schema.js'
import { createRunToken } from '../process/run-token.js'
import { checkExecSize } from '../scenario/exec-size.js'
import { childEnvironment, resolveScenario, type ResolvedScenario } from '../scenario/resolve.js'
import { rememberPlaceholderContext } from '../evidence/machine-values.js'
import { markValidated } from '../evidence/validated.js'
import type { ProcessScenario, ProcessScenarioInput } from '../scenario/schema.js'
import { validateScenario } from '../scenario/validate.js'
import { prepareProcessInspection } from '../process/prepare-inspection.js'
import { loadPtyBackend } from '../terminal/load-pty-backend.js'
import type { PtyBackend } from '../terminal/pty-backend.js'
import { makeIsolatedHome } from './isolated-home.js'
import type { CaptureStatus } from './live-status.js'
import type { ProgressRecord } from './progress.js'

export interface CaptureProcessOptions {
  /**
   * The capture root: `working_directory` resolves against it. Defaults to `process.cwd()`. The root is
   * recorded in the Evidence but is not part of the comparison contract, so clones elsewhere still compare.
   */
  readonly root?: string
  /** Aborting cancels the capture: the root is killed at once and cleanup runs; Evidence is still returned. */
  readonly signal?: AbortSignal
  /** Live status, at most one intermediate record per 100 ms plus a terminal record. Never child output. */
  readonly onProgress?: (record: ProgressRecord) => void
  /**
   * The run as a person follows it (elapsed time, output so far, the event due and what it waits for), at once on
   * every phase and every 200 ms between, until the capture ends: for a live status line. Never child output.
   */
  readonly onStatus?: (status: CaptureStatus) => void
  /**
   * Collects the V8 coverage of the Node.js programs the capture runs: their coverage files are left in
   * `coverage.directory` when the capture ends. Outside the scenario and its contract; the Evidence says only that
   * coverage was collected. Inside a test runner whose v8 coverage is on, REA's runner glue sets this for every
   * capture (docs/coverage.md).
   */
  readonly coverage?: CoverageOptions
}

/**
 * Runs one command in a real pseudo-terminal and resolves with its Evidence. A failing, crashing or timed-out
 * target is data in the Evidence; only invalid input, a missing capability or an internal error rejects.
 *
 * @example
 * const evidence = await captureProcess({ executable: 'node', arguments: ['./signup.mjs'] })
 * console.log(evidence.exit.code, evidence.terminal.frames.at(-1))
 */
export async function captureProcess(
  scenario: ProcessScenarioInput,
  options: CaptureProcessOptions = {},
): Promise<Evidence> {
  const validated = validateScenario(scenario)
  // The capability comes before resolving paths on this host: where capture is unavailable (Windows), a
  // scenario whose executable does not resolve here must still be told that, not that its PATH is wrong.
  const backend = await loadPtyBackend()
  // On macOS this compiles REA's process-inspection helper before anything starts.
  await prepareProcessInspection()
  // A fresh home under the inherited environment: the scenario's own HOME or XDG entries still win.
  const home = validated.home === 'isolated' ? makeIsolatedHome() : undefined
  try {
    return await captureResolved(
      validated,
      resolveScenario(validated, options.root ?? process.cwd(), { ...process.env, ...home?.environment }),
      backend,
      options,
    )
  } finally {
    home?.remove()
  }
}

async function captureResolved(
  validated: ProcessScenario,
  resolved: ResolvedScenario,
  backend: PtyBackend,
  options: CaptureProcessOptions,
): Promise<Evidence> {
  const coverageOptions = options.coverage ?? (await coverageFromSink())
  const coverage =
    coverageOptions === undefined ? undefined : CaptureCoverage.prepare(coverageOptions, resolved.root)
  try {
    // What execve would refuse (E2BIG), with the environment the command is launched with.
    const runToken = createRunToken()
    checkExecSize(
      resolved.executablePath,
      validated.arguments,
      childEnvironment(resolved, runToken, coverage?.environment),
      validated.environment,
    )
    // The engine (and @xterm/headless with it) loads on the first capture, not with the package.
    const { runCapture } = await import('./run-capture.js')
    const evidence = await runCapture({
      resolved,
      runToken,
      coverage,
      backend,
      signal: options.signal,
      onProgress: options.onProgress,
      onStatus: options.onStatus,
    })
    // An authority written from this capture stores these values as tokens (docs/authority-files.md).
    rememberPlaceholderContext(evidence, resolved)
    return markValidated(evidence)
  } finally {
    // Already done after cleanup on every normal path; here for a capture that threw.
    coverage?.finish()
  }
}
