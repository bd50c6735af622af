import { test as baseTest } from 'vitest'
import {
  type CaptureProcessOptions,
  type Evidence,
  type ProcessScenarioInput,
  RunnerDeadline,
  TestCaptures,
} from '../../src/front-end.js'
import { flushArtifacts } from './artifacts.js'
import { vitestRoot } from './worker.js'

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
 * import { test, expect } from 'rea-capture/vitest'
 * test('greets', async ({ captureProcess }) => {
 *   expect(await captureProcess({ executable: 'node', arguments: ['./cli.mjs'] })).toMatchCapture()
 * })
 */
export const test = baseTest.extend<{ captureProcess: BoundCaptureProcess }>({
  captureProcess: async ({ task, signal }, use) => {
    // Vitest's timeout for this test started a moment ago, with the fixtures: captures end before it does.
    const runnerDeadline = new RunnerDeadline('Vitest', performance.now(), task.timeout)
    // Ended with the fixture: a capture the test starts after its end (from a callback it did not await) is
    // cancelled as it starts.
    const ended = new AbortController()
    const captures = new TestCaptures({
      root: vitestRoot,
      signals: [signal, ended.signal],
      captured: (evidence) => {
        const meta = task.meta as { rea?: { captures: { identity_digest: string }[] } }
        meta.rea ??= { captures: [] }
        meta.rea.captures.push({ identity_digest: evidence.identity_digest })
      },
    })
    await use((scenario, options = {}) => captures.start(scenario, options, runnerDeadline))
    // A capture the test did not await (it failed or timed out first) is cancelled and waited for here.
    ended.abort()
    await captures.cancelPending()
    await flushArtifacts()
  },
})
export const it = test
