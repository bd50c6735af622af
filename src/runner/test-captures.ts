import { projectOptions } from '../authority/project-options.js'
import type { RunnerDeadline } from './runner-deadline.js'
import { captureProcess, type CaptureProcessOptions } from '../capture/capture-process.js'
import type { Evidence } from '../evidence/schema.js'
import type { ProcessScenarioInput } from '../scenario/schema.js'
import { withTestDefaults } from '../scenario/test-defaults.js'

export interface TestCapturesOptions {
  /** The runner's root, the capture root: committed authority files then compare in any clone. */
  readonly root: () => string
  /** Signals that cancel every capture (Vitest: the test's own signal, and the fixture's end). */
  readonly signals?: readonly AbortSignal[]
  /** Told of each capture's Evidence as it resolves (Vitest keeps its identity digest in the test's meta). */
  readonly captured?: (evidence: Evidence) => void
}

interface PendingCapture {
  readonly controller: AbortController
  readonly settled: Promise<unknown>
}

/**
 * The captures a runner's `captureProcess` started, for either runner: each runs with the project's test
 * defaults under the runner's root, is ended shortly before the test's timeout (the capture then rejects with
 * REA's account of what it waited for: see `RunnerDeadline`), and is cancelled and waited for by
 * `cancelPending` when the test ends, so no process outlives its test.
 */
export class TestCaptures {
  readonly #options: TestCapturesOptions
  readonly #pending = new Set<PendingCapture>()

  constructor(options: TestCapturesOptions) {
    this.#options = options
  }

  /** Starts a capture for the running test, whose timeout `deadline` watches. */
  start(
    scenario: ProcessScenarioInput,
    options: Omit<CaptureProcessOptions, 'root'>,
    deadline: RunnerDeadline,
  ): Promise<Evidence> {
    const controller = new AbortController()
    const beforeTimeout = deadline.signal()
    const signal = AbortSignal.any([
      ...(this.#options.signals ?? []),
      controller.signal,
      beforeTimeout.signal,
      ...(options.signal === undefined ? [] : [options.signal]),
    ])
    const running = captureProcess(withTestDefaults(scenario, projectOptions()), {
      ...options,
      root: this.#options.root(),
      signal,
    })
      .finally(() => beforeTimeout.dispose())
      .then((evidence) => {
        this.#options.captured?.(evidence)
        beforeTimeout.failIfEnded(evidence)
        return evidence
      })
    const entry: PendingCapture = { controller, settled: running.catch(() => undefined) }
    this.#pending.add(entry)
    void entry.settled.finally(() => this.#pending.delete(entry))
    return running
  }

  /** Cancels the captures still running (the test failed or timed out before it awaited them) and waits for them. */
  async cancelPending(): Promise<void> {
    const running = [...this.#pending]
    for (const entry of running) {
      entry.controller.abort()
    }
    await Promise.all(running.map((entry) => entry.settled))
  }
}
