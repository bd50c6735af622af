import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Evidence } from '../evidence/schema.js'
import { captureEndedBeforeTimeout, runnerDeadlineMs } from '../authority/runner-timeout.js'

/**
 * The package's folder: the nearest above this module holding a package.json. This module is `src/authority/` in
 * the repository and a chunk directly in `dist/` when built, so no fixed number of steps up fits both.
 */
function packageRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url))
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) {
      return folder
    }
    if (path.dirname(folder) === folder) {
      return path.dirname(start)
    }
  }
}

/** Frames in these folders of the package (its dist/, or the repository when run from sources) are REA's own. */
const OWN_FOLDERS = ['dist', 'src', 'matchers'].map(
  (folder) => `${path.join(packageRoot(), folder)}${path.sep}`,
)

/** The stack where the test called captureProcess, without REA's and Node's own frames. */
function callSite(): string {
  return (new Error().stack ?? '')
    .split('\n')
    .slice(1)
    .filter((frame) => !OWN_FOLDERS.some((folder) => frame.includes(folder)) && !frame.includes('(node:'))
    .join('\n')
}

/** One capture's watch on the runner's timeout. */
export interface BeforeTimeout {
  /** Aborted when the runner's timeout is near. */
  readonly signal: AbortSignal
  /** Stops watching (the capture has ended). */
  dispose(): void
  /** Throws REA's account of the capture when this watch ended it. */
  failIfEnded(evidence: Evidence): void
}

/**
 * The test runner's per-test timeout, as the fixtures see it: captures are ended shortly before it, so the
 * failure says which event waited and for what instead of the runner's bare "timed out".
 */
export class RunnerDeadline {
  readonly #runner: string
  readonly #timeoutMs: number | undefined
  readonly #deadlineMs: number | null

  constructor(runner: string, startMs: number, timeoutMs: number | undefined) {
    this.#runner = runner
    this.#timeoutMs = timeoutMs
    this.#deadlineMs = runnerDeadlineMs(startMs, timeoutMs)
  }

  signal(): BeforeTimeout {
    const controller = new AbortController()
    // The failure points at the test's call, not at REA's timer: that is the line a person looks for.
    const calledFrom = callSite()
    const deadline = this.#deadlineMs
    const timer =
      deadline === null
        ? undefined
        : setTimeout(() => controller.abort(), Math.max(0, deadline - performance.now()))
    // The timer must not keep a worker alive on its own; the capture it watches does that.
    timer?.unref()
    return {
      signal: controller.signal,
      dispose: () => clearTimeout(timer),
      failIfEnded: (evidence) => {
        if (controller.signal.aborted && this.#timeoutMs !== undefined) {
          const error = captureEndedBeforeTimeout(evidence, {
            runner: this.#runner,
            timeoutMs: this.#timeoutMs,
          })
          error.stack = `${error.name}: ${error.message}${calledFrom === '' ? '' : `\n${calledFrom}`}`
          throw error
        }
      },
    }
  }
}
